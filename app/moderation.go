package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
)

// Audit actions.
const (
	ActionDismiss         = "dismiss"
	ActionRemove          = "remove"
	ActionSuspend         = "suspend"
	ActionUnsuspend       = "unsuspend"
	ActionGrantModerator  = "grant_moderator"
	ActionRevokeModerator = "revoke_moderator"
	ActionGrantAdmin      = "grant_admin"
	ActionRevokeAdmin     = "revoke_admin"
	ActionResetSessions   = "reset_sessions"
)

// MsgBadRole answers a role other than moderator or admin.
const MsgBadRole = "role must be moderator or admin"

// OperatorName is who the audit log names for what `campus admin` did on
// the command line (its entries have no acting account).
const OperatorName = "Operator (campus admin)"

var (
	errNotModerator     = domain.Forbidden(domain.MsgNotModerator)
	errNotAdmin         = domain.Forbidden(domain.MsgNotAdmin)
	errNoOpenReports    = domain.NotFound(domain.MsgReportNotFound)
	errCannotRemove     = domain.InvalidField("itemType", domain.MsgCannotRemoveThis)
	errCannotSuspendMod = domain.Forbidden(domain.MsgCannotSuspendStaff)
	errActOnSelf        = domain.InvalidField("userId", domain.MsgCannotActOnSelf)
	errNotSuspended     = domain.NotFound(domain.MsgNotSuspended)
)

// ModerationDeps are what moderation needs. Pusher, Grains and Counts may
// be nil (no live effects: clients see the change on their next fetch).
type ModerationDeps struct {
	DB       *bun.DB
	Sessions *Sessions
	Pusher   Pusher
	Grains   PostGrains
	Counts   CountsPublisher
	// Gates, when set, forgets a removed post's gate at once on this node.
	Gates *Gates
	// Fanout, when set, tells a removed message's conversation members.
	Fanout Fanout
	// Mail delivers the notice a suspended account gets; nil: none.
	Mail *MailSender
	// Product and Support name the product and the address to write to
	// in that notice.
	Product, Support string
	Log              zerolog.Logger
}

// CountsPublisher sends a post's committed counts to its watchers on every
// node (actors.Live): a removed comment leaves its post's comment count,
// live as well as in the row.
type CountsPublisher interface {
	PublishCounts(postID uuid.UUID, likes, comments, reposts int, version int64)
}

// Moderation is the moderators' queue and actions and the admins'
// management of moderators and audit log. Every call checks the caller's
// capability first and changes nothing when it is missing.
type Moderation struct {
	d   ModerationDeps
	now func() time.Time
}

// NewModeration wires moderation.
func NewModeration(d ModerationDeps) *Moderation { return &Moderation{d: d, now: time.Now} }

// CapabilitiesView says what the caller may do beyond being a member.
type CapabilitiesView struct {
	Moderator bool `json:"moderator"`
	Admin     bool `json:"admin"`
}

// QueueItemView is one reported item in the queue, in context.
type QueueItemView struct {
	ItemType  string      `json:"itemType"`
	ItemID    string      `json:"itemId"`
	PostID    string      `json:"postId,omitempty"`
	Content   string      `json:"content"`
	Author    UserSummary `json:"author"`
	Reports   int         `json:"reports"`
	Reasons   []string    `json:"reasons"`
	Details   []string    `json:"details"`
	LatestAt  time.Time   `json:"latestAt"`
	Removed   bool        `json:"removed"`
	Suspended bool        `json:"suspended"`
}

// QueueResult answers GET /api/moderation/queue.
type QueueResult struct {
	Items      []QueueItemView `json:"items"`
	NextCursor *string         `json:"nextCursor"`
}

// ActionResult answers a moderation action.
type ActionResult struct {
	Message string `json:"message"`
	Reports int    `json:"reports"`
}

// AuditView is one line of the audit log.
type AuditView struct {
	ID         string    `json:"id"`
	Action     string    `json:"action"`
	ActorID    string    `json:"actorId"`
	ActorName  string    `json:"actorName"`
	ItemType   string    `json:"itemType"`
	ItemID     string    `json:"itemId"`
	TargetID   string    `json:"targetId,omitempty"`
	TargetName string    `json:"targetName,omitempty"`
	Reason     string    `json:"reason"`
	Snapshot   string    `json:"snapshot"`
	CreatedAt  time.Time `json:"createdAt"`
}

