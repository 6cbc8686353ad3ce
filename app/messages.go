package app

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
)

// List sizes of conversations and messages.
const (
	conversationsPageDefault = 20
	conversationsPageMax     = 50
	messagesPageDefault      = 30
	messagesPageMax          = 100
	// replySnippet is how much of a quoted message a reply shows.
	replySnippet = 120
)

// Rates of sending and typing, per person (per node, like every limiter):
// a send budget of messageBurst at once refilled at messageRate a minute,
// and one typing event per person and conversation every typingEvery.
const (
	messageRate  = 60
	messageBurst = 20
	typingEvery  = 2 * time.Second
)

// NewMessageLimiter is the send rate limit of every account (429 with
// Retry-After past it); enabled false allows everything.
func NewMessageLimiter(enabled bool) *Limiter {
	return NewLimiter(messageRate, time.Minute, messageBurst, enabled)
}

// NewTypingLimiter lets one typing event per person and conversation through
// every 2 s; the rest are dropped. It is the protocol's, not a safety
// limit, so it is on even when rate limits are off.
func NewTypingLimiter() *Limiter { return NewLimiter(1, typingEvery, 1, true) }

var (
	errConversationNotFound = domain.NotFound(domain.MsgConversationNotFound)
	errMessageNotFound      = domain.NotFound(domain.MsgMessageNotFound)
	errCantSendHere         = domain.Forbidden(domain.MsgCantSendHere)
	errNotConvAdmin         = domain.Forbidden(domain.MsgNotConversationAdmin)
	errNotYourMessage       = domain.Forbidden(domain.MsgNotYourMessage)
	errMessageUnsent        = domain.Conflict(domain.MsgMessageUnsent)
	errBadReplyTo           = domain.InvalidField("replyToSeq", domain.MsgBadReplyTo)
	errDirectNoTitle        = domain.InvalidField("title", domain.MsgDirectNoTitle)
	errDirectNoMembers      = domain.InvalidField("userIds", domain.MsgDirectNoMembers)
	errGroupChatMembers     = domain.Forbidden(domain.MsgGroupChatMembers)
	errGroupChatTitle       = domain.Forbidden(domain.MsgGroupChatTitle)
	errNothingToChange      = domain.Invalid(domain.MsgNothingToChange)
	errNotAMember           = domain.NotFound(domain.MsgNotAMember)
	errSendTooFast          = func(wait int) error { return domain.TooMany(domain.MsgMessageSendTooFast, wait) }
	errBadReadSeq           = domain.InvalidField("seq", domain.MsgBadSeq)
)

// ConversationGrains is what messages need from the live core: a send goes
// through its conversation's grain, which serializes the conversation's
// sends, has Postgres number them and answers after the commit
// (actors.Live implements it).
type ConversationGrains interface {
	// SendMessage stores s and answers its seq, id and when it was stored;
	// created is false when s.ClientID was stored before by the same
	// sender (a retry), whose original it answers.
	SendMessage(ctx context.Context, conv uuid.UUID, s persistence.MessageSend) (seq int64, id uuid.UUID, at time.Time, created bool, err error)
}

// MessagesDeps are what the messages use cases need.
type MessagesDeps struct {
	DB     *bun.DB
	Grains ConversationGrains
	// Fanout sends the conversation events; nil: none (clients see the
	// changes on their next fetch).
	Fanout Fanout
	// Brakes limit new accounts' conversations and messages; nil: none.
	Brakes *Brakes
	// SendLimit bounds every account's sends (NewMessageLimiter); nil:
	// none. TypingLimit drops typing events over one per person and
	// conversation every 2 s (NewTypingLimiter); nil: none.
	SendLimit   *Limiter
	TypingLimit *Limiter
	// Media stores messages' images (the posts' store); nil: a send with
	// images is refused.
	Media ImageStore
	Log   zerolog.Logger
}

// Messages is direct and group conversations (issue 29): private between
// their members, stored on the university's server, not end-to-end
// encrypted, and never in the search index. Reads go to Postgres; sends go
// through the conversation's grain.
type Messages struct{ d MessagesDeps }

// NewMessages wires the messages use cases.
func NewMessages(d MessagesDeps) *Messages { return &Messages{d: d} }

// ConversationMemberView is a member as a conversation lists them: the
// person's brief, their role and their read pointer (what "Seen" is made
// of after a reload).
type ConversationMemberView struct {
	UserRef
	Role string `json:"role"`
	// ReadSeq is absent where a block stands between the member and the
	// reader (no read pointer crosses a block, as no message:read does),
	// and never past what the reader may read.
	ReadSeq *int64 `json:"readSeq,omitempty"`
}

// ReplyView is the message a message replies to.
type ReplyView struct {
	Seq        int64  `json:"seq"`
	SenderName string `json:"senderName"`
	// Snippet is the start of its text, '' if it was unsent.
	Snippet string `json:"snippet"`
}

// MessageView is a message as clients show it.
type MessageView struct {
	ID             string  `json:"id"`
	ConversationID string  `json:"conversationId"`
	Seq            int64   `json:"seq"`
	Sender         UserRef `json:"sender"`
	Body           string  `json:"body"`
	// Images are in the form posts answer theirs; none once unsent.
	Images  []PostImageView `json:"images"`
	ReplyTo *ReplyView      `json:"replyTo"`
	// Reactions carry mine for the reader; pushes carry mine false (the
	// client computes it from its own user id when it needs to).
	Reactions []persistence.Reaction `json:"reactions"`
	EditedAt  *time.Time             `json:"editedAt"`
	Unsent    bool                   `json:"unsent"`
	ClientID  string                 `json:"clientId"`
	CreatedAt time.Time              `json:"createdAt"`
}

