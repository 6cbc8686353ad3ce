package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestRepostInput(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		kind           Kind
	}{
		{"no comment", "", "", 0},
		{"trimmed", "  look at this  ", "look at this", 0},
		{"the limit", strings.Repeat("é", MaxPostLength), strings.Repeat("é", MaxPostLength), 0},
		{"too long", strings.Repeat("x", MaxPostLength+1), "", KindInvalid},
		{"not text", "a\x00b", "", KindInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RepostInput{Comment: tc.in}.Validate()
			var de *Error
			switch {
			case tc.kind == 0 && (err != nil || got != tc.want):
				t.Fatalf("Validate = %q, %v; want %q", got, err, tc.want)
			case tc.kind != 0 && (!errors.As(err, &de) || de.Kind != tc.kind):
				t.Fatalf("Validate error %v; want kind %d", err, tc.kind)
			}
		})
	}
}

func TestCanRepost(t *testing.T) {
	for _, tc := range []struct {
		name            string
		own, inGroup    bool
		wantForbidden   bool
		wantMessagePart string
	}{
		{"someone else's public post", false, false, false, ""},
		{"one's own", true, false, true, "your own"},
		{"a group's post", false, true, true, "public posts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CanRepost(tc.own, tc.inGroup)
			if got := errors.Is(err, ErrForbidden); got != tc.wantForbidden {
				t.Fatalf("CanRepost = %v; want forbidden %v", err, tc.wantForbidden)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantMessagePart) {
				t.Fatalf("message %q lacks %q", err.Error(), tc.wantMessagePart)
			}
		})
	}
}