// AuditResult answers GET /api/admin/audit.
type AuditResult struct {
	Entries    []AuditView `json:"entries"`
	NextCursor *string     `json:"nextCursor"`
}

// ModeratorView is a moderator in the admins' list.
type ModeratorView struct {
	User      UserSummary `json:"user"`
	GrantedAt time.Time   `json:"grantedAt"`
}

// ModeratorsResult answers GET /api/admin/moderators.
type ModeratorsResult struct {
	Moderators []ModeratorView `json:"moderators"`
	NextCursor *string         `json:"nextCursor"`
}

// capabilitiesOf answers what user holds.
func capabilitiesOf(ctx context.Context, db bun.IDB, user uuid.UUID) (CapabilitiesView, error) {
	caps, err := persistence.Capabilities(ctx, db, user)
	if err != nil {
		return CapabilitiesView{}, err
	}
	admin := slices.Contains(caps, domain.CapAdmin)
	// An admin can do everything a moderator can.
	return CapabilitiesView{Moderator: admin || slices.Contains(caps, domain.CapModerator), Admin: admin}, nil
}

// Capabilities answers the caller's own capabilities (any member may ask).
func (m *Moderation) Capabilities(ctx context.Context, p Principal) (CapabilitiesView, error) {
	return capabilitiesOf(ctx, m.d.DB, p.UserID)
}

func (m *Moderation) requireModerator(ctx context.Context, p Principal) error {
	c, err := capabilitiesOf(ctx, m.d.DB, p.UserID)
	if err != nil {
		return err
	}
	if !c.Moderator {
		return errNotModerator
	}
	return nil
}

func (m *Moderation) requireAdmin(ctx context.Context, p Principal) error {
	c, err := capabilitiesOf(ctx, m.d.DB, p.UserID)
	if err != nil {
		return err
	}
	if !c.Admin {
		return errNotAdmin
	}
	return nil
}

// Queue is the open reports grouped by item, most recently reported first.
func (m *Moderation) Queue(ctx context.Context, p Principal, limit int, cursor string) (QueueResult, error) {
	if err := m.requireModerator(ctx, p); err != nil {
		return QueueResult{}, err
	}
	rows, next, err := safetyPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.QueueItem, error) {
		return persistence.ReportQueue(ctx, m.d.DB, after, n)
	}, func(r *persistence.QueueItem) persistence.Keyset {
		return persistence.Keyset{At: r.LatestAt, ID: r.ItemID}
	})
	if err != nil {
		return QueueResult{}, err
	}
	out := QueueResult{Items: make([]QueueItemView, 0, len(rows)), NextCursor: next}
	for _, r := range rows {
		v := QueueItemView{ItemType: r.ItemType, ItemID: r.ItemID.String(), Content: r.Content,
			Author:  NewUserSummary(&persistence.User{ID: r.AuthorID, Name: r.AuthorName, AvatarURL: r.AuthorAvatar, Role: r.AuthorRole}),
			Reports: r.Reports, Reasons: r.Reasons, Details: r.Details, LatestAt: r.LatestAt,
			Removed: r.Removed, Suspended: r.Suspended}
		if r.PostID != uuid.Nil {
			v.PostID = r.PostID.String()
		}
		if v.Reasons == nil {
			v.Reasons = []string{}
		}
		if v.Details == nil {
			v.Details = []string{}
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// Dismiss closes an item's open reports without acting on it.
func (m *Moderation) Dismiss(ctx context.Context, p Principal, itemType string, id uuid.UUID, in domain.ModerationInput) (ActionResult, error) {
	if err := m.requireModerator(ctx, p); err != nil {
		return ActionResult{}, err
	}
	t, err := domain.ParseModeratedItemType(itemType)
	if err != nil {
		return ActionResult{}, err
	}
	reason, err := in.ValidateReason()
	if err != nil {
		return ActionResult{}, err
	}
	var n int
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if n, err = persistence.ResolveReports(ctx, tx, string(t), id, persistence.ReportDismissed, p.UserID); err != nil {
			return err
		}
		if n == 0 {
			return errNoOpenReports
		}
		return persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: p.UserID, Action: ActionDismiss,
			ItemType: string(t), ItemID: id, Reason: reason})
	})
	if err != nil {
		return ActionResult{}, err
	}
	m.d.Log.Info().Str("moderator_id", p.UserID.String()).Str("item_type", string(t)).Str("item_id", id.String()).Msg("reports dismissed")
	return ActionResult{Message: "Reports dismissed", Reports: n}, nil
}

