package app

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// The admins' console (every call checks the admin capability first and
// changes nothing without it) and the operator's command line, `campus
// admin`, which acts with no account at all on the database the nodes use.

// AdminDeps are what the console needs.
type AdminDeps struct {
	DB *bun.DB
	// Sessions, when set, drops a user's cached token version on this node
	// at once when their sessions are reset (other nodes learn by NOTIFY).
	Sessions *Sessions
	// Moderation carries out suspensions as a moderator's would be: the
	// notice e-mail, this node's gates and session cache told at once.
	Moderation *Moderation
	Log        zerolog.Logger
}

// Admin is the admins' console: accounts, roles, groups and the system.
type Admin struct {
	d   AdminDeps
	now func() time.Time
}

// NewAdmin wires the console.
func NewAdmin(d AdminDeps) *Admin {
	if d.Moderation == nil {
		// Suspensions still work, as moderation's would without mail or
		// gates to tell (those learn by NOTIFY).
		d.Moderation = NewModeration(ModerationDeps{DB: d.DB, Sessions: d.Sessions, Log: d.Log})
	}
	return &Admin{d: d, now: time.Now}
}

// Limits of the console's lists.
const (
	adminPageDefault = 25
	adminPageMax     = 100
	// maxAdminQuery bounds a search of accounts or groups.
	maxAdminQuery = 200
)

// Messages of the console.
const (
	MsgAdminQueryLong = "Search text must be at most 200 characters"
	MsgSessionsReset  = "Signed out everywhere"
)

var errAdminQueryLong = domain.InvalidField("q", MsgAdminQueryLong)

// AdminUserView is an account as the admins see it.
type AdminUserView struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Email        string     `json:"email"`
	Role         string     `json:"role"`
	UniversityID string     `json:"universityId"`
	Department   string     `json:"department"`
	Avatar       Image      `json:"avatar"`
	Verified     bool       `json:"verified"`
	CreatedAt    time.Time  `json:"createdAt"`
	Capabilities []string   `json:"capabilities"`
	Suspended    bool       `json:"suspended"`
	SuspendedTil *time.Time `json:"suspendedUntil"`
	// SuspensionReason is why, while suspended.
	SuspensionReason string `json:"suspensionReason,omitempty"`
	// OpenReports counts the open reports of the account's content.
	OpenReports int `json:"openReports"`
	// Posts counts the account's posts that are not removed.
	Posts int `json:"posts"`
}

func newAdminUserView(u *persistence.AdminUser) AdminUserView {
	v := AdminUserView{ID: u.ID.String(), Name: u.Name, Email: u.Email, Role: u.Role, UniversityID: u.UniversityID,
		Department: u.Department, Avatar: newImage(u.AvatarURL, u.AvatarKey, u.AvatarVariants),
		Verified: !u.EmailVerifiedAt.IsZero(), CreatedAt: u.CreatedAt, Capabilities: u.Capabilities(),
		Suspended: u.Suspended, SuspendedTil: u.SuspendedUntil, OpenReports: u.OpenReportsAbout, Posts: u.PostsCount}
	if u.Suspended {
		v.SuspensionReason = u.SuspensionReason
	}
	return v
}

// AdminUsersResult answers GET /api/admin/users.
type AdminUsersResult struct {
	Users      []AdminUserView `json:"users"`
	NextCursor *string         `json:"nextCursor"`
}

// AdminGroupView is a group as the admins see it, secret ones included.
type AdminGroupView struct {
	ID         string    `json:"id"`
	Handle     string    `json:"handle"`
	Name       string    `json:"name"`
	Kind       string    `json:"kind"`
	Visibility string    `json:"visibility"`
	Members    int       `json:"members"`
	Posts      int       `json:"posts"`
	CreatedAt  time.Time `json:"createdAt"`
}

// AdminGroupsResult answers GET /api/admin/groups.
type AdminGroupsResult struct {
	Groups     []AdminGroupView `json:"groups"`
	NextCursor *string          `json:"nextCursor"`
}

// RoleInput is the body of a role change: which capability, and why
// (optional, recorded in the audit log).
type RoleInput struct {
	Role   string `json:"role"`
	Reason string `json:"reason"`
}

// Authorize answers 403 unless the caller is an admin. The transport calls
// it before reading anything else of a console request; every use case
// checks again.
func (a *Admin) Authorize(ctx context.Context, p Principal) error {
	c, err := capabilitiesOf(ctx, a.d.DB, p.UserID)
	if err != nil {
		return err
	}
	if !c.Admin {
		return errNotAdmin
	}
	return nil
}