// NewMessageView renders a message row. An unsent message, or one a
// moderator removed, shows no text.
func NewMessageView(r *persistence.MessageRow) MessageView {
	v := MessageView{ID: r.ID.String(), ConversationID: r.ConversationID.String(), Seq: r.Seq, Body: r.Body,
		Reactions: r.Reactions, ClientID: r.ClientID, CreatedAt: r.CreatedAt}
	if r.Sender.ID != uuid.Nil {
		v.Sender = NewUserRef(&r.Sender)
	} else {
		v.Sender = UserRef{Name: "Deleted account"}
	}
	v.Images = make([]PostImageView, 0, len(r.Images))
	if r.Hidden() {
		v.Body, v.Unsent, v.Reactions = "", true, nil
	} else {
		for _, im := range r.Images {
			iv := PostImageView{URL: im.URL, Type: im.Type, Width: im.Width, Height: im.Height, Alt: im.Alt,
				ThumbURL: im.URL, Variants: variantViews(im.Variants)}
			if len(im.Variants) > 0 {
				iv.ThumbURL = im.Variants[0].URL
			}
			v.Images = append(v.Images, iv)
		}
	}
	if v.Reactions == nil {
		v.Reactions = []persistence.Reaction{}
	}
	if !r.EditedAt.IsZero() && !v.Unsent {
		t := r.EditedAt
		v.EditedAt = &t
	}
	if r.ReplyToSeq > 0 {
		rv := &ReplyView{Seq: r.ReplyToSeq, SenderName: r.ReplySenderName}
		switch {
		case r.ReplyHidden:
		case strings.TrimSpace(r.ReplyBody) == "":
			// Images only: the snippet must not read as unsent ('').
			rv.Snippet = domain.ImagesOnlyText(r.ReplyImages)
		default:
			rv.Snippet = domain.Snippet(r.ReplyBody, replySnippet)
		}
		v.ReplyTo = rv
	}
	return v
}

// ConversationGroupView names the group a group's chat belongs to, with
// its picture (the chat's avatar; empty when the group has none).
type ConversationGroupView struct {
	ID        string `json:"id"`
	Handle    string `json:"handle"`
	AvatarURL string `json:"avatarUrl"`
}

// ConversationView is a conversation as one person sees it.
type ConversationView struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Members are the current members, the reader included; for a reader
	// who left, the members as of their leaving.
	Members     []ConversationMemberView `json:"members"`
	LastSeq     int64                    `json:"lastSeq"`
	LastMessage *MessageView             `json:"lastMessage"`
	ReadSeq     int64                    `json:"readSeq"`
	UnreadCount int                      `json:"unreadCount"`
	Muted       bool                     `json:"muted"`
	// ReadOnly: the reader cannot send (ReadOnlyReason says why: blocked,
	// left, not_accepted).
	ReadOnly       bool   `json:"readOnly"`
	ReadOnlyReason string `json:"readOnlyReason,omitempty"`
	// Group is the group whose chat this is (its members are the group's,
	// managed there); null for other conversations.
	Group     *ConversationGroupView `json:"group"`
	Role      string                 `json:"role"`
	UpdatedAt time.Time              `json:"updatedAt"`
	CreatedAt time.Time              `json:"createdAt"`
}

// ConversationList answers GET /api/conversations.
type ConversationList struct {
	Conversations []ConversationView `json:"conversations"`
	NextCursor    *string            `json:"nextCursor"`
	UnreadTotal   int                `json:"unreadTotal"`
}

// MessagePageView answers GET …/messages: ascending seq.
type MessagePageView struct {
	Messages []MessageView `json:"messages"`
	HasMore  bool          `json:"hasMore"`
}

// MessagesReadResult answers POST …/read.
type MessagesReadResult struct {
	ReadSeq     int64 `json:"readSeq"`
	UnreadCount int   `json:"unreadCount"`
	UnreadTotal int   `json:"unreadTotal"`
}

// MessageSettingsView is a person's "Who can message you".
type MessageSettingsView struct {
	AllowFrom string `json:"allowFrom"`
}

// Events of conversations (their names are in protocol).

// MessageEvent is message:new and message:updated.
type MessageEvent struct {
	ConversationID string      `json:"conversationId"`
	Message        MessageView `json:"message"`
}

// ReadEvent is message:read; UnreadTotal only on the reader's own sockets.
type ReadEvent struct {
	ConversationID string `json:"conversationId"`
	UserID         string `json:"userId"`
	Seq            int64  `json:"seq"`
	UnreadTotal    *int   `json:"unreadTotal,omitempty"`
}

// TypingEvent is typing, server to client.
type TypingEvent struct {
	ConversationID string `json:"conversationId"`
	UserID         string `json:"userId"`
	Name           string `json:"name"`
}

// ConversationEvent is conversation:updated, as its recipient sees it.
type ConversationEvent struct {
	Conversation ConversationView `json:"conversation"`
}

// ConversationRemovedEvent is conversation:removed.
type ConversationRemovedEvent struct {
	ConversationID string `json:"conversationId"`
}

// MessageFrames renders the message:new frames of a conversation's new
// messages, for the conversation grain's push to every member
// (actors.Config.RenderMessages): reactions carry mine false. It answers
// the seq of each frame (the seqs that exist, ascending).
func MessageFrames(db bun.IDB) func(ctx context.Context, conv uuid.UUID, seqs []int64) ([][]byte, []int64, error) {
	return func(ctx context.Context, conv uuid.UUID, seqs []int64) ([][]byte, []int64, error) {
		rows, err := persistence.MessagesBySeq(ctx, db, conv, uuid.Nil, seqs)
		if err != nil {
			return nil, nil, err
		}
		frames := make([][]byte, 0, len(rows))
		rendered := make([]int64, 0, len(rows))
		for _, r := range rows {
			f, err := protocol.Frame(protocol.EventMessageNew, MessageEvent{ConversationID: conv.String(), Message: NewMessageView(r)})
			if err != nil {
				return nil, nil, err
			}
			frames = append(frames, f)
			rendered = append(rendered, r.Seq)
		}
		return frames, rendered, nil
	}
}

// viewer is the reader of a conversation with what the rules compare.
type viewer struct {
	id                        uuid.UUID
	name                      string
	course, batch, department string
}

func (m *Messages) viewer(ctx context.Context, id uuid.UUID) (viewer, error) {
	u, err := persistence.UserByID(ctx, m.d.DB, id)
	if err != nil {
		if isNotFound(err) {
			return viewer{}, ErrBadToken
		}
		return viewer{}, err
	}
	return viewer{id: id, name: u.Name, course: u.Course, batch: u.Batch, department: u.Department}, nil
}

// readOnly answers why v cannot send in s ("" when they can): they left,
// a block stands between a direct conversation's two people, or the other
// one of a direct conversation does not accept messages from v and never
// wrote in it (a conversation becomes accepted once both have written).
func readOnly(s *persistence.ConversationState, v viewer) string {
	switch {
	case s.Left():
		return domain.ReadOnlyLeft
	case s.Kind != domain.ConversationDirect:
		return ""
	case s.Blocked:
		return domain.ReadOnlyBlocked
	case s.OtherSent:
		return ""
	}
	rel := domain.Relation{Friends: s.Friends,
		SameCourse:     domain.SameCourse(v.course, v.batch, s.OtherCourse, s.OtherBatch),
		SameDepartment: domain.SameDepartment(v.department, s.OtherDepartment)}
	if domain.MayMessage(domain.AllowFrom(s.OtherAllowFrom), rel) != nil {
		return domain.ReadOnlyNotAccepted
	}
	return ""
}

