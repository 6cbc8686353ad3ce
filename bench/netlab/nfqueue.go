package netlab

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// delayer holds every packet an iptables NFQUEUE rule hands it for a fixed
// time, then lets it go on in the order it came: the latency of sch_netem's
// "delay", for kernels built without that qdisc. The packets stay in the
// kernel; only their ids cross to user space (copy mode "meta"), and one
// batch verdict accepts every packet up to an id.
//
// The protocol is nfnetlink_queue's (linux/netfilter/nfnetlink_queue.h),
// spoken over a raw netlink socket: small enough that a library would add
// more than it saves.
type delayer struct {
	fd    int
	queue uint16
	delay time.Duration

	q        chan held // ids in arrival order
	stop     atomic.Bool
	readDone chan struct{}
	relDone  chan struct{}

	mu      sync.Mutex   // serialises writes to fd
	readErr atomic.Value // the reader's last error, for Close
}

// held is one queued packet and when it may go.
type held struct {
	id  uint32
	due time.Time
}

// nfnetlink constants (linux/netfilter/nfnetlink.h, nfnetlink_queue.h).
const (
	nfnlSubsysQueue = 3

	nfqnlMsgPacket       = 0
	nfqnlMsgConfig       = 2
	nfqnlMsgVerdictBatch = 3

	nfqaPacketHdr  = 1
	nfqaVerdictHdr = 2

	nfqaCfgCmd         = 1
	nfqaCfgParams      = 2
	nfqaCfgQueueMaxlen = 3

	nfqnlCfgCmdBind   = 1
	nfqnlCfgCmdUnbind = 2
	nfqnlCopyMeta     = 1

	nfAccept = 1

	solNetlink      = 270
	netlinkNoENOBUF = 5
	nlaTypeMask     = 0x3fff
)

// startDelayer binds queue in the network namespace at nsPath and starts
// holding its packets for delay.
func startDelayer(nsPath string, queue uint16, delay time.Duration) (*delayer, error) {
	fd, err := socketIn(nsPath)
	if err != nil {
		return nil, err
	}
	d := &delayer{fd: fd, queue: queue, delay: delay, q: make(chan held, 1<<16),
		readDone: make(chan struct{}), relDone: make(chan struct{})}
	fail := func(err error) (*delayer, error) {
		unix.Close(fd)
		return nil, err
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fail(fmt.Errorf("netlab: bind netlink: %w", err))
	}
	// A full socket buffer must not lose packet ids silently: with
	// NETLINK_NO_ENOBUFS the kernel keeps the packets queued and a later
	// batch verdict (every id up to N) releases them anyway.
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, 8<<20)
	_ = unix.SetsockoptInt(fd, solNetlink, netlinkNoENOBUF, 1)
	// The reader wakes up every 100 ms to notice Close.
	tv := unix.NsecToTimeval((100 * time.Millisecond).Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return fail(fmt.Errorf("netlab: netlink timeout: %w", err))
	}
	params := make([]byte, 5)
	binary.BigEndian.PutUint32(params, 0) // copy range: no payload
	params[4] = nfqnlCopyMeta
	maxlen := binary.BigEndian.AppendUint32(nil, 1<<16)
	for _, msg := range [][]byte{
		d.msg(nfqnlMsgConfig, unix.NLM_F_ACK, attr(nfqaCfgCmd, []byte{nfqnlCfgCmdBind, 0, 0, 0})),
		d.msg(nfqnlMsgConfig, unix.NLM_F_ACK, attr(nfqaCfgParams, params), attr(nfqaCfgQueueMaxlen, maxlen)),
	} {
		if err := d.request(msg); err != nil {
			return fail(err)
		}
	}
	go d.read()
	go d.release()
	return d, nil
}

// socketIn opens a netfilter netlink socket inside the namespace at nsPath:
// a socket belongs to the namespace it was made in, whatever thread uses
// it later.
func socketIn(nsPath string) (int, error) {
	fd := -1
	err := inNamespace(nsPath, func() error {
		var err error
		fd, err = unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_NETFILTER)
		if err != nil {
			return fmt.Errorf("netlab: netlink socket: %w", err)
		}
		return nil
	})
	if err != nil && fd >= 0 {
		unix.Close(fd)
		fd = -1
	}
	return fd, err
}

// inNamespace runs fn on a thread moved into the network namespace at
// nsPath: what fn creates (sockets) stays in that namespace. fn runs on a
// goroutine of its own, so that if the thread cannot return to our
// namespace it ends with that goroutine (the runtime retires a thread
// still locked when its goroutine exits) instead of running anything else.
func inNamespace(nsPath string, fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		target, err := unix.Open(nsPath, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("netlab: open %s: %w", nsPath, err)
			return
		}
		defer unix.Close(target)
		own, err := unix.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("netlab: own namespace: %w", err)
			return
		}
		defer unix.Close(own)
		if err := unix.Setns(target, unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("netlab: enter %s: %w", nsPath, err)
			return
		}
		fnErr := fn()
		if err := unix.Setns(own, unix.CLONE_NEWNET); err != nil {
			errc <- errors.Join(fnErr, fmt.Errorf("netlab: return to own namespace: %w", err))
			return // still locked: the thread goes with this goroutine
		}
		runtime.UnlockOSThread()
		errc <- fnErr
	}()
	return <-errc
}

