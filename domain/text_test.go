package domain

import (
	"errors"
	"testing"
)

func TestValidText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", true},
		{"ascii", "hello", true},
		{"multibyte", "ünïcødé ✓ 😀", true},
		{"control characters other than NUL", "\x01\x1b\x7f", true},
		{"NUL", "a\x00b", false},
		{"only NUL", "\x00", false},
		{"invalid UTF-8", "a\xffb", false},
		{"truncated sequence", "\xe2\x82", false},
		{"encoded surrogate", "\xed\xa0\x80", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValidText(tt.in); got != tt.want {
				t.Fatalf("ValidText(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestInvalidText(t *testing.T) {
	tests := []struct {
		field      string
		wantFields int
	}{{"", 0}, {"name", 1}}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			err := InvalidText(tt.field)
			if !errors.Is(err, ErrInvalid) || err.Message != MsgBadText || len(err.Fields) != tt.wantFields {
				t.Fatalf("InvalidText(%q) = %+v", tt.field, err)
			}
			if tt.wantFields == 1 && err.Fields[0].Field != tt.field {
				t.Fatalf("field %q", err.Fields[0].Field)
			}
		})
	}
}