// render makes the views of states as v sees them: their members (now, or
// as of v's leaving) and newest visible messages.
func (m *Messages) render(ctx context.Context, v viewer, states []*persistence.ConversationState) ([]ConversationView, error) {
	var current []uuid.UUID
	last := make(map[uuid.UUID]int64)
	for _, s := range states {
		if !s.Left() {
			current = append(current, s.ID)
		}
		if to := s.VisibleTo(); to > s.JoinedSeq {
			last[s.ID] = to
		}
	}
	members, err := persistence.CurrentMembers(ctx, m.d.DB, current)
	if err != nil {
		return nil, err
	}
	lastMsgs, err := persistence.LastMessages(ctx, m.d.DB, v.id, last)
	if err != nil {
		return nil, err
	}
	blocked, err := m.blockedWith(ctx, v.id, states...)
	if err != nil {
		return nil, err
	}
	out := make([]ConversationView, 0, len(states))
	for _, s := range states {
		ms := members[s.ID]
		if s.Left() {
			if ms, err = persistence.MembersAsOf(ctx, m.d.DB, s.ID, s.LeftAt); err != nil {
				return nil, err
			}
		}
		cv := ConversationView{ID: s.ID.String(), Kind: s.Kind, Title: s.Title, LastSeq: s.VisibleTo(),
			ReadSeq: max(s.ReadSeq, s.JoinedSeq), UnreadCount: s.Unread, Muted: s.Muted, Role: s.Role,
			UpdatedAt: s.UpdatedAt, CreatedAt: s.CreatedAt, Members: make([]ConversationMemberView, 0, len(ms))}
		for i := range ms {
			mv := ConversationMemberView{UserRef: NewUserRef(&ms[i].User), Role: ms[i].Role}
			if u := ms[i].User.ID; u == v.id || !crossesBlock(s, blocked, u) {
				read := min(ms[i].ReadSeq, s.VisibleTo())
				mv.ReadSeq = &read
			}
			cv.Members = append(cv.Members, mv)
			if s.Kind == domain.ConversationDirect && ms[i].User.ID == s.OtherID {
				cv.Title = NewUserRef(&ms[i].User).Name
			}
		}
		if s.Kind == domain.ConversationDirect && cv.Title == "" {
			cv.Title = "Deleted account"
		}
		if r := lastMsgs[s.ID]; r != nil {
			mv := NewMessageView(r)
			cv.LastMessage = &mv
		}
		if reason := readOnly(s, v); reason != "" {
			cv.ReadOnly, cv.ReadOnlyReason = true, reason
		}
		if s.GroupID != uuid.Nil {
			cv.Group = &ConversationGroupView{ID: s.GroupID.String(), Handle: s.GroupHandle, AvatarURL: s.GroupAvatarURL}
		}
		out = append(out, cv)
	}
	return out, nil
}

func (m *Messages) view(ctx context.Context, v viewer, s *persistence.ConversationState) (ConversationView, error) {
	vs, err := m.render(ctx, v, []*persistence.ConversationState{s})
	if err != nil {
		return ConversationView{}, err
	}
	return vs[0], nil
}

// state loads the conversation as user sees it: 404 if they were never a
// member (a conversation is nobody else's business, moderators included).
func (m *Messages) state(ctx context.Context, id, user uuid.UUID) (*persistence.ConversationState, error) {
	s, err := persistence.ConversationStateOf(ctx, m.d.DB, id, user)
	if isNotFound(err) {
		return nil, errConversationNotFound
	}
	return s, err
}

// List is the caller's conversations, newest updatedAt first, with their
// unread total.
func (m *Messages) List(ctx context.Context, p Principal, limit int, cursor string) (ConversationList, error) {
	limit = keysetLimit(limit, conversationsPageDefault, conversationsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return ConversationList{}, err
	}
	v, err := m.viewer(ctx, p.UserID)
	if err != nil {
		return ConversationList{}, err
	}
	states, err := persistence.ConversationsOf(ctx, m.d.DB, p.UserID, after, limit+1)
	if err != nil {
		return ConversationList{}, err
	}
	out := ConversationList{}
	if len(states) > limit {
		states = states[:limit]
		last := states[limit-1]
		next := encodeKeyset(persistence.Keyset{At: last.UpdatedAt, ID: last.ID})
		out.NextCursor = &next
	}
	if out.Conversations, err = m.render(ctx, v, states); err != nil {
		return ConversationList{}, err
	}
	if out.UnreadTotal, err = persistence.UnreadMessagesTotal(ctx, m.d.DB, p.UserID); err != nil {
		return ConversationList{}, err
	}
	return out, nil
}

