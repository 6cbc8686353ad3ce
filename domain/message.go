package domain

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/rivo/uniseg"
)

// AllowFrom is a person's setting of who may start a conversation with
// them (friends always may).
type AllowFrom string

// The choices of "Who can message you"; friends is the default.
const (
	AllowFriends    AllowFrom = "friends"
	AllowCourse     AllowFrom = "course"
	AllowDepartment AllowFrom = "department"
	AllowEveryone   AllowFrom = "everyone"
)

// ParseAllowFrom answers the setting named s.
func ParseAllowFrom(s string) (AllowFrom, error) {
	switch a := AllowFrom(s); a {
	case AllowFriends, AllowCourse, AllowDepartment, AllowEveryone:
		return a, nil
	}
	return "", InvalidField("allowFrom", MsgBadAllowFrom)
}

// Conversation kinds.
const (
	ConversationDirect = "direct"
	ConversationGroup  = "group"
)

// Conversation roles.
const (
	ConversationAdmin  = "admin"
	ConversationMember = "member"
)

// Why a member cannot send in a conversation (readOnlyReason).
const (
	ReadOnlyBlocked     = "blocked"
	ReadOnlyLeft        = "left"
	ReadOnlyNotAccepted = "not_accepted"
)

// Limits of conversations and messages.
const (
	// MinConversationMembers and MaxConversationMembers bound a group,
	// the creator counted.
	MinConversationMembers = 2
	MaxConversationMembers = 256
	MaxConversationTitle   = 80
	// MaxMessageLength is a message's text, after trimming.
	MaxMessageLength = 5000
	// MaxClientID bounds a send's client id.
	MaxClientID = 64
	// MaxMessageImages is how many images one message carries.
	MaxMessageImages = 4
)

// Messages of the messages area. The refusals are the product's wording
// (the messages contract of issue 29).
const (
	MsgBadAllowFrom         = "allowFrom must be one of friends, course, department, everyone"
	MsgOnlyFriendsMessage   = "This person only accepts messages from friends."
	MsgOnlyCourseMessage    = "This person only accepts messages from their course."
	MsgOnlyDeptMessage      = "This person only accepts messages from their department."
	MsgCantSendHere         = "You can't send messages in this conversation."
	MsgConversationNotFound = "Conversation not found"
	MsgMessageNotFound      = "Message not found"
	MsgBadConversationKind  = "kind must be direct or group"
	MsgMessageSelf          = "You cannot start a conversation with yourself"
	MsgUserIDRequired       = "userId is required"
	MsgTitleRequired        = "Please give the group a name"
	MsgTitleLong            = "The name must be at most 80 characters"
	MsgTooFewMembers        = "A group needs at least one other member"
	MsgTooManyMembers       = "A group can have at most 256 members"
	MsgBadMemberID          = "Not a valid user id"
	MsgMessageEmpty         = "Message cannot be empty"
	MsgMessageLong          = "Message must be at most 5000 characters"
	MsgTooManyMessageImages = "You can send a maximum of 4 images in a message."
	MsgBadClientID          = "clientId must be 1-64 letters, digits, '-' or '_'"
	MsgBadReplyTo           = "The message you reply to is not in this conversation"
	MsgBadEmoji             = "emoji must be a single emoji"
	MsgBadSeq               = "seq must be a message number"
	MsgNotConversationAdmin = "Only the group's admins can do this"
	MsgNotYourMessage       = "You can only change your own messages"
	MsgMessageUnsent        = "This message was unsent"
	MsgDirectNoMembers      = "A direct conversation has exactly two people"
	MsgGroupChatMembers     = "This chat follows its group's members: manage membership in the group."
	MsgGroupChatTitle       = "This chat has its group's name: rename the group instead."
	MsgDirectNoTitle        = "A direct conversation has no name"
	MsgNothingToChange      = "Nothing to change"
	MsgNotAMember           = "This person is not in the conversation"
	MsgMessageSendTooFast   = "You are sending messages too fast. Please wait a moment."
)