// Remove hides a post, comment or reported message from everyone but
// moderators (the row is kept for the audit trail), takes it out of
// search, closes its reports and tells its author why. A message is
// removed only by its id, which a moderator has from its report: they
// never browse conversations.
func (m *Moderation) Remove(ctx context.Context, p Principal, itemType string, id uuid.UUID, in domain.ModerationInput) (ActionResult, error) {
	if err := m.requireModerator(ctx, p); err != nil {
		return ActionResult{}, err
	}
	t, err := domain.ParseModeratedItemType(itemType)
	if err != nil {
		return ActionResult{}, err
	}
	if t == domain.ItemProfile {
		return ActionResult{}, errCannotRemove
	}
	reason, err := in.ValidateReason()
	if err != nil {
		return ActionResult{}, err
	}
	var (
		item   persistence.RemovedItem
		n      int
		notice *persistence.Notification
	)
	err = m.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		switch t {
		case domain.ItemPost:
			item, err = persistence.RemovePost(ctx, tx, id)
		case domain.ItemMessage:
			item, err = removeMessage(ctx, tx, id)
		default:
			item, err = persistence.RemoveComment(ctx, tx, id)
		}
		if isNotFound(err) {
			return errItemNotFound
		}
		if err != nil {
			return err
		}
		if n, err = persistence.ResolveReports(ctx, tx, string(t), id, persistence.ReportActioned, p.UserID); err != nil {
			return err
		}
		if err := persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: p.UserID, Action: ActionRemove,
			ItemType: string(t), ItemID: id, TargetID: item.AuthorID, Reason: reason, Snapshot: item.Content}); err != nil {
			return err
		}
		if item.AuthorID == uuid.Nil {
			return nil // a message whose sender's account is gone: nobody to tell
		}
		// The notice names no post: the post page would answer 404 to its author.
		notice = &persistence.Notification{UserID: item.AuthorID, Type: persistence.NotifyModeration,
			Note: domain.RemovalNote(t, reason)}
		return persistence.InsertNotification(ctx, tx, notice)
	})
	if err != nil {
		return ActionResult{}, err
	}
	m.afterRemove(ctx, t, item, notice)
	m.d.Log.Info().Str("moderator_id", p.UserID.String()).Str("item_type", string(t)).Str("item_id", id.String()).Msg("content removed")
	return ActionResult{Message: "Content removed", Reports: n}, nil
}

// removeMessage removes a reported message (only a reported one: what a
// moderator may act on is what a report showed them).
func removeMessage(ctx context.Context, tx bun.Tx, id uuid.UUID) (persistence.RemovedItem, error) {
	reported, err := persistence.Reported(ctx, tx, string(domain.ItemMessage), id)
	if err != nil {
		return persistence.RemovedItem{}, err
	}
	if !reported {
		return persistence.RemovedItem{}, errItemNotFound
	}
	msg, err := persistence.RemoveMessage(ctx, tx, id)
	if err != nil {
		return persistence.RemovedItem{}, err
	}
	return persistence.RemovedItem{AuthorID: msg.SenderID, Content: msg.Body, ConversationID: msg.ConversationID, Seq: msg.Seq}, nil
}

