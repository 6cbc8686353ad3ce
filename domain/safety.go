package domain

import (
	"strings"
	"time"
	"unicode/utf8"
)

// ReportReason is why something was reported.
type ReportReason string

// The reasons a report may give.
const (
	ReasonSpam       ReportReason = "spam"
	ReasonHarassment ReportReason = "harassment"
	ReasonHate       ReportReason = "hate"
	ReasonNudity     ReportReason = "nudity"
	ReasonSelfHarm   ReportReason = "self_harm"
	ReasonOther      ReportReason = "other"
)

// ReportReasons lists every reason in the order a client offers them.
var ReportReasons = []ReportReason{ReasonSpam, ReasonHarassment, ReasonHate, ReasonNudity, ReasonSelfHarm, ReasonOther}

// ItemType is the kind of thing reported or moderated.
type ItemType string

// The kinds of reportable item.
const (
	ItemPost    ItemType = "post"
	ItemComment ItemType = "comment"
	ItemProfile ItemType = "profile"
	// ItemMessage is a message of a conversation: reported through its
	// conversation (the report keeps a copy), never browsed.
	ItemMessage ItemType = "message"
)

// ParseItemType answers the item type named s.
func ParseItemType(s string) (ItemType, error) {
	switch t := ItemType(s); t {
	case ItemPost, ItemComment, ItemProfile:
		return t, nil
	}
	return "", InvalidField("itemType", MsgBadItemType)
}

// ParseModeratedItemType answers the item type named s as the moderation
// queue and its actions take it: what ParseItemType takes, and messages.
func ParseModeratedItemType(s string) (ItemType, error) {
	if ItemType(s) == ItemMessage {
		return ItemMessage, nil
	}
	t, err := ParseItemType(s)
	if err != nil {
		return "", InvalidField("itemType", MsgBadModeratedType)
	}
	return t, nil
}

// Capabilities an account may hold besides being a member.
const (
	CapModerator = "moderator"
	CapAdmin     = "admin"
)

// Limits of the safety inputs.
const (
	MaxReportDetails    = 1000
	MaxModerationReason = 1000
	// MaxSuspensionDays bounds a timed suspension; longer is "for good".
	MaxSuspensionDays = 3650
)

// Messages of the safety area.
const (
	MsgBadItemType        = "itemType must be post, comment or profile"
	MsgBadModeratedType   = "itemType must be post, comment, profile or message"
	MsgBadReportReason    = "reason must be one of spam, harassment, hate, nudity, self_harm, other"
	MsgReportDetailsLong  = "Details must be at most 1000 characters"
	MsgReportOtherNeeds   = "Please say what is wrong"
	MsgAlreadyReported    = "You have already reported this"
	MsgCannotReportOwn    = "You cannot report your own content"
	MsgCannotBlockSelf    = "You cannot block yourself"
	MsgCannotMuteSelf     = "You cannot mute yourself"
	MsgModerationReason   = "Please give a reason"
	MsgModerationLong     = "Reason must be at most 1000 characters"
	MsgBadSuspensionDays  = "days must be between 0 (for good) and 3650"
	MsgNotModerator       = "Only moderators can do this"
	MsgNotAdmin           = "Only admins can do this"
	MsgReportNotFound     = "There are no open reports for this item"
	MsgCannotRemoveThis   = "Only posts, comments and messages can be removed"
	MsgCannotSuspendStaff = "Moderators and admins cannot be suspended; revoke the capability first"
	MsgCannotActOnSelf    = "You cannot do this to your own account"
	MsgNotSuspended       = "This account is not suspended"
	// MsgSuspended is what a suspended account's login answers.
	MsgSuspended = "Your account has been suspended"
)

// ReportInput is the body of POST /api/reports.
type ReportInput struct {
	ItemType string `json:"itemType"`
	ItemID   string `json:"itemId"`
	Reason   string `json:"reason"`
	Details  string `json:"details"`
}

// Report is a validated report (the item id is parsed by the caller).
type Report struct {
	ItemType ItemType
	Reason   ReportReason
	Details  string
}

