// Package mail sends Campus's e-mail: one-time codes for signup, password
// reset and the settings flows. Production uses SMTP; by default, and in
// development and tests, messages are written as .eml files to a directory.
package mail

import (
	"context"
	"errors"
	"fmt"
	"html"
	netmail "net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"campus/domain"
)

// Message is one plain-text e-mail to one recipient, with an optional HTML
// alternative.
type Message struct {
	// ID, when set, is the Message-ID's left part (the sender's domain is
	// added): a message retried after a lost acknowledgement then carries
	// the same Message-ID, so the receiving side can tell it is a repeat.
	ID      string
	To      string
	Subject string
	Text    string
	HTML    string // optional
}

// ErrInvalidMessage marks a message no retry can send (no recipient, a
// malformed address, a line break in the subject).
var ErrInvalidMessage = errors.New("mail: invalid message")

// Mailer delivers messages. Send returns once the message is handed over (to
// the SMTP server, or to disk) and honours ctx's deadline and cancellation.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// build turns m into a go-mail message from the given sender, checking the
// parts that would otherwise fail late or produce a broken e-mail.
func build(from string, m Message) (*gomail.Msg, error) {
	if strings.TrimSpace(m.To) == "" {
		return nil, fmt.Errorf("%w: no recipient", ErrInvalidMessage)
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, fmt.Errorf("%w: subject contains a line break", ErrInvalidMessage)
	}
	if strings.ContainsAny(m.ID, "<>@ \r\n") {
		return nil, fmt.Errorf("%w: message id %q", ErrInvalidMessage, m.ID)
	}
	if m.Text == "" {
		return nil, fmt.Errorf("%w: no text", ErrInvalidMessage)
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail: sender: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("%w: recipient: %w", ErrInvalidMessage, err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.ID != "" {
		domain := "localhost"
		if a, err := netmail.ParseAddress(from); err == nil {
			if at := strings.LastIndexByte(a.Address, '@'); at >= 0 {
				domain = a.Address[at+1:]
			}
		}
		msg.SetMessageIDWithValue(m.ID + "@" + domain)
	} else {
		msg.SetMessageID()
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	return msg, nil
}

// Permanent reports whether err, from Send, means this message can never be
// delivered as it is: it is malformed, or the SMTP server refused its
// recipient or its content with a permanent (5xx) reply. Anything else may
// work on a later try: the server unreachable, a timeout, a 4xx reply, and
// refusals that concern every message alike (login, the sender address),
// which are for an operator to fix, not a reason to drop mail.
func Permanent(err error) bool {
	if errors.Is(err, ErrInvalidMessage) {
		return true
	}
	var se *gomail.SendError
	if !errors.As(err, &se) || se.IsTemp() || se.ErrorCode() < 500 {
		return false
	}
	switch se.Reason {
	case gomail.ErrSMTPRcptTo, gomail.ErrSMTPData, gomail.ErrSMTPDataClose:
		return true
	}
	return false
}

// CodeMessage is the e-mail that carries a one-time code: the code, what it
// is for, and that it expires (after domain.OTPTTL, which the screens also
// show). product is the product's name as users know it, e.g. "Campus".
func CodeMessage(product, to, code string, purpose domain.Purpose) Message {
	use := purpose.Label()
	if use == "" {
		use = "confirm your request"
	}
	ttl := fmt.Sprintf("%d minutes", int(domain.OTPTTL/time.Minute))
	text := fmt.Sprintf(`Hello,

Your %[1]s code is: %[2]s

Use it to %[3]s.
It expires in %[4]s and works only once.

If you did not ask for this code, you can ignore this e-mail:
nothing changes without it. Never share the code with anyone.

%[1]s
`, product, code, use, ttl)

	p, c := html.EscapeString(product), html.EscapeString(code)
	page := fmt.Sprintf(`<!doctype html>
<html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello,</p>
<p>Your %[1]s code is:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">%[2]s</p>
<p>Use it to %[3]s. It expires in %[4]s and works only once.</p>
<p>If you did not ask for this code, you can ignore this e-mail: nothing changes without it.
Never share the code with anyone.</p>
<p>%[1]s</p>
</body></html>
`, p, c, html.EscapeString(use), ttl)

	return Message{
		To:      to,
		Subject: fmt.Sprintf("%s: your code to %s", product, use),
		Text:    text,
		HTML:    page,
	}
}