// afterRemove tells the post's watchers (the post is gone, or has a comment
// fewer) and the author, live. Failures are
// logged: the rows are the truth.
func (m *Moderation) afterRemove(ctx context.Context, t domain.ItemType, item persistence.RemovedItem, notice *persistence.Notification) {
	if t == domain.ItemPost && m.d.Gates != nil {
		m.d.Gates.Changed(SafetyChange{Post: item.PostID})
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	if t == domain.ItemPost && m.d.Grains != nil {
		if err := m.d.Grains.PostDeleted(ctx, item.PostID); err != nil {
			m.d.Log.Warn().Err(err).Str("post_id", item.PostID.String()).Msg("post removal not broadcast")
		}
	}
	if t == domain.ItemComment && m.d.Counts != nil {
		m.d.Counts.PublishCounts(item.PostID, item.Likes, item.Comments, item.Reposts, item.CountsVersion)
	}
	if t == domain.ItemMessage {
		pushMessageUpdated(ctx, m.d.DB, m.d.Fanout, m.d.Log, item.ConversationID, item.Seq)
	}
	if m.d.Pusher == nil || notice == nil {
		return
	}
	unread, err := persistence.UnreadNotificationCount(ctx, m.d.DB, notice.UserID)
	if err != nil {
		m.d.Log.Warn().Err(err).Msg("unread count for moderation notice")
		return
	}
	ev := NotificationEvent{NotificationView: NewNotificationView(notice), UnreadCount: unread}
	if err := m.d.Pusher.PushToUser(ctx, notice.UserID, protocol.EventNotification, ev); err != nil {
		m.d.Log.Warn().Err(err).Str("user_id", notice.UserID.String()).Msg("live push failed")
	}
}

// Suspend suspends an account for in.Days (0: for good): its tokens are
// revoked on every node at once (sockets close), login is refused, the
// account is told why and until when by e-mail, and the account and
// everything it wrote are hidden from everyone but moderators until the
// suspension ends (README, Safety and moderation). The open reports of its
// content stay open: the queue keeps each item, marked suspended, for a
// moderator to open and remove or dismiss, since the content comes back
// when the suspension ends.
func (m *Moderation) Suspend(ctx context.Context, p Principal, userID uuid.UUID, in domain.ModerationInput) (ActionResult, error) {
	if err := m.requireModerator(ctx, p); err != nil {
		return ActionResult{}, err
	}
	if userID == p.UserID {
		return ActionResult{}, errActOnSelf
	}
	if err := m.suspend(ctx, p.UserID, userID, in); err != nil {
		return ActionResult{}, err
	}
	m.d.Log.Info().Str("moderator_id", p.UserID.String()).Str("user_id", userID.String()).Msg("account suspended")
	return ActionResult{Message: "Account suspended"}, nil
}

// suspend suspends userID on actor's behalf (a moderator's or an admin's;
// the caller decided who may), then tells this node's session cache and
// gates at once and wakes the mail sender. Other nodes learn from the
// NOTIFYs the transaction sends at commit.
func (m *Moderation) suspend(ctx context.Context, actor, userID uuid.UUID, in domain.ModerationInput) error {
	if err := suspendAccount(ctx, m.d.DB, actor, userID, in, m.now(), m.notice()); err != nil {
		return err
	}
	if m.d.Sessions != nil {
		m.d.Sessions.Forget(userID)
	}
	m.suspensionChanged(userID)
	if m.d.Mail != nil {
		m.d.Mail.Wake()
	}
	return nil
}

// notice is the wording of the suspension e-mail, nil when this node sends
// no mail.
func (m *Moderation) notice() *SuspensionNotice {
	if m.d.Mail == nil {
		return nil
	}
	return &SuspensionNotice{Product: m.d.Product, Support: m.d.Support}
}

// SuspensionNotice is what the suspension e-mail names: the product and
// the support address (either may be empty). `campus admin suspend` passes
// the configuration's; a nil notice queues no e-mail.
type SuspensionNotice struct{ Product, Support string }

// suspendAccount suspends userID on actor's behalf (uuid.Nil: the operator,
// `campus admin suspend`). The suspension, its notice e-mail (when notice is
// set), the audit row and the token revocation commit together; the
// revocation's and the suspension's NOTIFYs fire at commit, so every node
// drops the cached token version, closes the user's sockets and hides what
// the account wrote.
func suspendAccount(ctx context.Context, db *bun.DB, actor, userID uuid.UUID, in domain.ModerationInput, now time.Time, notice *SuspensionNotice) error {
	reason, err := in.ValidateReason()
	if err != nil {
		return err
	}
	until, err := in.SuspensionEnd(now)
	if err != nil {
		return err
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		target, err := persistence.UserByID(ctx, tx, userID)
		if err != nil {
			if isNotFound(err) {
				return errUserNotFound
			}
			return err
		}
		caps, err := capabilitiesOf(ctx, tx, userID)
		if err != nil {
			return err
		}
		if caps.Moderator {
			return errCannotSuspendMod
		}
		if err := persistence.SuspendUser(ctx, tx, userID, until, reason, actor); err != nil {
			return err
		}
		// The notice commits with the suspension: the account hears of
		// every suspension that happened and of none that did not.
		if notice != nil {
			if err := queueSuspensionMail(ctx, tx, target, until, reason, *notice, now); err != nil {
				return err
			}
		}
		snapshot := "for good"
		if until != nil {
			snapshot = "until " + until.UTC().Format(time.RFC3339)
		}
		if err := persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: actor, Action: ActionSuspend,
			ItemType: string(domain.ItemProfile), ItemID: userID, TargetID: userID, Reason: reason, Snapshot: snapshot}); err != nil {
			return err
		}
		_, err = persistence.RevokeTokens(ctx, tx, userID)
		return err
	})
}