// adminQuery validates a console search.
func adminQuery(q string) (string, error) {
	q = strings.TrimSpace(q)
	if !domain.ValidText(q) {
		return "", domain.InvalidField("q", domain.MsgBadText)
	}
	if len([]rune(q)) > maxAdminQuery {
		return "", errAdminQueryLong
	}
	return q, nil
}

// adminPage is safetyPage with the console's sizes.
func adminPage[R any](limit int, cursor string, load func(after persistence.Keyset, n int) ([]R, error),
	key func(*R) persistence.Keyset,
) ([]R, *string, error) {
	return safetyPage(keysetLimit(limit, adminPageDefault, adminPageMax), cursor, load, key)
}

// Users lists the accounts whose name or e-mail address contains q (all
// for ""), newest first.
func (a *Admin) Users(ctx context.Context, p Principal, q string, limit int, cursor string) (AdminUsersResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUsersResult{}, err
	}
	q, err := adminQuery(q)
	if err != nil {
		return AdminUsersResult{}, err
	}
	return adminUsers(ctx, a.d.DB, q, limit, cursor)
}

func adminUsers(ctx context.Context, db bun.IDB, q string, limit int, cursor string) (AdminUsersResult, error) {
	rows, next, err := adminPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.AdminUser, error) {
		return persistence.AdminUsers(ctx, db, q, after, n)
	}, func(r *persistence.AdminUser) persistence.Keyset {
		return persistence.Keyset{At: r.CreatedAt, ID: r.ID}
	})
	if err != nil {
		return AdminUsersResult{}, err
	}
	out := AdminUsersResult{Users: make([]AdminUserView, 0, len(rows)), NextCursor: next}
	for i := range rows {
		out.Users = append(out.Users, newAdminUserView(&rows[i]))
	}
	return out, nil
}

// User answers one account.
func (a *Admin) User(ctx context.Context, p Principal, id uuid.UUID) (AdminUserView, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUserView{}, err
	}
	return a.user(ctx, id)
}

func (a *Admin) user(ctx context.Context, id uuid.UUID) (AdminUserView, error) {
	u, err := persistence.AdminUserByID(ctx, a.d.DB, id)
	if isNotFound(err) {
		return AdminUserView{}, errUserNotFound
	}
	if err != nil {
		return AdminUserView{}, err
	}
	return newAdminUserView(u), nil
}

// AdminUserResult answers a console action on an account: what happened,
// and the account as it is now.
type AdminUserResult struct {
	Message string        `json:"message"`
	User    AdminUserView `json:"user"`
}

// ResetSessions signs the account out everywhere: every token is revoked
// and its sockets close on every node. Not one's own (sign out instead).
func (a *Admin) ResetSessions(ctx context.Context, p Principal, id uuid.UUID) (AdminUserResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUserResult{}, err
	}
	if id == p.UserID {
		return AdminUserResult{}, errActOnSelf
	}
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := persistence.RevokeTokens(ctx, tx, id); err != nil {
			if isNotFound(err) {
				return errUserNotFound
			}
			return err
		}
		return persistence.InsertAudit(ctx, tx, &persistence.AuditEntry{ActorID: p.UserID, Action: ActionResetSessions,
			ItemType: string(domain.ItemProfile), ItemID: id, TargetID: id})
	})
	if err != nil {
		return AdminUserResult{}, err
	}
	if a.d.Sessions != nil {
		a.d.Sessions.Forget(id)
	}
	a.d.Log.Info().Str("admin_id", p.UserID.String()).Str("user_id", id.String()).Msg("sessions reset")
	v, err := a.user(ctx, id)
	return AdminUserResult{Message: MsgSessionsReset, User: v}, err
}

// SetRole grants (on) or revokes a capability, moderator or admin. Not
// one's own: an admin cannot lock themselves out by mistake.
func (a *Admin) SetRole(ctx context.Context, p Principal, id uuid.UUID, on bool, in RoleInput) (AdminUserResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUserResult{}, err
	}
	if id == p.UserID {
		return AdminUserResult{}, errActOnSelf
	}
	changed, err := setCapability(ctx, a.d.DB, p.UserID, id, in.Role, on, in.Reason)
	if err != nil {
		return AdminUserResult{}, err
	}
	msg := roleMessage(in.Role, on, changed)
	a.d.Log.Info().Str("admin_id", p.UserID.String()).Str("user_id", id.String()).Str("role", in.Role).
		Bool("granted", on).Bool("changed", changed).Msg("role changed")
	v, err := a.user(ctx, id)
	return AdminUserResult{Message: msg, User: v}, err
}