// Get is one conversation as the caller sees it.
func (m *Messages) Get(ctx context.Context, p Principal, id uuid.UUID) (ConversationView, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	v, err := m.viewer(ctx, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	return m.view(ctx, v, s)
}

// mayMessage checks that each of people accepts messages from sender (and
// exists): 404 for someone who is not an account, 403 naming in its fields
// everyone who refuses.
func (m *Messages) mayMessage(ctx context.Context, sender viewer, people []uuid.UUID, field string) error {
	facts, err := persistence.MessagingFactsOf(ctx, m.d.DB, sender.id, people)
	if err != nil {
		return err
	}
	var refused []domain.FieldError
	for i, u := range people {
		f, ok := facts[u]
		if !ok {
			return errUserNotFound
		}
		rel := domain.Relation{Friends: f.Friends, Blocked: f.Blocked,
			SameCourse:     domain.SameCourse(sender.course, sender.batch, f.Course, f.Batch),
			SameDepartment: domain.SameDepartment(sender.department, f.Department)}
		if err := domain.MayMessage(domain.AllowFrom(f.AllowFrom), rel); err != nil {
			if field == "" {
				return err
			}
			refused = append(refused, domain.FieldError{Field: field + "[" + strconv.Itoa(i) + "]", Msg: f.Name + ": " + err.Error()})
		}
	}
	if len(refused) > 0 {
		return &domain.Error{Kind: domain.KindForbidden, Message: refused[0].Msg, Fields: refused}
	}
	return nil
}

// mayStart refuses a suspended account and a new account past its brake.
func (m *Messages) mayStart(ctx context.Context, p Principal, what brake) error {
	if err := refuseSuspended(ctx, m.d.DB, p.UserID); err != nil {
		return err
	}
	return m.d.Brakes.check(ctx, p.UserID, what)
}

// refuseSuspended answers the suspension's 403 for a suspended account.
// Their tokens are revoked when the suspension is made, so this holds only
// for a request already past authentication.
func refuseSuspended(ctx context.Context, db bun.IDB, user uuid.UUID) error {
	sus, err := persistence.SuspensionOf(ctx, db, user)
	if err != nil {
		return err
	}
	if sus != nil {
		return domain.Suspended(domain.KindForbidden, sus.Until, sus.Reason)
	}
	return nil
}

// Create starts a conversation. A direct one with someone the caller
// already has one with answers that one (created false); a new one needs
// the other person to accept messages from the caller. A group needs every
// member to; the caller is its admin.
func (m *Messages) Create(ctx context.Context, p Principal, in domain.ConversationInput) (ConversationView, bool, error) {
	nc, err := in.Validate(p.UserID)
	if err != nil {
		return ConversationView{}, false, err
	}
	v, err := m.viewer(ctx, p.UserID)
	if err != nil {
		return ConversationView{}, false, err
	}
	if nc.Kind == domain.ConversationDirect {
		return m.createDirect(ctx, p, v, nc.UserID)
	}
	if err := m.mayStart(ctx, p, brakeConversation); err != nil {
		return ConversationView{}, false, err
	}
	if err := m.mayMessage(ctx, v, nc.Members, "memberIds"); err != nil {
		return ConversationView{}, false, err
	}
	c := &persistence.Conversation{ID: persistence.NewID(), Title: nc.Title, CreatedBy: p.UserID}
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return persistence.CreateGroupConversation(ctx, tx, c, nc.Members)
	})
	if err != nil {
		return ConversationView{}, false, err
	}
	m.d.Log.Info().Str("user_id", p.UserID.String()).Str("conversation_id", c.ID.String()).
		Int("members", len(nc.Members)+1).Msg("group conversation created")
	m.pushConversation(ctx, c.ID, append([]uuid.UUID{p.UserID}, nc.Members...))
	view, err := m.Get(ctx, p, c.ID)
	return view, true, err
}

func (m *Messages) createDirect(ctx context.Context, p Principal, v viewer, other uuid.UUID) (ConversationView, bool, error) {
	if existing, err := persistence.DirectConversation(ctx, m.d.DB, p.UserID, other); err == nil {
		view, err := m.Get(ctx, p, existing.ID)
		return view, false, err
	} else if !isNotFound(err) {
		return ConversationView{}, false, err
	}
	if err := m.mayMessage(ctx, v, []uuid.UUID{other}, ""); err != nil {
		return ConversationView{}, false, err
	}
	if err := m.mayStart(ctx, p, brakeConversation); err != nil {
		return ConversationView{}, false, err
	}
	var (
		c       *persistence.Conversation
		created bool
	)
	err := m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		c, created, err = persistence.CreateDirectConversation(ctx, tx, p.UserID, other)
		return err
	})
	if err != nil {
		return ConversationView{}, false, err
	}
	if created {
		// The other person sees it with its first message.
		m.pushConversation(ctx, c.ID, []uuid.UUID{p.UserID})
	}
	view, err := m.Get(ctx, p, c.ID)
	return view, created, err
}

// Update renames a group (its admins) and mutes or unmutes a conversation
// for the caller.
func (m *Messages) Update(ctx context.Context, p Principal, id uuid.UUID, in domain.ConversationPatch) (ConversationView, error) {
	if in.Title == nil && in.Muted == nil {
		return ConversationView{}, errNothingToChange
	}
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	var title string
	if in.Title != nil {
		if s.Kind == domain.ConversationDirect {
			return ConversationView{}, errDirectNoTitle
		}
		if s.GroupID != uuid.Nil {
			return ConversationView{}, errGroupChatTitle
		}
		if title, err = domain.ValidateConversationTitle(*in.Title); err != nil {
			return ConversationView{}, err
		}
		if s.Left() || s.Role != domain.ConversationAdmin {
			return ConversationView{}, errNotConvAdmin
		}
	}
	if in.Muted != nil && s.Left() {
		return ConversationView{}, errCantSendHere
	}
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if title != "" {
			if err := persistence.TouchConversation(ctx, tx, id, title); err != nil {
				return err
			}
		}
		if in.Muted != nil {
			return persistence.SetMuted(ctx, tx, id, p.UserID, *in.Muted)
		}
		return nil
	})
	if err != nil {
		return ConversationView{}, err
	}
	if title != "" {
		members, err := persistence.CurrentMemberIDs(ctx, m.d.DB, id)
		if err != nil {
			return ConversationView{}, err
		}
		m.pushConversation(ctx, id, members)
	} else {
		m.pushConversation(ctx, id, []uuid.UUID{p.UserID})
	}
	return m.Get(ctx, p, id)
}

// AddMembers adds people to a group (its admins): each must accept messages
// from the caller, and the group stays within 256. They see the messages
// from now on.
func (m *Messages) AddMembers(ctx context.Context, p Principal, id uuid.UUID, userIDs []string) (ConversationView, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	if s.Kind == domain.ConversationDirect {
		return ConversationView{}, errDirectNoMembers
	}
	if s.GroupID != uuid.Nil {
		return ConversationView{}, errGroupChatMembers
	}
	ids, err := domain.MemberIDs("userIds", userIDs, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	if s.Left() || s.Role != domain.ConversationAdmin {
		return ConversationView{}, errNotConvAdmin
	}
	v, err := m.viewer(ctx, p.UserID)
	if err != nil {
		return ConversationView{}, err
	}
	if err := m.mayMessage(ctx, v, ids, "userIds"); err != nil {
		return ConversationView{}, err
	}
	var joined []uuid.UUID
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := persistence.LockConversation(ctx, tx, id)
		if err != nil {
			return err
		}
		if joined, err = persistence.AddMembers(ctx, tx, id, c.LastSeq, ids); err != nil {
			return err
		}
		n, err := persistence.CountCurrentMembers(ctx, tx, id)
		if err != nil {
			return err
		}
		if n > domain.MaxConversationMembers {
			return domain.InvalidField("userIds", domain.MsgTooManyMembers)
		}
		return persistence.TouchConversation(ctx, tx, id, "")
	})
	if err != nil {
		return ConversationView{}, err
	}
	if len(joined) > 0 {
		members, err := persistence.CurrentMemberIDs(ctx, m.d.DB, id)
		if err != nil {
			return ConversationView{}, err
		}
		m.pushConversation(ctx, id, members)
	}
	return m.Get(ctx, p, id)
}

// MemberRemoved answers removing a member or leaving.
type MemberRemoved struct {
	Message string `json:"message"`
}