// msg is one nfnetlink_queue message for d's queue.
func (d *delayer) msg(typ uint16, flags uint16, attrs ...[]byte) []byte {
	body := []byte{unix.AF_UNSPEC, 0, byte(d.queue >> 8), byte(d.queue)} // nfgenmsg, NFNETLINK_V0
	for _, a := range attrs {
		body = append(body, a...)
	}
	h := make([]byte, unix.NLMSG_HDRLEN, unix.NLMSG_HDRLEN+len(body))
	binary.NativeEndian.PutUint32(h[0:], uint32(unix.NLMSG_HDRLEN+len(body)))
	binary.NativeEndian.PutUint16(h[4:], nfnlSubsysQueue<<8|typ)
	binary.NativeEndian.PutUint16(h[6:], unix.NLM_F_REQUEST|flags)
	return append(h, body...)
}

// attr is one netlink attribute, padded to 4 bytes.
func attr(typ uint16, payload []byte) []byte {
	n := unix.SizeofNlAttr + len(payload)
	b := make([]byte, (n+3)&^3)
	binary.NativeEndian.PutUint16(b[0:], uint16(n))
	binary.NativeEndian.PutUint16(b[2:], typ)
	copy(b[unix.SizeofNlAttr:], payload)
	return b
}

// request sends msg and waits for the kernel's acknowledgement (before the
// reader runs: nothing else reads the socket yet).
func (d *delayer) request(msg []byte) error {
	if err := unix.Sendto(d.fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlab: nfqueue config: %w", err)
	}
	buf := make([]byte, 4096)
	for {
		n, _, err := unix.Recvfrom(d.fd, buf, 0)
		if err != nil {
			return fmt.Errorf("netlab: nfqueue config answer: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return fmt.Errorf("netlab: nfqueue config answer: %w", err)
		}
		for _, m := range msgs {
			if m.Header.Type != unix.NLMSG_ERROR || len(m.Data) < 4 {
				continue
			}
			if code := int32(binary.NativeEndian.Uint32(m.Data)); code != 0 {
				return fmt.Errorf("netlab: nfqueue config: %w", unix.Errno(-code))
			}
			return nil
		}
	}
}

// read takes packet ids off the socket and queues them with their due time.
func (d *delayer) read() {
	defer close(d.readDone)
	buf := make([]byte, 1<<16)
	for !d.stop.Load() {
		n, _, err := unix.Recvfrom(d.fd, buf, 0)
		if err != nil {
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOBUFS) {
				continue
			}
			d.readErr.Store(err)
			return
		}
		now := time.Now()
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			continue
		}
		for _, m := range msgs {
			if m.Header.Type != nfnlSubsysQueue<<8|nfqnlMsgPacket || len(m.Data) < 4 {
				continue
			}
			if id, ok := packetID(m.Data[4:]); ok {
				d.q <- held{id: id, due: now.Add(d.delay)}
			}
		}
	}
}

// packetID finds NFQA_PACKET_HDR's packet id among attrs.
func packetID(attrs []byte) (uint32, bool) {
	for len(attrs) >= unix.SizeofNlAttr {
		n := int(binary.NativeEndian.Uint16(attrs[0:]))
		typ := binary.NativeEndian.Uint16(attrs[2:]) & nlaTypeMask
		if n < unix.SizeofNlAttr || n > len(attrs) {
			return 0, false
		}
		if typ == nfqaPacketHdr && n >= unix.SizeofNlAttr+4 {
			return binary.BigEndian.Uint32(attrs[unix.SizeofNlAttr:]), true
		}
		attrs = attrs[min((n+3)&^3, len(attrs)):]
	}
	return 0, false
}

// release lets each packet go once it is due: every packet that came
// before it is due too (one delay for all), so one batch verdict per
// wake-up accepts them all.
func (d *delayer) release() {
	defer close(d.relDone)
	for h := range d.q {
		if wait := time.Until(h.due); wait > 0 {
			time.Sleep(wait)
		}
		last := h.id
	more:
		for {
			select {
			case n, ok := <-d.q:
				if !ok {
					break more
				}
				if time.Until(n.due) > 0 {
					// Not due yet: accept what is, then wait for it.
					d.accept(last)
					if wait := time.Until(n.due); wait > 0 {
						time.Sleep(wait)
					}
				}
				last = n.id
			default:
				break more
			}
		}
		d.accept(last)
	}
}

// accept lets every queued packet with an id up to id go on.
func (d *delayer) accept(id uint32) {
	v := make([]byte, 8)
	binary.BigEndian.PutUint32(v[0:], nfAccept)
	binary.BigEndian.PutUint32(v[4:], id)
	d.mu.Lock()
	defer d.mu.Unlock()
	_ = unix.Sendto(d.fd, d.msg(nfqnlMsgVerdictBatch, 0, attr(nfqaVerdictHdr, v)), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK})
}

// Close lets what is still held go at its due time, unbinds the queue and
// closes the socket. The iptables rules that feed the queue go first (the
// caller's job): a rule with --queue-bypass lets packets through once no
// one listens, but packets queued before the unbind would be dropped.
func (d *delayer) Close() error {
	d.stop.Store(true)
	// The reader stops within its receive timeout; then nothing more is
	// queued and the releaser lets what is left go, each at its due time.
	<-d.readDone
	close(d.q)
	<-d.relDone
	d.mu.Lock()
	_ = unix.Sendto(d.fd, d.msg(nfqnlMsgConfig, 0, attr(nfqaCfgCmd, []byte{nfqnlCfgCmdUnbind, 0, 0, 0})), 0,
		&unix.SockaddrNetlink{Family: unix.AF_NETLINK})
	d.mu.Unlock()
	err := unix.Close(d.fd)
	if e, ok := d.readErr.Load().(error); ok {
		return fmt.Errorf("netlab: nfqueue read: %w", e)
	}
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}