// queueSuspensionMail queues, in the suspension's transaction, the e-mail
// that tells u why and until when their account is suspended. It carries
// no token and no code: nothing in it signs anyone in.
func queueSuspensionMail(ctx context.Context, tx bun.IDB, u *persistence.User, until *time.Time, reason string, n SuspensionNotice, now time.Time) error {
	product := n.Product
	if product == "" {
		product = "Campus"
	}
	how := "for good"
	if until != nil {
		how = "until " + domain.SuspensionEndText(*until)
	}
	text := fmt.Sprintf("Hello %s,\n\nA moderator suspended your %s account %s.\n\nReason: %s\n\n"+
		"While it is suspended you cannot sign in, and your profile, posts and comments are hidden from other members. "+
		"Nothing is deleted: they show again when the suspension ends.\n", u.Name, product, how, reason)
	if n.Support != "" {
		text += fmt.Sprintf("\nIf you think this is a mistake, write to %s.\n", n.Support)
	}
	text += "\n" + product + "\n"
	return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
		Kind: "suspension_notice", UserID: u.ID, Recipient: u.Email,
		Subject: product + ": your account has been suspended", Text: text,
		ExpiresAt: now.Add(noticeTTL),
	})
}

// suspensionChanged tells this node's cached gates at once (other nodes
// hear the NOTIFY the suspension's transaction sent).
func (m *Moderation) suspensionChanged(userID uuid.UUID) {
	if m.d.Gates != nil {
		m.d.Gates.Changed(SafetyChange{Suspension: userID})
	}
}

// Unsuspend lifts a suspension.
func (m *Moderation) Unsuspend(ctx context.Context, p Principal, userID uuid.UUID, in domain.ModerationInput) (ActionResult, error) {
	if err := m.requireModerator(ctx, p); err != nil {
		return ActionResult{}, err
	}
	if err := m.unsuspend(ctx, p.UserID, userID, in); err != nil {
		return ActionResult{}, err
	}
	return ActionResult{Message: "Suspension lifted"}, nil
}

// unsuspend lifts userID's suspension on actor's behalf and tells this
// node's gates at once.
func (m *Moderation) unsuspend(ctx context.Context, actor, userID uuid.UUID, in domain.ModerationInput) error {
	if err := unsuspendAccount(ctx, m.d.DB, actor, userID, in); err != nil {
		return err
	}
	m.suspensionChanged(userID)
	return nil
}

// unsuspendAccount lifts userID's suspension on actor's behalf (uuid.Nil:
// the operator). Its NOTIFY tells every node's gates at commit.
func unsuspendAccount(ctx context.Context, db *bun.DB, actor, userID uuid.UUID, in domain.ModerationInput) error {
	reason, err := in.ValidateReason()
	if err != nil {
		return err
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ok, err := persistence.UnsuspendUser(ctx, tx, userID)
		if err != nil {
			return err
		}
		if !ok {
			return errNotSuspended
		}
		return persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: actor, Action: ActionUnsuspend,
			ItemType: string(domain.ItemProfile), ItemID: userID, TargetID: userID, Reason: reason})
	})
}

// SetModerator grants (on) or revokes (off) the moderator capability; admins only.
func (m *Moderation) SetModerator(ctx context.Context, p Principal, userID uuid.UUID, on bool, in domain.ModerationInput) (ActionResult, error) {
	if err := m.requireAdmin(ctx, p); err != nil {
		return ActionResult{}, err
	}
	if userID == p.UserID {
		return ActionResult{}, errActOnSelf
	}
	if _, err := setCapability(ctx, m.d.DB, p.UserID, userID, domain.CapModerator, on, in.Reason); err != nil {
		return ActionResult{}, err
	}
	if on {
		return ActionResult{Message: "Moderator added"}, nil
	}
	return ActionResult{Message: "Moderator removed"}, nil
}

// capabilityActions are the audit actions of granting and revoking each
// capability.
var capabilityActions = map[string][2]string{
	domain.CapModerator: {ActionGrantModerator, ActionRevokeModerator},
	domain.CapAdmin:     {ActionGrantAdmin, ActionRevokeAdmin},
}