// RemoveMember removes userID from a group (its admins), or, when userID is
// the caller, leaves it. The one who goes keeps the messages up to now and
// gets nothing after, at once: a send committed after this sees them gone.
func (m *Messages) RemoveMember(ctx context.Context, p Principal, id, userID uuid.UUID) (MemberRemoved, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return MemberRemoved{}, err
	}
	if s.Kind == domain.ConversationDirect {
		return MemberRemoved{}, errDirectNoMembers
	}
	if s.GroupID != uuid.Nil {
		return MemberRemoved{}, errGroupChatMembers
	}
	leaving := userID == p.UserID
	if s.Left() {
		if leaving {
			return MemberRemoved{Message: "You left the conversation"}, nil
		}
		return MemberRemoved{}, errNotConvAdmin
	}
	if !leaving && s.Role != domain.ConversationAdmin {
		return MemberRemoved{}, errNotConvAdmin
	}
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := persistence.LockConversation(ctx, tx, id)
		if err != nil {
			return err
		}
		ok, err := persistence.RemoveMember(ctx, tx, id, userID, c.LastSeq)
		if err != nil {
			return err
		}
		if !ok {
			return errNotAMember
		}
		if err := persistence.PromoteOldestMember(ctx, tx, id); err != nil {
			return err
		}
		return persistence.TouchConversation(ctx, tx, id, "")
	})
	if err != nil {
		return MemberRemoved{}, err
	}
	m.d.Log.Info().Str("user_id", p.UserID.String()).Str("conversation_id", id.String()).
		Str("member_id", userID.String()).Bool("left", leaving).Msg("conversation member removed")
	m.push(ctx, []uuid.UUID{userID}, protocol.EventConversationRemoved, ConversationRemovedEvent{ConversationID: id.String()})
	if members, err := persistence.CurrentMemberIDs(ctx, m.d.DB, id); err == nil {
		m.pushConversation(ctx, id, members)
	} else {
		m.d.Log.Warn().Err(err).Str("conversation_id", id.String()).Msg("conversation members not pushed")
	}
	if leaving {
		return MemberRemoved{Message: "You left the conversation"}, nil
	}
	return MemberRemoved{Message: "Member removed"}, nil
}

// Messages is a page of a conversation's messages the caller may read:
// beforeSeq > 0 the ones before it (the newest of them), afterSeq >= 0
// (without beforeSeq) the ones after it, oldest first; neither, the newest.
// A member who left reads up to their leaving.
func (m *Messages) Messages(ctx context.Context, p Principal, id uuid.UUID, beforeSeq, afterSeq int64, limit int) (MessagePageView, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return MessagePageView{}, err
	}
	limit = keysetLimit(limit, messagesPageDefault, messagesPageMax)
	if beforeSeq <= 0 && afterSeq < 0 {
		beforeSeq = s.VisibleTo() + 1
	}
	rows, more, err := persistence.MessagePage(ctx, m.d.DB, id, p.UserID, s.JoinedSeq, s.VisibleTo(), beforeSeq, afterSeq, limit)
	if err != nil {
		return MessagePageView{}, err
	}
	out := MessagePageView{Messages: make([]MessageView, len(rows)), HasMore: more}
	for i, r := range rows {
		out.Messages[i] = NewMessageView(r)
	}
	return out, nil
}

// Send stores a message through the conversation's grain and answers it
// once committed; created is false when its clientId was sent before by
// the caller (a retry), whose original it answers, never a second copy.
// The grain pushes it to every member's sockets at once after the commit.
func (m *Messages) Send(ctx context.Context, p Principal, id uuid.UUID, in domain.MessageInput, images []io.Reader) (MessageView, bool, error) {
	nm, err := in.Validate(len(images))
	if err != nil {
		return MessageView{}, false, err
	}
	// One statement for every check, in the order the rules go: the
	// conversation (404), a suspension, who may send.
	ss, err := persistence.SendStateOf(ctx, m.d.DB, id, p.UserID)
	if isNotFound(err) {
		return MessageView{}, false, errConversationNotFound
	}
	if err != nil {
		return MessageView{}, false, err
	}
	s := &ss.ConversationState
	if ss.Suspended {
		return MessageView{}, false, domain.Suspended(domain.KindForbidden, ss.SuspendedUntil, ss.SuspensionReason)
	}
	u := &ss.Sender
	v := viewer{id: p.UserID, name: u.Name, course: u.Course, batch: u.Batch, department: u.Department}
	if readOnly(s, v) != "" {
		return MessageView{}, false, errCantSendHere
	}
	if nm.ReplyToSeq > 0 && (nm.ReplyToSeq <= s.JoinedSeq || nm.ReplyToSeq > s.VisibleTo()) {
		return MessageView{}, false, errBadReplyTo
	}
	if ok, wait := m.d.SendLimit.Allow(p.UserID.String()); !ok {
		return MessageView{}, false, errSendTooFast(wait)
	}
	if err := m.d.Brakes.check(ctx, p.UserID, brakeMessage); err != nil {
		return MessageView{}, false, err
	}
	send := persistence.MessageSend{ID: persistence.NewID(), SenderID: p.UserID, ClientID: nm.ClientID, Body: nm.Body,
		ReplyToSeq: nm.ReplyToSeq}
	saved, err := m.saveImages(ctx, images, nm.Alts)
	if err != nil {
		return MessageView{}, false, err
	}
	send.Images = saved
	type sent struct {
		seq     int64
		created bool
		at      time.Time
	}
	r, err := retryOnce(ctx, func() (sent, error) {
		seq, _, at, created, err := m.d.Grains.SendMessage(ctx, id, send)
		return sent{seq, created, at}, err
	})
	if err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Kind != domain.KindUnavailable {
			// Refused for sure: the files belong to nothing.
			m.removeFiles(imageKeys(saved), id)
		} else if len(saved) > 0 {
			// The send may still commit (it waits in the grain's queue):
			// the files stay rather than leave a message without them.
			m.d.Log.Warn().Err(err).Str("conversation_id", id.String()).Strs("keys", imageKeys(saved)).
				Msg("message send failed with images stored; files kept")
		}
		return MessageView{}, false, err
	}
	if len(saved) > 0 {
		m.dropUnusedImages(ctx, id, r.seq, saved)
	}
	if r.created && send.ReplyToSeq == 0 {
		// The message as stored is what this call sent: its view needs
		// no read back (a retry's original, or a reply's quote, does).
		return NewMessageView(sentRow(id, r.seq, r.at, send, u)), true, nil
	}
	rows, err := persistence.MessagesBySeq(ctx, m.d.DB, id, p.UserID, []int64{r.seq})
	if err != nil {
		return MessageView{}, false, err
	}
	if len(rows) == 0 {
		return MessageView{}, false, errMessageNotFound
	}
	return NewMessageView(rows[0]), r.created, nil
}