// roleMessage says what a role change did.
func roleMessage(role string, on, changed bool) string {
	switch {
	case on && changed:
		return "Now " + article(role) + " " + role
	case on:
		return "Already " + article(role) + " " + role
	case changed:
		return "No longer " + article(role) + " " + role
	}
	return "Was not " + article(role) + " " + role
}

func article(role string) string {
	if role == domain.CapAdmin {
		return "an"
	}
	return "a"
}

// Suspend suspends an account (what a moderator's Suspend does, from the
// console) and answers it as it is now.
func (a *Admin) Suspend(ctx context.Context, p Principal, id uuid.UUID, in domain.ModerationInput) (AdminUserResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUserResult{}, err
	}
	if id == p.UserID {
		return AdminUserResult{}, errActOnSelf
	}
	if err := a.d.Moderation.suspend(ctx, p.UserID, id, in); err != nil {
		return AdminUserResult{}, err
	}
	a.d.Log.Info().Str("admin_id", p.UserID.String()).Str("user_id", id.String()).Msg("account suspended")
	v, err := a.user(ctx, id)
	return AdminUserResult{Message: "Account suspended", User: v}, err
}

// Unsuspend lifts a suspension and answers the account as it is now.
func (a *Admin) Unsuspend(ctx context.Context, p Principal, id uuid.UUID, in domain.ModerationInput) (AdminUserResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminUserResult{}, err
	}
	if err := a.d.Moderation.unsuspend(ctx, p.UserID, id, in); err != nil {
		return AdminUserResult{}, err
	}
	v, err := a.user(ctx, id)
	return AdminUserResult{Message: "Suspension lifted", User: v}, err
}

// Groups lists every group, secret ones included, whose name or handle
// contains q, newest first.
func (a *Admin) Groups(ctx context.Context, p Principal, q string, limit int, cursor string) (AdminGroupsResult, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return AdminGroupsResult{}, err
	}
	q, err := adminQuery(q)
	if err != nil {
		return AdminGroupsResult{}, err
	}
	rows, next, err := adminPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.Group, error) {
		return persistence.AdminGroups(ctx, a.d.DB, q, after, n)
	}, func(r *persistence.Group) persistence.Keyset {
		return persistence.Keyset{At: r.CreatedAt, ID: r.ID}
	})
	if err != nil {
		return AdminGroupsResult{}, err
	}
	out := AdminGroupsResult{Groups: make([]AdminGroupView, 0, len(rows)), NextCursor: next}
	for _, g := range rows {
		out.Groups = append(out.Groups, AdminGroupView{ID: g.ID.String(), Handle: g.Handle, Name: g.Name, Kind: g.Kind,
			Visibility: g.Visibility, Members: g.MembersCount, Posts: g.PostsCount, CreatedAt: g.CreatedAt})
	}
	return out, nil
}

// NodeView is one node on the system page: its heartbeat.
type NodeView struct {
	Node      string    `json:"node"`
	Version   string    `json:"version"`
	StartedAt time.Time `json:"startedAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// AgeMs is how long ago the node last reported; Stale is set once
	// that is several heartbeats ago (the node is stuck, cut off or gone).
	AgeMs   int64       `json:"ageMs"`
	Stale   bool        `json:"stale"`
	Figures NodeFigures `json:"figures"`
}

// SystemView answers GET /api/admin/system.
type SystemView struct {
	Nodes    []NodeView                  `json:"nodes"`
	Database persistence.DatabaseFigures `json:"database"`
}

// System answers every node's latest heartbeat and the shared database's
// figures.
func (a *Admin) System(ctx context.Context, p Principal) (SystemView, error) {
	if err := a.Authorize(ctx, p); err != nil {
		return SystemView{}, err
	}
	rows, err := persistence.NodeStatuses(ctx, a.d.DB)
	if err != nil {
		return SystemView{}, err
	}
	db, err := persistence.ReadDatabaseFigures(ctx, a.d.DB)
	if err != nil {
		return SystemView{}, err
	}
	out := SystemView{Nodes: make([]NodeView, 0, len(rows)), Database: db}
	for _, r := range rows {
		v := NodeView{Node: r.Node, Version: r.Version, StartedAt: r.StartedAt, UpdatedAt: r.UpdatedAt, AgeMs: r.AgeMs,
			Stale: time.Duration(r.AgeMs)*time.Millisecond > nodeStaleAfter}
		if err := json.Unmarshal(r.Figures, &v.Figures); err != nil {
			// A row written by another version: show the node, not its figures.
			a.d.Log.Warn().Err(err).Str("node", r.Node).Msg("unreadable node figures")
		}
		if v.Figures.Members == nil {
			v.Figures.Members = []string{}
		}
		out.Nodes = append(out.Nodes, v)
	}
	return out, nil
}
