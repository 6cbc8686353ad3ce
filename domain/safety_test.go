package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReportInputValidate(t *testing.T) {
	cases := []struct {
		name  string
		in    ReportInput
		field string // "" when valid
	}{
		{"spam", ReportInput{ItemType: "post", Reason: "spam"}, ""},
		{"self harm with details", ReportInput{ItemType: "comment", Reason: "self_harm", Details: "  worrying  "}, ""},
		{"profile", ReportInput{ItemType: "profile", Reason: "hate"}, ""},
		{"other needs details", ReportInput{ItemType: "post", Reason: "other"}, "details"},
		{"other with details", ReportInput{ItemType: "post", Reason: "other", Details: "x"}, ""},
		{"bad type", ReportInput{ItemType: "user", Reason: "spam"}, "itemType"},
		{"bad reason", ReportInput{ItemType: "post", Reason: "rude"}, "reason"},
		{"details 1000", ReportInput{ItemType: "post", Reason: "spam", Details: strings.Repeat("é", 1000)}, ""},
		{"details 1001", ReportInput{ItemType: "post", Reason: "spam", Details: strings.Repeat("é", 1001)}, "details"},
		{"nul in details", ReportInput{ItemType: "post", Reason: "spam", Details: "a\x00b"}, "details"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.in.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				if r.Details != strings.TrimSpace(c.in.Details) {
					t.Errorf("details %q not trimmed", r.Details)
				}
				return
			}
			var de *Error
			if !errors.As(err, &de) || de.Kind != KindInvalid {
				t.Fatalf("want invalid, got %v", err)
			}
			found := false
			for _, f := range de.Fields {
				found = found || f.Field == c.field
			}
			if !found {
				t.Errorf("want field %s in %+v", c.field, de.Fields)
			}
		})
	}
}

func TestModerationInput(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		in      ModerationInput
		reason  bool // reason valid
		days    bool // days valid
		forGood bool
	}{
		{"for good", ModerationInput{Reason: "spam wave", Days: 0}, true, true, true},
		{"a week", ModerationInput{Reason: "x", Days: 7}, true, true, false},
		{"blank reason", ModerationInput{Reason: "  ", Days: 1}, false, true, false},
		{"negative days", ModerationInput{Reason: "x", Days: -1}, true, false, false},
		{"too many days", ModerationInput{Reason: "x", Days: MaxSuspensionDays + 1}, true, false, false},
		{"long reason", ModerationInput{Reason: strings.Repeat("a", 1001)}, false, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.in.ValidateReason(); (err == nil) != c.reason {
				t.Errorf("reason: err %v, want valid=%v", err, c.reason)
			}
			end, err := c.in.SuspensionEnd(now)
			if (err == nil) != c.days {
				t.Fatalf("days: err %v, want valid=%v", err, c.days)
			}
			if err == nil && (end == nil) != c.forGood {
				t.Errorf("end %v, want for good=%v", end, c.forGood)
			}
			if end != nil && !end.Equal(now.Add(time.Duration(c.in.Days)*24*time.Hour)) {
				t.Errorf("end %v", end)
			}
		})
	}
	if got := SuspendedMessage(nil, "spam"); got != "Your account has been suspended permanently. Reason: spam" {
		t.Errorf("for good: %q", got)
	}
	if got := SuspendedMessage(&now, "spam"); got != "Your account has been suspended until 24 November 2026 12:00 UTC. Reason: spam" {
		t.Errorf("until: %q", got)
	}
	e := Suspended(KindForbidden, &now, "spam")
	if e.Kind != KindForbidden || len(e.Fields) != 2 || e.Fields[0] != (FieldError{Field: "suspension", Msg: "spam"}) ||
		e.Fields[1] != (FieldError{Field: "suspendedUntil", Msg: "2026-11-24T12:00:00Z"}) {
		t.Errorf("refusal %+v", e)
	}
	if e := Suspended(KindUnauthorized, nil, "spam"); len(e.Fields) != 1 {
		t.Errorf("a suspension for good has an end: %+v", e)
	}
}
