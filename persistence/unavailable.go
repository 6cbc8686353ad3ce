package persistence

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/uptrace/bun/driver/pgdriver"

	"campus/rawio"
)

// IsUnavailable reports whether err means the database could not be
// reached or is restarting, rather than that the query was wrong: the
// server refused or dropped the connection, is shutting down or starting
// up, or has no connection slot left. Nothing was done that needs undoing
// (a transaction that lost its connection rolled back), so the caller may
// send the request again in a moment: 503 with Retry-After, never 500.
//
// This is the one place that knows what such errors look like; the app and
// the HTTP layer ask it.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return unavailableCode(pgErr.Field('C'))
	}
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, net.ErrClosed):
		return true
	}
	// A dial, read or write on the socket that failed: the network or the
	// server is gone (pgdriver wraps these in net.OpError).
	var opErr *net.OpError
	return errors.As(err, &opErr)
}

// unavailableCode reports whether a SQLSTATE says the server cannot serve
// now: class 08 (connection exception), 57P01 admin_shutdown, 57P02
// crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery),
// 53300 too_many_connections.
func unavailableCode(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// checkConn is run by database/sql before a pooled connection is reused.
// A connection the server closed (a restart, an idle timeout) is found
// here, with one non-blocking peek at its socket, and discarded before a
// query is sent on it: after a restart of Postgres the pool's old
// connections are dropped one by one without failing a request each.
// An idle connection has nothing to read; anything there (end of file, or
// the server's "terminating connection" message) means it is dead.
func checkConn(_ context.Context, cn *pgdriver.Conn) error {
	sc, ok := cn.Conn().(syscall.Conn)
	if !ok {
		return nil // TLS or another wrapper: the query finds out
	}
	raw, err := sc.SyscallConn()
	if err != nil || !rawio.Idle(raw) {
		return driver.ErrBadConn
	}
	return nil
}