// Relation is what the rule of who may message whom needs to know of two
// people: the sender and the recipient.
type Relation struct {
	Friends bool
	// Blocked: a block stands between them, either way.
	Blocked bool
	// SameCourse: both are students of the same program and batch;
	// SameDepartment: both have the same (non-empty) department.
	SameCourse, SameDepartment bool
}

// MayMessage answers nil when the sender may start a conversation with (or
// add to a group) a recipient whose setting is allow, else the 403 the
// sender sees. A block refuses as "friends only" does: the refusal must
// not tell the sender they are blocked.
func MayMessage(allow AllowFrom, r Relation) error {
	if r.Blocked {
		return Forbidden(notAccepted(allow))
	}
	if r.Friends {
		return nil
	}
	switch allow {
	case AllowEveryone:
		return nil
	case AllowDepartment:
		if r.SameDepartment {
			return nil
		}
	case AllowCourse:
		if r.SameCourse {
			return nil
		}
	}
	return Forbidden(notAccepted(allow))
}

func notAccepted(allow AllowFrom) string {
	switch allow {
	case AllowCourse:
		return MsgOnlyCourseMessage
	case AllowDepartment:
		return MsgOnlyDeptMessage
	}
	return MsgOnlyFriendsMessage
}

// SameCourse reports whether two students' program and batch match (both
// set).
func SameCourse(courseA, batchA, courseB, batchB string) bool {
	return courseA != "" && batchA != "" && strings.EqualFold(courseA, courseB) && strings.EqualFold(batchA, batchB)
}

// SameDepartment reports whether two departments match (both set).
func SameDepartment(a, b string) bool {
	return a != "" && strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// ConversationInput is the body of POST /api/conversations.
type ConversationInput struct {
	Kind      string   `json:"kind"`
	UserID    string   `json:"userId"`
	Title     string   `json:"title"`
	MemberIDs []string `json:"memberIds"`
}

// NewConversation is a validated ConversationInput: for a direct one the
// other person, for a group its title and the other members (distinct,
// the creator left out).
type NewConversation struct {
	Kind    string
	UserID  uuid.UUID
	Title   string
	Members []uuid.UUID
}

// Validate checks the input of a new conversation made by creator.
func (in ConversationInput) Validate(creator uuid.UUID) (NewConversation, error) {
	switch in.Kind {
	case ConversationDirect:
		if strings.TrimSpace(in.UserID) == "" {
			return NewConversation{}, InvalidField("userId", MsgUserIDRequired)
		}
		id, err := uuid.Parse(in.UserID)
		if err != nil {
			return NewConversation{}, InvalidField("userId", MsgBadMemberID)
		}
		if id == creator {
			return NewConversation{}, InvalidField("userId", MsgMessageSelf)
		}
		return NewConversation{Kind: ConversationDirect, UserID: id}, nil
	case ConversationGroup:
		var fields []FieldError
		title, err := ValidateConversationTitle(in.Title)
		if err != nil {
			fields = append(fields, err.(*Error).Fields...)
		}
		members, merr := memberIDs("memberIds", in.MemberIDs, creator)
		if merr != nil {
			fields = append(fields, merr.Fields...)
		}
		if err := Join(fields); err != nil {
			return NewConversation{}, err
		}
		if len(members)+1 < MinConversationMembers {
			return NewConversation{}, InvalidField("memberIds", MsgTooFewMembers)
		}
		if len(members)+1 > MaxConversationMembers {
			return NewConversation{}, InvalidField("memberIds", MsgTooManyMembers)
		}
		return NewConversation{Kind: ConversationGroup, Title: title, Members: members}, nil
	}
	return NewConversation{}, InvalidField("kind", MsgBadConversationKind)
}

// MemberIDs reads a list of user ids (the body of adding members): every
// one valid, duplicates and self dropped, at least one left.
func MemberIDs(field string, raw []string, self uuid.UUID) ([]uuid.UUID, error) {
	ids, err := memberIDs(field, raw, self)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, InvalidField(field, MsgTooFewMembers)
	}
	if len(ids) >= MaxConversationMembers {
		return nil, InvalidField(field, MsgTooManyMembers)
	}
	return ids, nil
}