// sentRow is the row a new message without a reply was stored as: its
// send, seq and commit time, and its sender's account (no reactions yet).
func sentRow(conv uuid.UUID, seq int64, at time.Time, s persistence.MessageSend, sender *persistence.User) *persistence.MessageRow {
	r := &persistence.MessageRow{Message: persistence.Message{ConversationID: conv, Seq: seq, ID: s.ID, SenderID: s.SenderID,
		ClientID: s.ClientID, Body: s.Body, CreatedAt: at}, Sender: *sender, Images: make([]persistence.ShownImage, len(s.Images))}
	for i, im := range s.Images {
		typ := im.Type
		if typ == "" {
			typ = "image" // the column's default
		}
		r.Images[i] = persistence.ShownImage{URL: im.URL, Type: typ, Width: im.Width, Height: im.Height, Alt: im.Alt,
			Variants: im.Variants}
	}
	return r
}

// saveImages stores a send's images in the media store (metadata stripped,
// resized, with smaller copies) before the message is written; if one
// fails, the ones stored go and the send is refused.
func (m *Messages) saveImages(ctx context.Context, images []io.Reader, alts []string) ([]persistence.MessageImage, error) {
	if len(images) == 0 {
		return nil, nil
	}
	if m.d.Media == nil {
		return nil, domain.InvalidField("images", "Images cannot be sent here")
	}
	out := make([]persistence.MessageImage, 0, len(images))
	for i, r := range images {
		im, err := m.d.Media.Save(ctx, r)
		if err != nil {
			m.removeFiles(imageKeys(out), uuid.Nil)
			return nil, err
		}
		out = append(out, persistence.MessageImage{StorageKey: im.Key, URL: im.URL, Type: im.Type,
			ContentType: im.ContentType, Width: im.Width, Height: im.Height, SizeBytes: im.Size, Alt: alts[i],
			Variants: storedVariants(im)})
	}
	return out, nil
}

// dropUnusedImages removes the files of saved that the message at seq does
// not hold: a retried client id answered the original (stored with the
// first upload's files), or this send joined an identical one in flight.
func (m *Messages) dropUnusedImages(ctx context.Context, conv uuid.UUID, seq int64, saved []persistence.MessageImage) {
	held, err := persistence.MessageImageKeys(ctx, m.d.DB, conv, seq)
	if err != nil {
		m.d.Log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("could not check a message's images; files kept")
		return
	}
	var unused []string
	for _, im := range saved {
		if !slices.Contains(held, im.StorageKey) {
			unused = append(unused, im.StorageKey)
		}
	}
	m.removeFiles(unused, conv)
}

// removeFiles deletes stored files no row refers to; a failure leaves only
// litter, so it is logged.
func (m *Messages) removeFiles(keys []string, conv uuid.UUID) {
	for _, k := range keys {
		if err := m.d.Media.Delete(k); err != nil {
			m.d.Log.Warn().Err(err).Str("key", k).Str("conversation_id", conv.String()).Msg("could not remove a message image")
		}
	}
}

func imageKeys(ims []persistence.MessageImage) []string {
	keys := make([]string, len(ims))
	for i, im := range ims {
		keys[i] = im.StorageKey
	}
	return keys
}

// message loads the message seq of a conversation the caller may read
// (in their window); errMessageNotFound otherwise.
func (m *Messages) message(ctx context.Context, s *persistence.ConversationState, seq int64) (*persistence.Message, error) {
	if seq <= s.JoinedSeq || seq > s.VisibleTo() {
		return nil, errMessageNotFound
	}
	msg, err := persistence.MessageAt(ctx, m.d.DB, s.ID, seq)
	if isNotFound(err) {
		return nil, errMessageNotFound
	}
	return msg, err
}

// writable loads the conversation for a change by the caller (an edit, a
// reaction): they must be a member, with no block across a direct
// conversation.
func (m *Messages) writable(ctx context.Context, p Principal, id uuid.UUID) (*persistence.ConversationState, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return nil, err
	}
	if s.Left() || s.Kind == domain.ConversationDirect && s.Blocked {
		return nil, errCantSendHere
	}
	return s, nil
}

// Edit replaces the text of the caller's message (marked edited).
func (m *Messages) Edit(ctx context.Context, p Principal, id uuid.UUID, seq int64, in domain.MessageEditInput) (MessageView, error) {
	body, err := domain.ValidateMessageBody(in.Body)
	if err != nil {
		return MessageView{}, err
	}
	s, err := m.writable(ctx, p, id)
	if err != nil {
		return MessageView{}, err
	}
	if _, err := m.message(ctx, s, seq); err != nil {
		return MessageView{}, err
	}
	if err := m.changeErr(persistence.EditMessage(ctx, m.d.DB, id, seq, p.UserID, body)); err != nil {
		return MessageView{}, err
	}
	return m.updated(ctx, p, id, seq)
}

// Unsend takes the text of the caller's message away for everyone; a stub
// stays. Unsending twice answers the stub.
func (m *Messages) Unsend(ctx context.Context, p Principal, id uuid.UUID, seq int64) (MessageView, error) {
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return MessageView{}, err
	}
	msg, err := m.message(ctx, s, seq)
	if err != nil {
		return MessageView{}, err
	}
	if msg.SenderID != p.UserID {
		return MessageView{}, errNotYourMessage
	}
	if msg.Hidden() {
		return m.updated(ctx, p, id, seq)
	}
	var keys []string
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		keys, err = persistence.UnsendMessage(ctx, tx, id, seq, p.UserID)
		return err
	})
	if err := m.changeErr(err); err != nil {
		return MessageView{}, err
	}
	// The files go only once the rows are gone for good.
	if len(keys) > 0 {
		m.removeFiles(keys, id)
	}
	return m.updated(ctx, p, id, seq)
}

// React puts the caller's reaction on a message, replacing theirs.
func (m *Messages) React(ctx context.Context, p Principal, id uuid.UUID, seq int64, in domain.ReactionInput) (MessageView, error) {
	emoji, err := domain.ValidateEmoji(in.Emoji)
	if err != nil {
		return MessageView{}, err
	}
	s, err := m.writable(ctx, p, id)
	if err != nil {
		return MessageView{}, err
	}
	if _, err := m.message(ctx, s, seq); err != nil {
		return MessageView{}, err
	}
	if err := m.changeErr(persistence.SetReaction(ctx, m.d.DB, id, seq, p.UserID, emoji)); err != nil {
		return MessageView{}, err
	}
	return m.updated(ctx, p, id, seq)
}