// setCapability grants (on) or revokes a capability of userID, a verified
// account, on actor's behalf (uuid.Nil: the operator), with an audit entry
// when it changed; it answers whether it did. The reason is optional.
func setCapability(ctx context.Context, db *bun.DB, actor, userID uuid.UUID, capability string, on bool, reason string) (bool, error) {
	actions, ok := capabilityActions[capability]
	if !ok {
		return false, domain.InvalidField("role", MsgBadRole)
	}
	reason = strings.TrimSpace(reason)
	if !domain.ValidText(reason) || len([]rune(reason)) > domain.MaxModerationReason {
		return false, domain.InvalidField("reason", domain.MsgModerationLong)
	}
	action := actions[0]
	if !on {
		action = actions[1]
	}
	var changed bool
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := persistence.VerifiedUserByID(ctx, tx, userID); err != nil {
			if isNotFound(err) {
				return errUserNotFound
			}
			return err
		}
		var err error
		if on {
			changed, err = persistence.GrantCapability(ctx, tx, userID, capability, actor)
		} else {
			changed, err = persistence.RevokeCapability(ctx, tx, userID, capability)
		}
		if err != nil || !changed {
			return err
		}
		return persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: actor, Action: action,
			ItemType: string(domain.ItemProfile), ItemID: userID, TargetID: userID, Reason: reason})
	})
	return changed, err
}

// Moderators lists who holds the moderator capability; admins only.
func (m *Moderation) Moderators(ctx context.Context, p Principal, limit int, cursor string) (ModeratorsResult, error) {
	if err := m.requireAdmin(ctx, p); err != nil {
		return ModeratorsResult{}, err
	}
	rows, next, err := safetyPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.CapabilityHolder, error) {
		return persistence.CapabilityHolders(ctx, m.d.DB, domain.CapModerator, after, n)
	}, func(r *persistence.CapabilityHolder) persistence.Keyset {
		return persistence.Keyset{At: r.GrantedAt, ID: r.ID}
	})
	if err != nil {
		return ModeratorsResult{}, err
	}
	out := ModeratorsResult{Moderators: make([]ModeratorView, 0, len(rows)), NextCursor: next}
	for i := range rows {
		out.Moderators = append(out.Moderators, ModeratorView{User: NewUserSummary(&rows[i].User), GrantedAt: rows[i].GrantedAt})
	}
	return out, nil
}

// Audit is the audit log, newest first; admins only.
func (m *Moderation) Audit(ctx context.Context, p Principal, limit int, cursor string) (AuditResult, error) {
	if err := m.requireAdmin(ctx, p); err != nil {
		return AuditResult{}, err
	}
	rows, next, err := safetyPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.AuditEntry, error) {
		return persistence.AuditLog(ctx, m.d.DB, after, n)
	}, func(r *persistence.AuditEntry) persistence.Keyset {
		return persistence.Keyset{At: r.CreatedAt, ID: r.ID}
	})
	if err != nil {
		return AuditResult{}, err
	}
	out := AuditResult{Entries: make([]AuditView, 0, len(rows)), NextCursor: next}
	for _, r := range rows {
		v := AuditView{ID: r.ID.String(), Action: r.Action, ActorID: r.ActorID.String(), ActorName: r.ActorName,
			ItemType: r.ItemType, ItemID: r.ItemID.String(), TargetName: r.TargetName, Reason: r.Reason,
			Snapshot: r.Snapshot, CreatedAt: r.CreatedAt}
		if r.TargetID != uuid.Nil {
			v.TargetID = r.TargetID.String()
		}
		if r.ActorID == uuid.Nil {
			v.ActorName = OperatorName
		}
		out.Entries = append(out.Entries, v)
	}
	return out, nil
}

// suspensionRefusal answers the login refusal of a suspended account (why
// and until when), or nil.
func suspensionRefusal(ctx context.Context, db bun.IDB, user uuid.UUID) error {
	s, err := persistence.SuspensionOf(ctx, db, user)
	if err != nil {
		return err
	}
	if s == nil {
		return nil
	}
	return domain.Suspended(domain.KindForbidden, s.Until, s.Reason)
}

// Authorize answers 403 unless the caller is a moderator (admin: an
// admin). The transport calls it before reading anything else of a
// moderation request, so a non-moderator learns nothing from ids or bodies;
// every use case checks again.
func (m *Moderation) Authorize(ctx context.Context, p Principal, admin bool) error {
	if admin {
		return m.requireAdmin(ctx, p)
	}
	return m.requireModerator(ctx, p)
}
