package mail

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"strings"
	"testing"

	"campus/domain"
)

// parsed is an e-mail read back the way a mail client would.
type parsed struct {
	header     netmail.Header
	text, html string
}

// parse reads raw as RFC 5322 and decodes its text and HTML parts.
func parse(t *testing.T, raw []byte) parsed {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not an RFC 5322 message: %v\n%s", err, raw)
	}
	p := parsed{header: msg.Header}
	readPart(t, &p, msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	return p
}

func readPart(t *testing.T, p *parsed, contentType, encoding string, body io.Reader) {
	t.Helper()
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatalf("content type %q: %v", contentType, err)
	}
	if strings.HasPrefix(media, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("multipart: %v", err)
			}
			readPart(t, p, part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"), part)
		}
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("body: %v", err)
	}
	switch media {
	case "text/plain":
		p.text += string(b)
	case "text/html":
		p.html += string(b)
	default:
		t.Fatalf("unexpected part %s", media)
	}
}

func TestCodeMessage(t *testing.T) {
	for _, purpose := range domain.Purposes() {
		t.Run(string(purpose), func(t *testing.T) {
			m := CodeMessage("Campus", "asha@uni.edu", "042917", purpose)
			if m.To != "asha@uni.edu" {
				t.Errorf("To = %q", m.To)
			}
			if !strings.Contains(m.Subject, "Campus") || !strings.Contains(m.Subject, purpose.Label()) {
				t.Errorf("Subject %q lacks the product or %q", m.Subject, purpose.Label())
			}
			for _, body := range []string{m.Text, m.HTML} {
				for _, want := range []string{"042917", purpose.Label(), "expires in 10 minutes", "Campus"} {
					if !strings.Contains(body, want) {
						t.Errorf("body lacks %q:\n%s", want, body)
					}
				}
			}
		})
	}
	t.Run("html is escaped", func(t *testing.T) {
		m := CodeMessage("<Campus & Co>", "a@b.co", "123456", domain.PurposeReset)
		if strings.Contains(m.HTML, "<Campus") || !strings.Contains(m.HTML, "&lt;Campus &amp; Co&gt;") {
			t.Errorf("product not escaped in HTML:\n%s", m.HTML)
		}
	})
	t.Run("unknown purpose still reads", func(t *testing.T) {
		m := CodeMessage("Campus", "a@b.co", "123456", domain.Purpose("bogus"))
		if !strings.Contains(m.Text, "Use it to confirm your request.") {
			t.Errorf("text:\n%s", m.Text)
		}
	})
}

func TestBuildRejects(t *testing.T) {
	ok := Message{To: "a@b.co", Subject: "s", Text: "t"}
	tests := []struct {
		name      string
		from      string
		edit      func(*Message)
		want      string
		permanent bool // no retry can help
	}{
		{"no recipient", "x@y.co", func(m *Message) { m.To = " " }, "no recipient", true},
		{"bad recipient", "x@y.co", func(m *Message) { m.To = "not an address" }, "recipient", true},
		{"line break in subject", "x@y.co", func(m *Message) { m.Subject = "hi\r\nBcc: victim@x.co" }, "line break", true},
		{"no text", "x@y.co", func(m *Message) { m.Text = "" }, "no text", true},
		{"message id with a bracket", "x@y.co", func(m *Message) { m.ID = "a>b" }, "message id", true},
		{"bad sender", "nobody", func(*Message) {}, "sender", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ok
			tt.edit(&m)
			_, err := build(tt.from, m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tt.want)
			}
			if Permanent(err) != tt.permanent {
				t.Errorf("Permanent(%v) = %v, want %v", err, !tt.permanent, tt.permanent)
			}
		})
	}
}

// A message with an ID keeps its Message-ID however often it is built (a
// retry after a lost acknowledgement); one without gets a fresh ID each time.
func TestMessageID(t *testing.T) {
	tests := []struct {
		name string
		id   string
		want string // "" when the two builds must differ
	}{
		{"stable", "0193a8f2-4c1e-7d3a-9b7e-2f1c5d6e7a8b", "<0193a8f2-4c1e-7d3a-9b7e-2f1c5d6e7a8b@campus.test>"},
		{"fresh", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ids []string
			for range 2 {
				msg, err := build("Campus <no-reply@campus.test>", Message{ID: tt.id, To: "a@b.co", Subject: "s", Text: "t"})
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := msg.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, parse(t, buf.Bytes()).header.Get("Message-Id"))
			}
			switch {
			case tt.want != "" && (ids[0] != tt.want || ids[1] != tt.want):
				t.Errorf("Message-IDs %v, want %s twice", ids, tt.want)
			case tt.want == "" && (ids[0] == "" || ids[0] == ids[1]):
				t.Errorf("Message-IDs %v, want two different ones", ids)
			}
		})
	}
}