// Unreact takes the caller's reaction off a message.
func (m *Messages) Unreact(ctx context.Context, p Principal, id uuid.UUID, seq int64) (MessageView, error) {
	s, err := m.writable(ctx, p, id)
	if err != nil {
		return MessageView{}, err
	}
	if _, err := m.message(ctx, s, seq); err != nil {
		return MessageView{}, err
	}
	if err := persistence.RemoveReaction(ctx, m.d.DB, id, seq, p.UserID); err != nil {
		return MessageView{}, err
	}
	return m.updated(ctx, p, id, seq)
}

func (m *Messages) changeErr(err error) error {
	switch {
	case errors.Is(err, persistence.ErrNotSender):
		return errNotYourMessage
	case errors.Is(err, persistence.ErrMessageHidden):
		return errMessageUnsent
	case isNotFound(err):
		return errMessageNotFound
	}
	return err
}

// updated pushes message:updated of a changed message to the members and
// answers it as the caller sees it.
func (m *Messages) updated(ctx context.Context, p Principal, id uuid.UUID, seq int64) (MessageView, error) {
	pushMessageUpdated(ctx, m.d.DB, m.d.Fanout, m.d.Log, id, seq)
	rows, err := persistence.MessagesBySeq(ctx, m.d.DB, id, p.UserID, []int64{seq})
	if err != nil {
		return MessageView{}, err
	}
	if len(rows) == 0 {
		return MessageView{}, errMessageNotFound
	}
	return NewMessageView(rows[0]), nil
}

// pushMessageUpdated sends message:updated of a changed message to the
// conversation's members now. A lost push loses nothing: clients re-read.
func pushMessageUpdated(ctx context.Context, db bun.IDB, fanout Fanout, log zerolog.Logger, conv uuid.UUID, seq int64) {
	if fanout == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	rows, err := persistence.MessagesBySeq(ctx, db, conv, uuid.Nil, []int64{seq})
	if err != nil || len(rows) == 0 {
		log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("message update not pushed")
		return
	}
	members, err := persistence.CurrentMemberIDs(ctx, db, conv)
	if err != nil {
		log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("message update not pushed")
		return
	}
	if err := fanout.PushToUsers(ctx, members, protocol.EventMessageUpdated,
		MessageEvent{ConversationID: conv.String(), Message: NewMessageView(rows[0])}); err != nil {
		log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("message update not pushed")
	}
}

// Read moves the caller's read pointer to seq (never back) and answers it
// with the conversation's and the total unread counts. The other members
// hear of it (none across a block), and the caller's other sockets get the
// new total.
func (m *Messages) Read(ctx context.Context, p Principal, id uuid.UUID, in domain.ReadInput) (MessagesReadResult, error) {
	if in.Seq == nil || *in.Seq < 0 {
		return MessagesReadResult{}, errBadReadSeq
	}
	before, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return MessagesReadResult{}, err
	}
	read, err := persistence.MarkRead(ctx, m.d.DB, id, p.UserID, *in.Seq)
	if err != nil {
		return MessagesReadResult{}, err
	}
	after, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return MessagesReadResult{}, err
	}
	total, err := persistence.UnreadMessagesTotal(ctx, m.d.DB, p.UserID)
	if err != nil {
		return MessagesReadResult{}, err
	}
	res := MessagesReadResult{ReadSeq: max(read, after.JoinedSeq), UnreadCount: after.Unread, UnreadTotal: total}
	if read > before.ReadSeq {
		ev := ReadEvent{ConversationID: id.String(), UserID: p.UserID.String(), Seq: read}
		if !after.Left() {
			if others, err := m.othersFor(ctx, after, p.UserID); err == nil {
				m.push(ctx, others, protocol.EventMessageRead, ev)
			}
		}
		ev.UnreadTotal = &total
		m.push(ctx, []uuid.UUID{p.UserID}, protocol.EventMessageRead, ev)
	}
	return res, nil
}

// crossesBlock reports whether a block stands between the person whose
// state s is and other, so that nothing of one's reading or typing reaches
// the other there (message:read, typing, a member's readSeq): across a
// direct conversation's block, nothing; in a group, nothing between the
// two people a block stands between. blocked is blockedWith's answer for
// that person.
func crossesBlock(s *persistence.ConversationState, blocked map[uuid.UUID]bool, other uuid.UUID) bool {
	if s.Kind == domain.ConversationDirect {
		return s.Blocked
	}
	return blocked[other]
}

// blockedWith answers, for crossesBlock, everyone a block stands between
// user and; only groups need it (a direct conversation's state carries its
// block), so without a group among states it asks nothing.
func (m *Messages) blockedWith(ctx context.Context, user uuid.UUID, states ...*persistence.ConversationState) (map[uuid.UUID]bool, error) {
	for _, s := range states {
		if s.Kind != domain.ConversationDirect {
			return persistence.BlockedWith(ctx, m.d.DB, user)
		}
	}
	return nil, nil
}

// othersFor are the current members of s other than user that may get
// user's live events there: none across a block (crossesBlock).
func (m *Messages) othersFor(ctx context.Context, s *persistence.ConversationState, user uuid.UUID) ([]uuid.UUID, error) {
	if s.Kind == domain.ConversationDirect && s.Blocked {
		return nil, nil
	}
	members, err := persistence.CurrentMemberIDs(ctx, m.d.DB, s.ID)
	if err != nil {
		return nil, err
	}
	blocked, err := m.blockedWith(ctx, user, s)
	if err != nil {
		return nil, err
	}
	out := members[:0]
	for _, u := range members {
		if u != user && !crossesBlock(s, blocked, u) {
			out = append(out, u)
		}
	}
	return out, nil
}

// Typing tells the other members that user is typing in conv: dropped
// silently over one per person and conversation every 2 s, or when user
// may not send there; never stored.
func (m *Messages) Typing(ctx context.Context, user, conv uuid.UUID) error {
	if ok, _ := m.d.TypingLimit.Allow(user.String() + "/" + conv.String()); !ok {
		return nil
	}
	s, err := persistence.ConversationStateOf(ctx, m.d.DB, conv, user)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	v, err := m.viewer(ctx, user)
	if err != nil {
		return err
	}
	if readOnly(s, v) != "" {
		return nil
	}
	others, err := m.othersFor(ctx, s, user)
	if err != nil {
		return err
	}
	m.push(ctx, others, protocol.EventTyping, TypingEvent{ConversationID: conv.String(), UserID: user.String(), Name: v.name})
	return nil
}