func memberIDs(field string, raw []string, self uuid.UUID) ([]uuid.UUID, *Error) {
	seen := make(map[uuid.UUID]bool, len(raw))
	out := make([]uuid.UUID, 0, len(raw))
	var fields []FieldError
	for i, s := range raw {
		id, err := uuid.Parse(s)
		if err != nil {
			fields = append(fields, FieldError{Field: field + "[" + itoa(i) + "]", Msg: MsgBadMemberID})
			continue
		}
		if id == self || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	if len(fields) > 0 {
		return nil, Invalid(fields[0].Msg, fields...)
	}
	return out, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// ValidateConversationTitle answers a group's trimmed name: 1-80
// characters of valid text.
func ValidateConversationTitle(s string) (string, error) {
	t := strings.TrimSpace(s)
	switch {
	case !ValidText(t):
		return "", InvalidField("title", MsgBadText)
	case t == "":
		return "", InvalidField("title", MsgTitleRequired)
	case utf8.RuneCountInString(t) > MaxConversationTitle:
		return "", InvalidField("title", MsgTitleLong)
	}
	return t, nil
}

// ConversationPatch is the body of PATCH /api/conversations/{id}: either
// or both.
type ConversationPatch struct {
	Title *string `json:"title"`
	Muted *bool   `json:"muted"`
}

// MessageInput is the body of a send.
type MessageInput struct {
	ClientID   string `json:"clientId"`
	Body       string `json:"body"`
	ReplyToSeq *int64 `json:"replyToSeq"`
	// ImageAlts describe the images of a multipart send, one per image in
	// order (fewer leave the rest undescribed).
	ImageAlts []string `json:"-"`
}

// NewMessage is a validated send.
type NewMessage struct {
	ClientID   string
	Body       string
	ReplyToSeq int64 // 0: none
	// Alts has one (maybe empty) description per image.
	Alts []string
}

// Validate checks a send of images images: a client id, a body of 1-5000
// characters after trimming (or none when images come), at most
// MaxMessageImages images with their descriptions, and a reply's seq
// (checked against the conversation later).
func (in MessageInput) Validate(images int) (NewMessage, error) {
	var fields []FieldError
	if !ValidClientID(in.ClientID) {
		fields = append(fields, FieldError{"clientId", MsgBadClientID})
	}
	if images > MaxMessageImages {
		fields = append(fields, FieldError{"images", MsgTooManyMessageImages})
	}
	body, err := "", error(nil)
	if images == 0 || strings.TrimSpace(in.Body) != "" {
		body, err = ValidateMessageBody(in.Body)
	} else if !ValidText(in.Body) {
		err = InvalidField("body", MsgBadText)
	}
	if err != nil {
		fields = append(fields, err.(*Error).Fields...)
	}
	alts, err := imageAlts(in.ImageAlts, min(images, MaxMessageImages))
	if err != nil {
		fields = append(fields, err.(*Error).Fields...)
	}
	var reply int64
	if in.ReplyToSeq != nil {
		if *in.ReplyToSeq < 1 {
			fields = append(fields, FieldError{"replyToSeq", MsgBadReplyTo})
		}
		reply = *in.ReplyToSeq
	}
	if err := Join(fields); err != nil {
		return NewMessage{}, err
	}
	return NewMessage{ClientID: in.ClientID, Body: body, ReplyToSeq: reply, Alts: alts}, nil
}

// ValidateMessageBody answers a message's trimmed text: 1-5000 characters
// of valid text.
func ValidateMessageBody(s string) (string, error) {
	b := strings.TrimSpace(s)
	switch {
	case !ValidText(b):
		return "", InvalidField("body", MsgBadText)
	case b == "":
		return "", InvalidField("body", MsgMessageEmpty)
	case utf8.RuneCountInString(b) > MaxMessageLength:
		return "", InvalidField("body", MsgMessageLong)
	}
	return b, nil
}

// ValidClientID reports whether s is a client id: 1-64 characters of
// A-Z a-z 0-9 - _ (a UUID fits).
func ValidClientID(s string) bool {
	if s == "" || len(s) > MaxClientID {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ValidateEmoji answers a reaction: exactly one emoji (one grapheme
// cluster made of emoji, modifiers and joiners: "👍", "👍🏽", "👩‍💻", "🇮🇳",
// "1️⃣").
func ValidateEmoji(s string) (string, error) {
	if s == "" || len(s) > 64 || !ValidText(s) || uniseg.GraphemeClusterCount(s) != 1 || !emojiCluster(s) {
		return "", InvalidField("emoji", MsgBadEmoji)
	}
	return s, nil
}

// emojiCluster reports whether one grapheme cluster is an emoji: it holds
// a pictographic symbol, a regional-indicator pair or a keycap, and
// nothing but emoji, their modifiers, variation selectors, joiners and
// tags (a letter with a combining mark is not one).
func emojiCluster(s string) bool {
	pictographic, keycap := false, false
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case r >= 0x1F1E6 && r <= 0x1F1FF: // regional indicators
			pictographic = true
		case r >= 0x1F3FB && r <= 0x1F3FF: // skin tones
		case r == 0x200D || r == 0xFE0F || r == 0xFE0E: // joiner, variation selectors
		case r >= 0xE0020 && r <= 0xE007F: // tags (subdivision flags)
		case r == 0x20E3: // combining enclosing keycap
			keycap = true
		case (r >= '0' && r <= '9' || r == '#' || r == '*') && i == 0 && len(runes) > 1:
			// a keycap's base; needs the keycap after it
		case unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) && r >= 0x1F000:
			pictographic = true
		case r == 0x00A9 || r == 0x00AE || r == 0x203C || r == 0x2049 || r == 0x2122 || r == 0x2139 ||
			r >= 0x2194 && r <= 0x21AA || r >= 0x2300 && r <= 0x23FF || r >= 0x25AA && r <= 0x27BF ||
			r >= 0x2934 && r <= 0x2935 || r >= 0x2B05 && r <= 0x2B55 || r == 0x3030 || r == 0x303D ||
			r == 0x3297 || r == 0x3299:
			pictographic = true
		default:
			return false
		}
	}
	if !pictographic && !keycap {
		return false
	}
	// A keycap base alone ("1") is not an emoji; with its keycap it is.
	first := runes[0]
	if first >= '0' && first <= '9' || first == '#' || first == '*' {
		return keycap
	}
	return true
}

// ReactionInput is the body of PUT …/reaction.
type ReactionInput struct {
	Emoji string `json:"emoji"`
}

// ReadInput is the body of POST …/read.
type ReadInput struct {
	Seq *int64 `json:"seq"`
}

// MessageEditInput is the body of PATCH …/messages/{seq}.
type MessageEditInput struct {
	Body string `json:"body"`
}

// MessageSettingsInput is the body of PUT /api/users/me/message-settings.
type MessageSettingsInput struct {
	AllowFrom string `json:"allowFrom"`
}

// MessageReportInput is the body of a message's report: a reason and
// details, as a post's report takes them.
type MessageReportInput struct {
	Reason  string `json:"reason"`
	Details string `json:"details"`
}

// Validate checks the reason and details as ReportInput does.
func (in MessageReportInput) Validate() (Report, error) {
	// The item type is the route's; the rest is checked as any report's.
	r, err := ReportInput{ItemType: string(ItemPost), Reason: in.Reason, Details: in.Details}.Validate()
	if err != nil {
		return Report{}, err
	}
	r.ItemType = ItemMessage
	return r, nil
}

// ImagesOnlyText stands for the text of a message of images only wherever
// a message is shown by its text alone — a reply's quote, a push, the
// conversation list (the web client words it the same): "Photo" for one
// image, "3 photos" for several; empty for none.
func ImagesOnlyText(images int) string {
	switch {
	case images <= 0:
		return ""
	case images == 1:
		return "Photo"
	}
	return strconv.Itoa(images) + " photos"
}

// Snippet is the start of a message's text as a reply's quote shows it.
func Snippet(body string, n int) string {
	if utf8.RuneCountInString(body) <= n {
		return body
	}
	r := []rune(body)
	return strings.TrimSpace(string(r[:n])) + "…"
}
