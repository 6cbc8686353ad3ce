package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// stampLayout is fixed-width, so file names sort by time as plain strings.
const stampLayout = "20060102T150405.000000000Z"

// Dir "sends" by writing each message as an RFC 5322 .eml file into a
// directory, named <UTC time>-<recipient>.eml. It is the default mailer, so
// a fresh checkout can sign up and read its codes without a mail server.
type Dir struct {
	dir  string
	from string

	mu   sync.Mutex
	last time.Time // newest stamp handed out; stamps never repeat
}

// NewDir creates dir (mode 0700: the files hold live codes) if needed.
func NewDir(dir, from string) (*Dir, error) {
	if dir == "" {
		return nil, errors.New("mail: dir: no directory")
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: from address %q: %w", from, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("mail: dir: %w", err)
	}
	return &Dir{dir: dir, from: from}, nil
}

// Send writes m to a new file (mode 0600). The file appears under its final
// name only once complete, so a reader never sees half a message.
func (d *Dir) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	msg, err := build(d.from, m)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		return fmt.Errorf("mail: render: %w", err)
	}
	name := d.stamp().Format(stampLayout) + "-" + fileKey(m.To) + ".eml"

	tmp, err := os.CreateTemp(d.dir, ".sending-*") // 0600, and no .eml suffix
	if err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("mail: send: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(d.dir, name)); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("mail: send: %w", err)
	}
	return nil
}

// stamp is the current UTC time, nudged forward when the clock has not moved
// since the last message so that two names never collide.
func (d *Dir) stamp() time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now().UTC()
	if !now.After(d.last) {
		now = d.last.Add(time.Nanosecond)
	}
	d.last = now
	return now
}

// LatestFor returns the path of the newest .eml in dir addressed to
// recipient (compared case-insensitively). When there is none the error
// matches fs.ErrNotExist.
func LatestFor(dir, recipient string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("mail: latest: %w", err)
	}
	suffix := "-" + fileKey(recipient) + ".eml"
	latest := ""
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && len(n) == len(stampLayout)+len(suffix) && strings.HasSuffix(n, suffix) && n > latest {
			latest = n
		}
	}
	if latest == "" {
		return "", fmt.Errorf("mail: no message for %s in %s: %w", recipient, dir, fs.ErrNotExist)
	}
	return filepath.Join(dir, latest), nil
}

// SentAt is the time a message written by Dir was sent, read from its file
// name. Tests compare it rather than the file's mtime: the kernel stamps
// files with a coarse clock that can lag time.Now by a tick, so a message
// sent just after a moment can carry an mtime just before it.
func SentAt(path string) (time.Time, error) {
	name := filepath.Base(path)
	if len(name) < len(stampLayout) {
		return time.Time{}, fmt.Errorf("mail: sent at: %q is not a message name", name)
	}
	t, err := time.Parse(stampLayout, name[:len(stampLayout)])
	if err != nil {
		return time.Time{}, fmt.Errorf("mail: sent at: %w", err)
	}
	return t, nil
}

// maxKey keeps file names well under the usual 255-byte limit.
const maxKey = 200

// fileKey is the recipient's bare address, lower-cased, with anything but
// letters, digits and . @ _ + - replaced, so it is safe in a file name.
func fileKey(recipient string) string {
	addr := strings.TrimSpace(recipient)
	if a, err := netmail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	key := []byte(strings.ToLower(addr))
	for i, c := range key {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.IndexByte(".@_+-", c) >= 0:
		default:
			key[i] = '_'
		}
	}
	if len(key) > maxKey {
		key = key[:maxKey]
	}
	return string(key)
}