// Validate checks the item type, the reason and the details (at most 1,000
// characters; "other" needs some).
func (in ReportInput) Validate() (Report, error) {
	var fields []FieldError
	t, err := ParseItemType(in.ItemType)
	if err != nil {
		fields = append(fields, FieldError{"itemType", MsgBadItemType})
	}
	reason := ReportReason(in.Reason)
	valid := false
	for _, r := range ReportReasons {
		valid = valid || r == reason
	}
	if !valid {
		fields = append(fields, FieldError{"reason", MsgBadReportReason})
	}
	details := strings.TrimSpace(in.Details)
	switch {
	case !ValidText(details):
		fields = append(fields, FieldError{"details", MsgBadText})
	case utf8.RuneCountInString(details) > MaxReportDetails:
		fields = append(fields, FieldError{"details", MsgReportDetailsLong})
	case reason == ReasonOther && details == "":
		fields = append(fields, FieldError{"details", MsgReportOtherNeeds})
	}
	if len(fields) > 0 {
		return Report{}, Invalid(fields[0].Msg, fields...)
	}
	return Report{ItemType: t, Reason: reason, Details: details}, nil
}

// ModerationInput is the body of a moderation action: why, and for a
// suspension how many days (0 or absent: for good).
type ModerationInput struct {
	Reason string `json:"reason"`
	Days   int    `json:"days"`
}

// ValidateReason answers the trimmed reason: required, at most 1,000 characters.
func (in ModerationInput) ValidateReason() (string, error) {
	r := strings.TrimSpace(in.Reason)
	switch {
	case !ValidText(r):
		return "", InvalidField("reason", MsgBadText)
	case r == "":
		return "", InvalidField("reason", MsgModerationReason)
	case utf8.RuneCountInString(r) > MaxModerationReason:
		return "", InvalidField("reason", MsgModerationLong)
	}
	return r, nil
}

// SuspensionEnd answers when a suspension of in.Days from now ends; nil is
// for good.
func (in ModerationInput) SuspensionEnd(now time.Time) (*time.Time, error) {
	if in.Days < 0 || in.Days > MaxSuspensionDays {
		return nil, InvalidField("days", MsgBadSuspensionDays)
	}
	if in.Days == 0 {
		return nil, nil
	}
	end := now.Add(time.Duration(in.Days) * 24 * time.Hour)
	return &end, nil
}

// SuspendedMessage is the refusal of a suspended account: until when (or
// that it is for good), and the moderator's reason.
func SuspendedMessage(until *time.Time, reason string) string {
	msg := MsgSuspended + " permanently."
	if until != nil {
		msg = MsgSuspended + " until " + SuspensionEndText(*until) + "."
	}
	if reason != "" {
		msg += " Reason: " + reason
	}
	return msg
}

// SuspensionEndText is a suspension's end as messages and mails write it.
func SuspensionEndText(until time.Time) string {
	return until.UTC().Format("2 January 2006 15:04 UTC")
}

// Suspended is the refusal of a suspended account: kind KindForbidden for a
// login, KindUnauthorized for a token it held. The message says why and
// until when (SuspendedMessage); the fields say the same to clients, which
// show it on the login page rather than anything else a refused login may
// suggest: "suspension" the reason and, unless it is for good,
// "suspendedUntil" the end (RFC 3339).
func Suspended(kind Kind, until *time.Time, reason string) *Error {
	e := &Error{Kind: kind, Message: SuspendedMessage(until, reason),
		Fields: []FieldError{{Field: "suspension", Msg: reason}}}
	if until != nil {
		e.Fields = append(e.Fields, FieldError{Field: "suspendedUntil", Msg: until.UTC().Format(time.RFC3339)})
	}
	return e
}

// RemovalNote is what the author of removed content is told.
func RemovalNote(item ItemType, reason string) string {
	what := "post"
	switch item {
	case ItemComment:
		what = "comment"
	case ItemMessage:
		what = "message"
	}
	return "A moderator removed your " + what + ". Reason: " + reason
}
