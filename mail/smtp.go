package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// defaultTimeout bounds each SMTP step when ctx allows longer.
const defaultTimeout = 30 * time.Second

// SMTP sends through an SMTP server. It opens one connection per message:
// codes are sent one at a time and rarely, so a pool would only hold idle
// connections that servers drop anyway.
type SMTP struct {
	host        string
	port        int
	implicitTLS bool
	user, pass  string
	from        string
	timeout     time.Duration
	roots       *x509.CertPool // nil: the system roots; tests set their own CA
}

// NewSMTP reads a server URL such as smtp://user:pass@host:587 or
// smtps://host:465. smtp uses STARTTLS whenever the server offers it
// (port 587 by default); smtps speaks TLS from the first byte (port 465 by
// default). With credentials in the URL the client authenticates with PLAIN
// (or LOGIN when that is all the server offers), which go-mail permits only
// over TLS or to a loopback server, so a password is never sent in the clear
// across a network. from is the sender, e.g. "Campus <no-reply@uni.edu>".
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			// url.Error repeats the whole URL, password included.
			err = uerr.Err
		}
		return nil, fmt.Errorf("mail: smtp url: %w", err)
	}
	s := &SMTP{host: u.Hostname(), from: from, timeout: defaultTimeout}
	switch u.Scheme {
	case "smtp":
		s.port = 587
	case "smtps":
		s.port, s.implicitTLS = 465, true
	default:
		return nil, fmt.Errorf("mail: smtp url: scheme %q is not smtp or smtps", u.Scheme)
	}
	if s.host == "" {
		return nil, errors.New("mail: smtp url: no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail: smtp url: port %q is out of range", p)
		}
		s.port = n
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("mail: smtp url: unexpected path %q", u.Path)
	}
	if u.RawQuery != "" {
		return nil, fmt.Errorf("mail: smtp url: unexpected query %q", u.RawQuery)
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
		if s.user == "" {
			return nil, errors.New("mail: smtp url: password without a user name")
		}
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: from address %q: %w", from, err)
	}
	return s, nil
}

// Send delivers m. ctx bounds the whole exchange: its deadline caps every
// step, and cancelling it closes the connection at once.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	msg, err := build(s.from, m)
	if err != nil {
		return err
	}
	timeout := s.timeout
	if d, ok := ctx.Deadline(); ok {
		timeout = max(min(timeout, time.Until(d)), time.Millisecond)
	}

	// go-mail uses ctx only while dialling; afterwards it relies on its own
	// per-step timeout. Closing the raw connection when ctx ends makes a
	// cancellation interrupt whatever step is in flight.
	var stop func() bool
	dial := func(dctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		conn, err := d.DialContext(dctx, network, addr)
		if err != nil {
			return nil, err
		}
		stop = context.AfterFunc(ctx, func() { _ = conn.Close() })
		if !s.implicitTLS {
			return conn, nil
		}
		tc := tls.Client(conn, s.tlsConfig())
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = conn.Close()
			return nil, fmt.Errorf("tls handshake: %w", err)
		}
		return tc, nil
	}
	policy := gomail.TLSOpportunistic
	if s.implicitTLS {
		policy = gomail.NoTLS // dial has encrypted already; no STARTTLS inside TLS
	}
	opts := []gomail.Option{
		gomail.WithPort(s.port),
		gomail.WithTimeout(timeout),
		gomail.WithDialContextFunc(dial),
		gomail.WithTLSConfig(s.tlsConfig()),
		gomail.WithTLSPolicy(policy),
	}
	if s.user != "" {
		opts = append(opts,
			gomail.WithOpportunisticSMTPAuth(gomail.SMTPAuthPlain, gomail.SMTPAuthLogin),
			gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	client, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	err = client.DialAndSendWithContext(ctx, msg)
	if stop != nil {
		stop()
	}
	if err != nil && msg.IsDelivered() {
		// The server accepted the message (DATA answered 250); only the
		// RSET or QUIT after it failed. Reporting that would make a caller
		// that retries send the message twice.
		return nil
	}
	if err != nil {
		if cerr := ctxErr(ctx); cerr != nil {
			return fmt.Errorf("mail: send: %w: %w", cerr, err)
		}
		return fmt.Errorf("mail: send: %w", err)
	}
	return nil
}

// ctxErr is ctx.Err, except that a deadline already past counts as exceeded
// even if ctx's own timer has not fired yet: the per-step timeout, which ends
// at the same moment, may have won the race and failed the step first.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

func (s *SMTP) tlsConfig() *tls.Config {
	return &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12, RootCAs: s.roots}
}