// Report files a report of a message the caller can read, keeping a copy
// of it: what moderators see of a conversation, and nothing more.
func (m *Messages) Report(ctx context.Context, p Principal, id uuid.UUID, seq int64, in domain.MessageReportInput) (ReportResult, error) {
	r, err := in.Validate()
	if err != nil {
		return ReportResult{}, err
	}
	s, err := m.state(ctx, id, p.UserID)
	if err != nil {
		return ReportResult{}, err
	}
	msg, err := m.message(ctx, s, seq)
	if err != nil {
		return ReportResult{}, err
	}
	if msg.Hidden() || msg.SenderID == uuid.Nil {
		return ReportResult{}, errMessageNotFound
	}
	if msg.SenderID == p.UserID {
		return ReportResult{}, errReportOwn
	}
	row := &persistence.Report{ID: persistence.NewID(), ReporterID: p.UserID, ItemType: string(domain.ItemMessage),
		ItemID: msg.ID, ItemAuthorID: msg.SenderID, Reason: string(r.Reason), Details: r.Details, Snapshot: msg.Body}
	if err := persistence.InsertReport(ctx, m.d.DB, row); err != nil {
		if persistence.IsDuplicateReport(err) {
			return ReportResult{}, errAlreadyReported
		}
		return ReportResult{}, err
	}
	m.d.Log.Info().Str("user_id", p.UserID.String()).Str("item_type", row.ItemType).Str("item_id", msg.ID.String()).
		Str("reason", row.Reason).Msg("content reported")
	return ReportResult{Message: "Thanks for reporting. A moderator will look at it.", ID: row.ID.String()}, nil
}

// Settings answers the caller's "Who can message you".
func (m *Messages) Settings(ctx context.Context, p Principal) (MessageSettingsView, error) {
	a, err := persistence.AllowFromOf(ctx, m.d.DB, p.UserID)
	return MessageSettingsView{AllowFrom: a}, err
}

// SetSettings stores the caller's "Who can message you".
func (m *Messages) SetSettings(ctx context.Context, p Principal, in domain.MessageSettingsInput) (MessageSettingsView, error) {
	a, err := domain.ParseAllowFrom(in.AllowFrom)
	if err != nil {
		return MessageSettingsView{}, err
	}
	if err := persistence.SetAllowFrom(ctx, m.d.DB, p.UserID, string(a)); err != nil {
		return MessageSettingsView{}, err
	}
	return MessageSettingsView{AllowFrom: string(a)}, nil
}

// UnreadTotal is user's unread messages (the ready greeting's
// unreadMessages).
func (m *Messages) UnreadTotal(ctx context.Context, user uuid.UUID) (int, error) {
	return persistence.UnreadMessagesTotal(ctx, m.d.DB, user)
}

// pushConversation sends conversation:updated to each of users, each with
// the conversation as they see it. Failures are logged: the rows are the
// truth.
func (m *Messages) pushConversation(ctx context.Context, id uuid.UUID, users []uuid.UUID) {
	if m.d.Fanout == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	for _, u := range users {
		s, err := persistence.ConversationStateOf(ctx, m.d.DB, id, u)
		if err != nil {
			m.d.Log.Warn().Err(err).Str("conversation_id", id.String()).Msg("conversation not pushed")
			continue
		}
		v, err := m.viewer(ctx, u)
		if err != nil {
			continue
		}
		view, err := m.view(ctx, v, s)
		if err != nil {
			m.d.Log.Warn().Err(err).Str("conversation_id", id.String()).Msg("conversation not pushed")
			continue
		}
		m.push(ctx, []uuid.UUID{u}, protocol.EventConversationUpdated, ConversationEvent{Conversation: view})
	}
}

func (m *Messages) push(ctx context.Context, users []uuid.UUID, event string, data any) {
	if m.d.Fanout == nil || len(users) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	if err := m.d.Fanout.PushToUsers(ctx, users, event, data); err != nil {
		m.d.Log.Warn().Err(err).Str("event", event).Msg("live push failed")
	}
}

// GroupChatChanged tells the members of group's chat of a change the group
// made to it (conversation:updated, each as they see it), and each of users
// who is no longer in it that it left their list (conversation:removed).
// The groups' use cases call it after their commit; a group without a chat
// costs one query.
func (m *Messages) GroupChatChanged(ctx context.Context, group uuid.UUID, users []uuid.UUID) {
	c, err := persistence.GroupChatOf(ctx, m.d.DB, group)
	if err != nil {
		if !isNotFound(err) {
			m.d.Log.Warn().Err(err).Str("group_id", group.String()).Msg("group chat change not pushed")
		}
		return
	}
	current, err := persistence.CurrentMemberIDs(ctx, m.d.DB, c.ID)
	if err != nil {
		m.d.Log.Warn().Err(err).Str("conversation_id", c.ID.String()).Msg("group chat change not pushed")
		return
	}
	var gone []uuid.UUID
	touched := len(users) == 0 // a rename, or the chat switched on
	for _, u := range users {
		if slices.Contains(current, u) {
			touched = true
			continue
		}
		if s, err := persistence.ConversationStateOf(ctx, m.d.DB, c.ID, u); err == nil && s.Left() {
			gone = append(gone, u)
		}
	}
	if !touched && len(gone) == 0 {
		return // e.g. a join request: nobody's chat changed
	}
	m.push(ctx, gone, protocol.EventConversationRemoved, ConversationRemovedEvent{ConversationID: c.ID.String()})
	m.pushConversation(ctx, c.ID, current)
}

// PairChanged tells both people of a direct conversation, at once, that
// something between them changed whether they can write there
// (conversation:updated, each as they see it): a block made or lifted
// (Safety calls it after the block commits), a friendship made or ended
// (Friends, after its commit: one who takes messages from friends only may
// now refuse the other, readOnlyReason not_accepted, or accept them again).
func (m *Messages) PairChanged(ctx context.Context, a, b uuid.UUID) {
	c, err := persistence.DirectConversation(ctx, m.d.DB, a, b)
	if err != nil {
		if !isNotFound(err) {
			m.d.Log.Warn().Err(err).Msg("direct conversation change not pushed")
		}
		return
	}
	to := []uuid.UUID{a, b}
	if c.LastSeq == 0 {
		// Nobody wrote yet: only its starter lists it (ConversationsOf).
		to = []uuid.UUID{c.CreatedBy}
	}
	m.pushConversation(ctx, c.ID, to)
}
