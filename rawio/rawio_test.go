package rawio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// pair is a connected pair: srv accepted through Listener, cli dialed and
// wrapped with Conn.
func pair(t *testing.T, network string) (srv, cli net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	ln = Listener(ln)
	t.Cleanup(func() { ln.Close() })
	got := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(got)
			return
		}
		got <- c
	}()
	d, err := net.Dial(network, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cli = Conn(d)
	srv, ok := <-got
	if !ok {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { srv.Close(); cli.Close() })
	return srv, cli
}

// TestConnReadsAndWrites: what one side writes the other reads, both ways,
// over TCP and a Unix socket, the wrapped connection still offering its
// descriptor; a payload far over the socket buffers is written whole while
// the reader takes its time (the write waits for room, as net's does).
func TestConnReadsAndWrites(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			srv, cli := pair(t, network)
			if enabled {
				if _, ok := srv.(syscall.Conn); !ok {
					t.Fatalf("%T offers no descriptor", srv)
				}
				if _, wrapped := srv.(*net.TCPConn); wrapped {
					t.Fatal("accepted connection not wrapped")
				}
			}
			for _, tc := range []struct {
				name   string
				w, r   net.Conn
				size   int
				slowly bool
			}{
				{"small, server to client", srv, cli, 100, false},
				{"small, client to server", cli, srv, 100, false},
				{"8 MiB to a slow reader", srv, cli, 8 << 20, true},
			} {
				t.Run(tc.name, func(t *testing.T) {
					want := bytes.Repeat([]byte("campus!"), tc.size/7+1)[:tc.size]
					errc := make(chan error, 1)
					go func() {
						n, err := tc.w.Write(want)
						if err == nil && n != len(want) {
							err = errors.New("short write")
						}
						errc <- err
					}()
					got := make([]byte, 0, len(want))
					buf := make([]byte, 64<<10)
					for len(got) < len(want) {
						if tc.slowly {
							time.Sleep(time.Millisecond)
						}
						n, err := tc.r.Read(buf)
						if err != nil {
							t.Fatalf("read after %d bytes: %v", len(got), err)
						}
						got = append(got, buf[:n]...)
					}
					if err := <-errc; err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatal("bytes differ")
					}
				})
			}
		})
	}
}

// TestConnErrors: the wrapped connection fails as net's does: a passed
// deadline is a timeout, a peer that left is io.EOF, a closed connection
// is net.ErrClosed.
func TestConnErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(srv, cli net.Conn)
		check func(err error) bool
		want  string
	}{
		{"read deadline passed", func(srv, _ net.Conn) { _ = srv.SetReadDeadline(time.Now().Add(20 * time.Millisecond)) },
			func(err error) bool {
				var ne net.Error
				return errors.As(err, &ne) && ne.Timeout() && errors.Is(err, os.ErrDeadlineExceeded)
			}, "a timeout"},
		{"peer closed", func(_, cli net.Conn) { cli.Close() },
			func(err error) bool { return err == io.EOF }, "io.EOF"},
		{"closed here", func(srv, _ net.Conn) { srv.Close() },
			func(err error) bool { return errors.Is(err, net.ErrClosed) }, "net.ErrClosed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, cli := pair(t, "tcp")
			tc.setup(srv, cli)
			_, err := srv.Read(make([]byte, 16))
			if !tc.check(err) {
				t.Fatalf("read error %v (%T), want %s", err, err, tc.want)
			}
		})
	}
}

// TestTryWriteAndTryRead never wait: with nothing to read TryRead answers
// 0 and no error, and TryWrite takes what fits in the send buffer and
// leaves the rest when the peer reads nothing.
func TestTryWriteAndTryRead(t *testing.T) {
	srv, cli := pair(t, "tcp")
	rc, err := srv.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := TryRead(rc, buf); n != 0 || err != nil {
		t.Fatalf("TryRead on an empty socket: %d, %v", n, err)
	}
	big := make([]byte, 64<<20)
	n, err := TryWrite(rc, big)
	if err != nil || n == 0 || n >= len(big) {
		t.Fatalf("TryWrite of 64 MiB to a peer that reads nothing: %d, %v (want part of it, no error)", n, err)
	}
	if _, err := cli.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := TryRead(rc, buf)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			if string(buf[:n]) != "hello" {
				t.Fatalf("read %q", buf[:n])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the peer's bytes never came")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestConnLeavesOthers: a connection without a descriptor is answered as
// it is.
func TestConnLeavesOthers(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if Conn(a) != a {
		t.Fatal("a pipe was wrapped")
	}
}

// TestTryWriteAfterAbort: a write deadline in the past (how a session
// aborts its socket) fails TryWrite without writing.
func TestTryWriteAfterAbort(t *testing.T) {
	srv, _ := pair(t, "tcp")
	rc, err := srv.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	_ = srv.SetDeadline(time.Now())
	if n, err := TryWrite(rc, []byte("x")); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("TryWrite after the deadline: %d, %v", n, err)
	}
}
