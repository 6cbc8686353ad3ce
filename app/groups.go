package app

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
	"campus/searchindex"
)

// Groups (issue 18): courses, clubs, departments and event spaces. Every
// membership change of one group runs in a transaction holding the group's
// row lock, so two admins answering one request, or a join racing a
// removal, are serialized and the counters stay exact.

// List sizes of groups and members.
const (
	groupsPageDefault = 20
	groupsPageMax     = 100
	// groupSuggestions is how many groups GET /groups/suggestions offers.
	groupSuggestions = 10
	// hotWindow and hotMax shape the big screen: posts by likes in the
	// last ten minutes, at most twelve.
	hotWindow = 10 * time.Minute
	hotMax    = 12
)

var (
	errGroupNotFound  = domain.NotFound(domain.MsgGroupNotFound)
	errNotGroupAdmin  = domain.Forbidden(domain.MsgGroupNotAdmin)
	errNotGroupMember = domain.Forbidden(domain.MsgGroupNotMember)
)

// GroupsDeps are what the group use cases need. Pusher and Index may be nil
// (no live pushes; the directory's q then matches nothing).
type GroupsDeps struct {
	DB     *bun.DB
	Media  ImageStore
	Pusher Pusher
	Index  *searchindex.Index
	// Chats tells a group chat's members of what a group change did to it
	// (Messages); nil: the chat's rows move, nobody is told live.
	Chats GroupChats
	Log   zerolog.Logger
}

// GroupChats pushes what a group's change did to its chat. The chat's
// membership itself moves in the group change's transaction (persistence
// keeps it in step); this is the live part, after the commit.
type GroupChats interface {
	GroupChatChanged(ctx context.Context, group uuid.UUID, users []uuid.UUID)
}

// chatChanged tells the chat of group (if any) that users' standing in the
// group changed.
func (a *Groups) chatChanged(ctx context.Context, group uuid.UUID, users ...uuid.UUID) {
	if a.d.Chats != nil && group != uuid.Nil {
		a.d.Chats.GroupChatChanged(ctx, group, users)
	}
}

// Groups is creating, finding, joining and running groups, and reading
// their posts.
type Groups struct {
	d     GroupsDeps
	pages *pageReads
	board hotCache[string, *board]
}

// NewGroups wires the group use cases.
func NewGroups(d GroupsDeps) *Groups {
	return &Groups{d: d, pages: newPageReads(d.DB, d.Log)}
}

// hotTTL is how long a group's board (its hot order and the posts on it) is
// reused. Measured: ordering an event group's 200 posts by their likes of
// the last ten minutes reads every one of those likes (~15,000 at a campus
// event's pace: 40-60 ms on the shared test machine), over the big screen's
// 50 ms budget when every screen asks each second; and loading the posts
// with their authors and images for each screen was two more queries per
// call. What is the viewer's own — access, standing, likes, blocks — and
// the counts are still read fresh on every call (one light query), so only
// the order and the posts' text are at most hotTTL (plus one computation)
// old.
const hotTTL = time.Second

// hotCache keeps one value per key, computed by the first caller of a key
// and shared: later callers reuse it, and after its ttl (hotTTL when zero)
// they get the previous value at once while one refresh runs. Safe for
// concurrent use.
type hotCache[K comparable, V any] struct {
	ttl     time.Duration
	mu      sync.Mutex
	entries map[K]*hotEntry[V]
}

// lifetime is how long a value is reused before it is refreshed.
func (c *hotCache[K, V]) lifetime() time.Duration {
	if c.ttl > 0 {
		return c.ttl
	}
	return hotTTL
}

type hotEntry[V any] struct {
	at         time.Time
	v          V             // read-only once published
	ready      chan struct{} // closed once the first value is in
	refreshing bool
	err        error
}

// hotCacheMax bounds the keys remembered; beyond it the stale ones go.
const hotCacheMax = 1000

// get answers key's value.
func (c *hotCache[K, V]) get(ctx context.Context, key K, compute func(context.Context) (V, error)) (V, error) {
	var zero V
	c.mu.Lock()
	if c.entries == nil {
		c.entries = make(map[K]*hotEntry[V])
	}
	e := c.entries[key]
	if e == nil || (e.err != nil && !e.refreshing) {
		if len(c.entries) >= hotCacheMax {
			for k, old := range c.entries {
				if !old.refreshing && time.Since(old.at) > c.lifetime() {
					delete(c.entries, k)
				}
			}
		}
		e = &hotEntry[V]{ready: make(chan struct{}), refreshing: true}
		c.entries[key] = e
		c.mu.Unlock()
		c.refresh(ctx, e, compute)
		c.mu.Lock()
		defer c.mu.Unlock()
		return e.v, e.err
	}
	select {
	case <-e.ready:
		if !e.refreshing && time.Since(e.at) > c.lifetime() {
			e.refreshing = true
			go c.refresh(ctx, e, compute)
		}
		v := e.v
		c.mu.Unlock()
		return v, nil
	default: // the first value is being computed: wait for it
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		c.mu.Lock()
		defer c.mu.Unlock()
		return e.v, e.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// forget drops key's value: the next caller computes it again. A refresh
// in flight (which may have read before the change that called forget)
// publishes into the dropped entry, seen only by those already waiting on it.
func (c *hotCache[K, V]) forget(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
}

// refresh computes e's value and publishes it. A failed refresh keeps the
// previous value (and tries again after hotTTL); a failed first computation
// is answered to its waiters and retried by the next caller.
func (c *hotCache[K, V]) refresh(ctx context.Context, e *hotEntry[V], compute func(context.Context) (V, error)) {
	// Shared with other callers: one giving up must not fail the others.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	v, err := compute(cctx)
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	first := e.at.IsZero() && e.err == nil
	if err == nil || first {
		e.v, e.err = v, err
	}
	e.at, e.refreshing = time.Now(), false
	if first {
		close(e.ready)
	}
}

// board is a group's big screen as nobody in particular sees it: the
// group, then its pinned post (if any) and its hottest posts, in order.
// Shared by every caller: read only.
type board struct {
	group *persistence.GroupRow
	posts []*persistence.PostRow
}

// GroupMe is the caller's standing in a group.
type GroupMe struct {
	Status        string  `json:"status"`
	Role          *string `json:"role"`
	FollowClosely bool    `json:"followClosely"`
}

// GroupView is the group JSON of the groups API.
type GroupView struct {
	ID           string              `json:"id"`
	Handle       string              `json:"handle"`
	Name         string              `json:"name"`
	Description  string              `json:"description"`
	Kind         string              `json:"kind"`
	Visibility   string              `json:"visibility"`
	AvatarURL    string              `json:"avatarUrl"`
	CoverURL     string              `json:"coverUrl"`
	MembersCount int                 `json:"membersCount"`
	PostsCount   int                 `json:"postsCount"`
	CreatedAt    time.Time           `json:"createdAt"`
	StartsAt     *time.Time          `json:"startsAt"`
	EndsAt       *time.Time          `json:"endsAt"`
	PinnedPostID *string             `json:"pinnedPostId"`
	Course       *domain.GroupCourse `json:"course"`
	// ChatEnabled says the group's chat is on; ChatID is its conversation,
	// for members only (null otherwise).
	ChatEnabled bool    `json:"chatEnabled"`
	ChatID      *string `json:"chatId"`
	Me          GroupMe `json:"me"`
}

// NewGroupView renders r for the viewer whose standing it carries.
func NewGroupView(r *persistence.GroupRow) GroupView {
	v := GroupView{
		ID: r.ID.String(), Handle: r.Handle, Name: r.Name, Description: r.Description, Kind: r.Kind,
		Visibility: r.Visibility, AvatarURL: r.AvatarURL, CoverURL: r.CoverURL,
		MembersCount: r.MembersCount, PostsCount: r.PostsCount, CreatedAt: r.CreatedAt,
		Me: GroupMe{Status: r.Membership().Status, FollowClosely: r.MyFollow},
	}
	if !r.StartsAt.IsZero() {
		s, e := r.StartsAt, r.EndsAt
		v.StartsAt, v.EndsAt = &s, &e
	}
	if r.PinnedPostID != uuid.Nil {
		id := r.PinnedPostID.String()
		v.PinnedPostID = &id
	}
	if r.CourseProgram != "" {
		v.Course = &domain.GroupCourse{Program: r.CourseProgram, Batch: r.CourseBatch}
	}
	if r.Membership().IsMember() {
		role := r.MyRole
		v.Me.Role = &role
	}
	if r.ChatID != uuid.Nil {
		v.ChatEnabled = true
		if r.Membership().IsMember() {
			id := r.ChatID.String()
			v.ChatID = &id
		}
	}
	return v
}

// GroupPage is a page of groups.
type GroupPage struct {
	Groups     []GroupView `json:"groups"`
	NextCursor *string     `json:"nextCursor"`
}

// GroupSuggestionView is a suggested group and why.
type GroupSuggestionView struct {
	Group  GroupView `json:"group"`
	Reason string    `json:"reason"`
}

// GroupMemberView is one member of a group.
type GroupMemberView struct {
	User     UserSummary `json:"user"`
	Role     string      `json:"role"`
	JoinedAt time.Time   `json:"joinedAt"`
}

// GroupMembersPage is a page of a group's members.
type GroupMembersPage struct {
	Members    []GroupMemberView `json:"members"`
	NextCursor *string           `json:"nextCursor"`
}

// GroupRequestView is one pending join request.
type GroupRequestView struct {
	User        UserSummary `json:"user"`
	RequestedAt time.Time   `json:"requestedAt"`
}

// GroupRequestsPage is a page of a group's join requests.
type GroupRequestsPage struct {
	Requests   []GroupRequestView `json:"requests"`
	NextCursor *string            `json:"nextCursor"`
}

// GroupLive is the big screen's data: the group, its pinned post and its
// hottest posts.
type GroupLive struct {
	Group  GroupView  `json:"group"`
	Pinned *PostView  `json:"pinned"`
	Hot    []PostView `json:"hot"`
}

// groupOf builds the persistence row of a validated group.
func groupOf(g domain.Group, row *persistence.Group) {
	row.Name, row.Description, row.Visibility = g.Name, g.Description, g.Visibility
	row.StartsAt, row.EndsAt = g.StartsAt, g.EndsAt
	row.CourseProgram, row.CourseBatch = "", ""
	if g.Course != nil {
		row.CourseProgram, row.CourseBatch = g.Course.Program, g.Course.Batch
	}
}

// Create makes a group with the caller as its owner.
func (a *Groups) Create(ctx context.Context, p Principal, in domain.GroupInput) (GroupView, error) {
	g, err := in.Validate()
	if err != nil {
		return GroupView{}, err
	}
	row := &persistence.Group{ID: persistence.NewID(), Handle: g.Handle, Kind: g.Kind}
	groupOf(g, row)
	if err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return persistence.InsertGroup(ctx, tx, row, p.UserID)
	}); err != nil {
		return GroupView{}, err
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("group_id", row.ID.String()).Str("handle", row.Handle).Msg("group created")
	return a.view(ctx, p, row.ID)
}

func (a *Groups) view(ctx context.Context, p Principal, id uuid.UUID) (GroupView, error) {
	r, err := persistence.GroupByID(ctx, a.d.DB, id, p.UserID)
	if isNotFound(err) {
		return GroupView{}, errGroupNotFound
	}
	if err != nil {
		return GroupView{}, err
	}
	return NewGroupView(r), nil
}

// visible loads the group by handle for the caller: errGroupNotFound when
// there is none or it is secret and the caller neither a member nor
// invited.
func (a *Groups) visible(ctx context.Context, db bun.IDB, p Principal, handle string) (*persistence.GroupRow, error) {
	h := domain.NormalizeHandle(handle)
	if !domain.ValidHandle(h) {
		return nil, errGroupNotFound
	}
	r, err := persistence.GroupByHandle(ctx, db, h, p.UserID)
	if isNotFound(err) || (err == nil && !domain.CanSeeGroup(r.Visibility, r.Membership())) {
		return nil, errGroupNotFound
	}
	return r, err
}

// locked is visible inside tx with the group's row locked.
func (a *Groups) locked(ctx context.Context, tx bun.Tx, p Principal, handle string) (*persistence.GroupRow, error) {
	h := domain.NormalizeHandle(handle)
	if !domain.ValidHandle(h) {
		return nil, errGroupNotFound
	}
	r, err := persistence.LockGroup(ctx, tx, h, p.UserID)
	if isNotFound(err) || (err == nil && !domain.CanSeeGroup(r.Visibility, r.Membership())) {
		return nil, errGroupNotFound
	}
	return r, err
}

// Get is one group as the caller sees it.
func (a *Groups) Get(ctx context.Context, p Principal, handle string) (GroupView, error) {
	r, err := a.visible(ctx, a.d.DB, p, handle)
	if err != nil {
		return GroupView{}, err
	}
	return NewGroupView(r), nil
}

// List is the directory: groups the caller may see, newest first, or with
// q the index's matches (exact names and handles first).
func (a *Groups) List(ctx context.Context, p Principal, q string, limit int, cursor string) (GroupPage, error) {
	limit = keysetLimit(limit, groupsPageDefault, groupsPageMax)
	query := persistence.GroupListQuery{Viewer: p.UserID, Limit: limit}
	if q != "" {
		if !domain.ValidText(q) {
			return GroupPage{}, domain.InvalidText("q")
		}
		ids := []uuid.UUID{}
		if a.d.Index != nil {
			hits, err := a.d.Index.SearchGroups(ctx, q, limit)
			if err != nil {
				return GroupPage{}, indexError(err)
			}
			for _, h := range hits {
				ids = append(ids, h.ID)
			}
		}
		query.IDs = ids
	} else {
		after, err := decodeKeyset(cursor)
		if err != nil {
			return GroupPage{}, err
		}
		query.After = after
	}
	return a.list(ctx, query)
}

// Mine is the groups the caller is a member of.
func (a *Groups) Mine(ctx context.Context, p Principal, limit int, cursor string) (GroupPage, error) {
	after, err := decodeKeyset(cursor)
	if err != nil {
		return GroupPage{}, err
	}
	return a.list(ctx, persistence.GroupListQuery{Viewer: p.UserID, Mine: true, After: after,
		Limit: keysetLimit(limit, groupsPageDefault, groupsPageMax)})
}

func (a *Groups) list(ctx context.Context, q persistence.GroupListQuery) (GroupPage, error) {
	rows, more, err := persistence.Groups(ctx, a.d.DB, q)
	if err != nil {
		return GroupPage{}, err
	}
	out := GroupPage{Groups: make([]GroupView, len(rows))}
	for i, r := range rows {
		out.Groups[i] = NewGroupView(r)
	}
	if more {
		last := rows[len(rows)-1]
		next := encodeKeyset(persistence.Keyset{At: last.CreatedAt, ID: last.ID})
		out.NextCursor = &next
	}
	return out, nil
}

// Suggestions are groups for the caller: course groups of their program
// and batch first, then groups their friends are in.
func (a *Groups) Suggestions(ctx context.Context, p Principal) ([]GroupSuggestionView, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return nil, err
	}
	program, batch := "", ""
	if id, err := domain.ParseUniversityID(u.UniversityID); err == nil {
		program, batch = id.Program, id.Batch
	}
	ss, err := persistence.SuggestedGroups(ctx, a.d.DB, p.UserID, program, batch, groupSuggestions)
	if err != nil {
		return nil, err
	}
	out := make([]GroupSuggestionView, 0, len(ss))
	for _, s := range ss {
		reason := ""
		switch {
		case s.Course:
			reason = "Your course: " + program + " " + domain.YearFromUniversityID(u.UniversityID)
		case s.Friends == 1:
			reason = "1 friend is a member"
		default:
			reason = strconv.Itoa(s.Friends) + " friends are members"
		}
		out = append(out, GroupSuggestionView{Group: NewGroupView(s.Group), Reason: reason})
	}
	return out, nil
}

// Update edits the group (owner and admins).
func (a *Groups) Update(ctx context.Context, p Principal, handle string, in domain.GroupPatch) (GroupView, error) {
	// This node's big screens show the change at once (others within hotTTL).
	defer a.board.forget(domain.NormalizeHandle(handle))
	var id uuid.UUID
	renamed := false
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsAdmin() {
			return errNotGroupAdmin
		}
		cur := domain.Group{Name: r.Name, Handle: r.Handle, Description: r.Description, Kind: r.Kind,
			Visibility: r.Visibility, StartsAt: r.StartsAt, EndsAt: r.EndsAt}
		if r.CourseProgram != "" {
			cur.Course = &domain.GroupCourse{Program: r.CourseProgram, Batch: r.CourseBatch}
		}
		g, err := in.Apply(cur)
		if err != nil {
			return err
		}
		id = r.ID
		groupOf(g, &r.Group)
		if err := persistence.UpdateGroup(ctx, tx, &r.Group); err != nil {
			return err
		}
		chat, err := persistence.RenameGroupChat(ctx, tx, r.ID, r.Name)
		renamed = chat != uuid.Nil
		return err
	})
	if err != nil {
		return GroupView{}, err
	}
	if renamed {
		a.chatChanged(ctx, id)
	}
	return a.view(ctx, p, id)
}

// UploadImage stores r as the group's avatar (which "avatar") or cover
// ("cover"); owner and admins. The replaced file goes after the commit; a
// failed upload leaves no file behind.
func (a *Groups) UploadImage(ctx context.Context, p Principal, handle, which string, r io.Reader) (GroupView, error) {
	if r == nil {
		return GroupView{}, domain.InvalidField("image", "Please choose an image to upload.")
	}
	// Authorize before storing anything.
	g, err := a.visible(ctx, a.d.DB, p, handle)
	if err != nil {
		return GroupView{}, err
	}
	if !g.Membership().IsAdmin() {
		return GroupView{}, errNotGroupAdmin
	}
	saved, err := a.d.Media.Save(ctx, r)
	if err != nil {
		return GroupView{}, err
	}
	var old string
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsAdmin() {
			return errNotGroupAdmin
		}
		old, err = persistence.SetGroupImage(ctx, tx, r.ID, which, saved.URL, saved.Key)
		return err
	})
	if err != nil {
		a.removeFile(saved.Key, "failed group "+which+" upload")
		return GroupView{}, err
	}
	if old != "" && old != saved.Key {
		a.removeFile(old, "replaced group "+which)
	}
	return a.view(ctx, p, g.ID)
}

func (a *Groups) removeFile(key, why string) {
	if err := a.d.Media.Delete(key); err != nil {
		a.d.Log.Warn().Err(err).Str("media_key", key).Str("reason", why).Msg("delete media file")
	}
}

// Delete removes the group with its posts (owner only).
func (a *Groups) Delete(ctx context.Context, p Principal, handle string) (MessageResult, error) {
	// This node's big screens show the change at once (others within hotTTL).
	defer a.board.forget(domain.NormalizeHandle(handle))
	var keys []string
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsOwner() {
			return domain.Forbidden(domain.MsgGroupNotOwner)
		}
		keys, err = persistence.DeleteGroup(ctx, tx, &r.Group)
		return err
	})
	if err != nil {
		return MessageResult{}, err
	}
	for _, k := range keys {
		a.removeFile(k, "deleted group")
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("handle", handle).Msg("group deleted")
	return MessageResult{Message: "Group deleted"}, nil
}

// notice is a notification to send after the commit.
type notice struct {
	to uuid.UUID
	n  *persistence.Notification
}

// notices collects the notifications a transaction inserts, to push after
// its commit.
type notices []notice

// add inserts n in tx and keeps it to push to n.UserID.
func (ns *notices) add(ctx context.Context, tx bun.IDB, n *persistence.Notification) error {
	if err := persistence.InsertNotification(ctx, tx, n); err != nil {
		return err
	}
	*ns = append(*ns, notice{n.UserID, n})
	return nil
}

// Join joins a public group, asks to join a closed one, accepts an
// invitation, or joins a course group the caller's university ID opens.
// Joining closed groups notifies the owner and admins.
func (a *Groups) Join(ctx context.Context, p Principal, handle string) (GroupView, error) {
	var id uuid.UUID
	var out notices
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		id = r.ID
		eligible := false
		if r.CourseProgram != "" {
			u, err := persistence.UserByID(ctx, tx, p.UserID)
			if err != nil {
				return err
			}
			eligible = domain.CourseEligible(&domain.GroupCourse{Program: r.CourseProgram, Batch: r.CourseBatch}, u.UniversityID)
		}
		m := r.Membership()
		status, err := domain.JoinGroup(r.Visibility, m, eligible)
		if err != nil {
			return err
		}
		if status == m.Status {
			return nil // asked again: nothing new
		}
		if err := persistence.SetMembership(ctx, tx, r.ID, p.UserID, status, domain.RoleMember, uuid.Nil); err != nil {
			return err
		}
		if status != domain.StatusRequested {
			return nil
		}
		admins, err := persistence.GroupAdmins(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		for _, admin := range admins {
			if blocked, err := blockedWith(ctx, tx, admin, p.UserID); err != nil {
				return err
			} else if blocked {
				continue
			}
			if err := out.add(ctx, tx, &persistence.Notification{UserID: admin, Type: persistence.NotifyGroupJoinRequest, SenderID: p.UserID, GroupID: r.ID}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return GroupView{}, err
	}
	a.push(ctx, p.UserID, out)
	a.chatChanged(ctx, id, p.UserID)
	return a.view(ctx, p, id)
}

// Leave leaves the group; the owner must transfer ownership first.
func (a *Groups) Leave(ctx context.Context, p Principal, handle string) (GroupView, error) {
	return a.dropSelf(ctx, p, handle, func(m domain.Membership) error { return domain.Leave(m) })
}

// CancelRequest withdraws the caller's join request.
func (a *Groups) CancelRequest(ctx context.Context, p Principal, handle string) (GroupView, error) {
	return a.dropSelf(ctx, p, handle, func(m domain.Membership) error {
		if m.Status != domain.StatusRequested {
			return domain.NotFound(domain.MsgGroupNoRequest)
		}
		return nil
	})
}

// DeclineInvitation turns down the caller's invitation.
func (a *Groups) DeclineInvitation(ctx context.Context, p Principal, handle string) (GroupView, error) {
	return a.dropSelf(ctx, p, handle, func(m domain.Membership) error {
		if m.Status != domain.StatusInvited {
			return domain.NotFound(domain.MsgGroupNoInvitation)
		}
		return nil
	})
}

// dropSelf removes the caller's own row when allowed says so. A secret
// group is gone for the caller afterwards: the answer is then its last
// view with the standing "none".
func (a *Groups) dropSelf(ctx context.Context, p Principal, handle string, allowed func(domain.Membership) error) (GroupView, error) {
	var v GroupView
	var group uuid.UUID
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if err := allowed(r.Membership()); err != nil {
			return err
		}
		if _, err := persistence.DeleteMembership(ctx, tx, r.ID, p.UserID); err != nil {
			return err
		}
		// Their pending group notifications go with the row.
		if _, err := tx.NewDelete().Model((*persistence.Notification)(nil)).Where("group_id = ?", r.ID).
			Where("(type = ?0 AND sender_id = ?2) OR (type = ?1 AND user_id = ?2)",
				persistence.NotifyGroupJoinRequest, persistence.NotifyGroupInvitation, p.UserID).Exec(ctx); err != nil {
			return fmt.Errorf("app: drop group notifications: %w", err)
		}
		after, err := persistence.GroupByID(ctx, tx, r.ID, p.UserID)
		if err != nil {
			return err
		}
		v, group = NewGroupView(after), r.ID
		return nil
	})
	if err == nil {
		a.chatChanged(ctx, group, p.UserID)
	}
	return v, err
}

// adminAct runs fn in a transaction with the group locked, when the caller
// is its owner or an admin, with the target's row.
func (a *Groups) adminAct(ctx context.Context, p Principal, handle string, target uuid.UUID,
	fn func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error) error {
	_, err := a.adminActIn(ctx, p, handle, target, fn)
	return err
}

// adminActIn is adminAct answering the group's id as well.
func (a *Groups) adminActIn(ctx context.Context, p Principal, handle string, target uuid.UUID,
	fn func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error) (uuid.UUID, error) {
	var group uuid.UUID
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsAdmin() {
			return errNotGroupAdmin
		}
		t, err := persistence.MemberOf(ctx, tx, r.ID, target)
		if err != nil {
			return err
		}
		group = r.ID
		return fn(tx, r, t)
	})
	return group, err
}

// Approve lets a requester in (owner and admins) and tells them.
func (a *Groups) Approve(ctx context.Context, p Principal, handle string, userID uuid.UUID) (MessageResult, error) {
	var out notices
	group, err := a.adminActIn(ctx, p, handle, userID, func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error {
		if t.Status != domain.StatusRequested {
			return domain.NotFound(domain.MsgGroupNoRequest)
		}
		if err := persistence.SetMembership(ctx, tx, g.ID, userID, domain.StatusMember, domain.RoleMember, uuid.Nil); err != nil {
			return err
		}
		if err := a.readRequestNotices(ctx, tx, g.ID, userID); err != nil {
			return err
		}
		return out.add(ctx, tx, &persistence.Notification{UserID: userID, Type: persistence.NotifyGroupJoinApproved, SenderID: p.UserID, GroupID: g.ID})
	})
	if err != nil {
		return MessageResult{}, err
	}
	a.push(ctx, p.UserID, out)
	a.chatChanged(ctx, group, userID)
	return MessageResult{Message: "Request approved"}, nil
}

// Decline turns a join request down (owner and admins).
func (a *Groups) Decline(ctx context.Context, p Principal, handle string, userID uuid.UUID) (MessageResult, error) {
	err := a.adminAct(ctx, p, handle, userID, func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error {
		if t.Status != domain.StatusRequested {
			return domain.NotFound(domain.MsgGroupNoRequest)
		}
		if _, err := persistence.DeleteMembership(ctx, tx, g.ID, userID); err != nil {
			return err
		}
		return a.readRequestNotices(ctx, tx, g.ID, userID)
	})
	if err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: "Request declined"}, nil
}

// readRequestNotices marks every admin's notification of userID's request
// read: one admin answered it for all.
func (a *Groups) readRequestNotices(ctx context.Context, tx bun.Tx, groupID, userID uuid.UUID) error {
	_, err := tx.NewUpdate().Model((*persistence.Notification)(nil)).Set("is_read = true").
		Where("group_id = ? AND sender_id = ? AND type = ? AND NOT is_read", groupID, userID, persistence.NotifyGroupJoinRequest).Exec(ctx)
	if err != nil {
		return fmt.Errorf("app: read join request notifications: %w", err)
	}
	return nil
}

// Invite invites someone (members of public and closed groups, admins of
// secret ones); the invitation is a notification.
func (a *Groups) Invite(ctx context.Context, p Principal, handle string, userID uuid.UUID) (MessageResult, error) {
	if userID == p.UserID {
		return MessageResult{}, domain.Invalid(domain.MsgGroupSelf)
	}
	var out notices
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if exists, err := tx.NewSelect().Model((*persistence.User)(nil)).Where("id = ?", userID).Exists(ctx); err != nil {
			return fmt.Errorf("app: invitee: %w", err)
		} else if !exists {
			return errUserNotFound
		}
		// A block hides the two from each other, invitations included.
		if blocked, err := blockedWith(ctx, tx, p.UserID, userID); err != nil {
			return err
		} else if blocked {
			return errUserNotFound
		}
		t, err := persistence.MemberOf(ctx, tx, r.ID, userID)
		if err != nil {
			return err
		}
		if err := domain.CanInvite(r.Visibility, r.Membership(), t.Standing()); err != nil {
			return err
		}
		if err := persistence.SetMembership(ctx, tx, r.ID, userID, domain.StatusInvited, domain.RoleMember, p.UserID); err != nil {
			return err
		}
		return out.add(ctx, tx, &persistence.Notification{UserID: userID, Type: persistence.NotifyGroupInvitation, SenderID: p.UserID, GroupID: r.ID})
	})
	if err != nil {
		return MessageResult{}, err
	}
	a.push(ctx, p.UserID, out)
	return MessageResult{Message: "Invitation sent"}, nil
}

// SetRole makes a member an admin or a plain member (owner only).
func (a *Groups) SetRole(ctx context.Context, p Principal, handle string, userID uuid.UUID, role string) (MessageResult, error) {
	group, err := a.adminActIn(ctx, p, handle, userID, func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error {
		if err := domain.CanSetRole(g.Membership(), t.Standing(), role); err != nil {
			return err
		}
		return persistence.SetMemberRole(ctx, tx, g.ID, userID, role)
	})
	if err != nil {
		return MessageResult{}, err
	}
	a.chatChanged(ctx, group, userID)
	return MessageResult{Message: "Role updated"}, nil
}

// RemoveMember removes a member (the owner anyone else, admins plain
// members).
func (a *Groups) RemoveMember(ctx context.Context, p Principal, handle string, userID uuid.UUID) (MessageResult, error) {
	group, err := a.adminActIn(ctx, p, handle, userID, func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error {
		if err := domain.CanRemove(g.Membership(), t.Standing()); err != nil {
			return err
		}
		_, err := persistence.DeleteMembership(ctx, tx, g.ID, userID)
		return err
	})
	if err != nil {
		return MessageResult{}, err
	}
	a.chatChanged(ctx, group, userID)
	return MessageResult{Message: "Member removed"}, nil
}

// Transfer hands the group to another member; the old owner stays an admin.
func (a *Groups) Transfer(ctx context.Context, p Principal, handle string, userID uuid.UUID) (GroupView, error) {
	var id uuid.UUID
	err := a.adminAct(ctx, p, handle, userID, func(tx bun.Tx, g *persistence.GroupRow, t persistence.GroupMember) error {
		if err := domain.CanTransfer(g.Membership(), t.Standing()); err != nil {
			return err
		}
		id = g.ID
		// The old owner steps down first: one owner per group (a unique index).
		if err := persistence.SetMemberRole(ctx, tx, g.ID, p.UserID, domain.RoleAdmin); err != nil {
			return err
		}
		return persistence.SetMemberRole(ctx, tx, g.ID, userID, domain.RoleOwner)
	})
	if err != nil {
		return GroupView{}, err
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("group_id", id.String()).Str("new_owner", userID.String()).Msg("group ownership transferred")
	a.chatChanged(ctx, id, p.UserID, userID)
	return a.view(ctx, p, id)
}

// Follow sets whether the caller (a member) is told of every new post.
func (a *Groups) Follow(ctx context.Context, p Principal, handle string, closely bool) (GroupView, error) {
	r, err := a.visible(ctx, a.d.DB, p, handle)
	if err != nil {
		return GroupView{}, err
	}
	ok, err := persistence.SetFollowClosely(ctx, a.d.DB, r.ID, p.UserID, closely)
	if err != nil {
		return GroupView{}, err
	}
	if !ok {
		return GroupView{}, errNotGroupMember
	}
	return a.view(ctx, p, r.ID)
}

// Pin pins a post of the group (postID nil unpins); owner and admins.
func (a *Groups) Pin(ctx context.Context, p Principal, handle string, postID *uuid.UUID) (GroupView, error) {
	// This node's big screens show the change at once (others within hotTTL).
	defer a.board.forget(domain.NormalizeHandle(handle))
	var id uuid.UUID
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsAdmin() {
			return errNotGroupAdmin
		}
		id = r.ID
		pin := uuid.Nil
		if postID != nil {
			pin = *postID
		}
		ok, err := persistence.SetPinnedPost(ctx, tx, r.ID, pin)
		if err == nil && !ok {
			err = domain.InvalidField("postId", domain.MsgGroupPinPost)
		}
		return err
	})
	if err != nil {
		return GroupView{}, err
	}
	return a.view(ctx, p, id)
}

// readable loads the group for reading its posts or members: public to
// anyone, closed and secret to members only.
func (a *Groups) readable(ctx context.Context, p Principal, handle string) (*persistence.GroupRow, error) {
	r, err := a.visible(ctx, a.d.DB, p, handle)
	if err != nil {
		return nil, err
	}
	if !domain.CanReadPosts(r.Visibility, r.Membership()) {
		return nil, errNotGroupMember
	}
	return r, nil
}

// Members is a page of the group's members, newest first, optionally of
// one role; people with a block between them and the caller are left out.
func (a *Groups) Members(ctx context.Context, p Principal, handle, role string, limit int, cursor string) (GroupMembersPage, error) {
	r, err := a.readable(ctx, p, handle)
	if err != nil {
		return GroupMembersPage{}, err
	}
	switch role {
	case "", domain.RoleOwner, domain.RoleAdmin, domain.RoleMember:
	default:
		return GroupMembersPage{}, domain.InvalidField("role", "Role must be owner, admin or member.")
	}
	limit = keysetLimit(limit, groupsPageDefault, groupsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return GroupMembersPage{}, err
	}
	rows, more, err := persistence.GroupMembers(ctx, a.d.DB, r.ID, domain.StatusMember, role, after, limit)
	if err != nil {
		return GroupMembersPage{}, err
	}
	hide, err := persistence.BlockedWith(ctx, a.d.DB, p.UserID)
	if err != nil {
		return GroupMembersPage{}, err
	}
	out := GroupMembersPage{Members: make([]GroupMemberView, 0, len(rows))}
	for _, m := range rows {
		if hide[m.UserID] || m.User == nil {
			continue
		}
		out.Members = append(out.Members, GroupMemberView{User: NewUserSummary(m.User), Role: m.Role, JoinedAt: m.JoinedAt})
	}
	if more {
		last := rows[len(rows)-1]
		next := encodeKeyset(persistence.Keyset{At: last.JoinedAt, ID: last.UserID})
		out.NextCursor = &next
	}
	return out, nil
}

// Requests is a page of pending join requests, newest first (admins).
func (a *Groups) Requests(ctx context.Context, p Principal, handle string, limit int, cursor string) (GroupRequestsPage, error) {
	r, err := a.visible(ctx, a.d.DB, p, handle)
	if err != nil {
		return GroupRequestsPage{}, err
	}
	if !r.Membership().IsAdmin() {
		return GroupRequestsPage{}, errNotGroupAdmin
	}
	limit = keysetLimit(limit, groupsPageDefault, groupsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return GroupRequestsPage{}, err
	}
	rows, more, err := persistence.GroupMembers(ctx, a.d.DB, r.ID, domain.StatusRequested, "", after, limit)
	if err != nil {
		return GroupRequestsPage{}, err
	}
	out := GroupRequestsPage{Requests: make([]GroupRequestView, 0, len(rows))}
	for _, m := range rows {
		if m.User != nil {
			out.Requests = append(out.Requests, GroupRequestView{User: NewUserSummary(m.User), RequestedAt: m.CreatedAt})
		}
	}
	if more {
		last := rows[len(rows)-1]
		next := encodeKeyset(persistence.Keyset{At: last.CreatedAt, ID: last.UserID})
		out.NextCursor = &next
	}
	return out, nil
}

// Posts is the group's feed, newest first (the feed's post JSON).
func (a *Groups) Posts(ctx context.Context, p Principal, handle string, limit int, cursor string) (PostPage, error) {
	r, err := a.readable(ctx, p, handle)
	if err != nil {
		return PostPage{}, err
	}
	limit = keysetLimit(limit, postsPageDefault, postsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return PostPage{}, err
	}
	return a.pages.read(ctx, persistence.PostQuery{Group: r.ID, After: after, Limit: limit}, p.UserID)
}

// Live is the big screen's data: the group, its pinned post and its
// hottest posts by likes in the last ten minutes, then by all likes. Every
// screen of an event asks for it about once a second, so the board is
// shared (hotCache) and each call costs one light query for what is the
// caller's own and what moves: their access and standing, the counts, their
// likes and blocks, and which posts are gone.
func (a *Groups) Live(ctx context.Context, p Principal, handle string) (GroupLive, error) {
	h := domain.NormalizeHandle(handle)
	if !domain.ValidHandle(h) {
		return GroupLive{}, errGroupNotFound
	}
	for attempt := 0; ; attempt++ {
		b, err := a.board.get(ctx, h, func(ctx context.Context) (*board, error) { return a.loadBoard(ctx, h) })
		if isNotFound(err) {
			a.board.forget(h)
			return GroupLive{}, errGroupNotFound
		}
		if err != nil {
			return GroupLive{}, err
		}
		ids := make([]uuid.UUID, len(b.posts))
		for i, r := range b.posts {
			ids[i] = r.ID
		}
		v, err := persistence.BoardViewerOf(ctx, a.d.DB, b.group.ID, h, p.UserID, ids)
		if isNotFound(err) && attempt == 0 {
			// The group went or changed its handle since the board was
			// made (or another took the handle): look again.
			a.board.forget(h)
			continue
		}
		if isNotFound(err) {
			return GroupLive{}, errGroupNotFound
		}
		if err != nil {
			return GroupLive{}, err
		}
		return liveFor(b, v)
	}
}

// loadBoard makes handle's board: the group, its hot order, the posts.
func (a *Groups) loadBoard(ctx context.Context, handle string) (*board, error) {
	r, err := persistence.GroupByHandle(ctx, a.d.DB, handle, uuid.Nil)
	if err != nil {
		return nil, err
	}
	ids, err := persistence.HotGroupPosts(ctx, a.d.DB, r.ID, hotWindow, hotMax)
	if err != nil {
		return nil, err
	}
	if r.PinnedPostID != uuid.Nil {
		ids = append([]uuid.UUID{r.PinnedPostID}, ids...)
	}
	rows, err := persistence.PostsByIDs(ctx, a.d.DB, ids, uuid.Nil)
	if err != nil {
		return nil, err
	}
	return &board{group: r, posts: rows}, nil
}

// liveFor is b as the viewer whose fresh standing v is sees it.
func liveFor(b *board, v persistence.BoardViewer) (GroupLive, error) {
	g := *b.group
	g.Visibility, g.MyStatus, g.MyRole, g.MyFollow = v.Visibility, v.Status, v.Role, v.Follow
	if !domain.CanSeeGroup(g.Visibility, g.Membership()) {
		return GroupLive{}, errGroupNotFound
	}
	if !domain.CanReadPosts(g.Visibility, g.Membership()) {
		return GroupLive{}, errNotGroupMember
	}
	out := GroupLive{Group: NewGroupView(&g), Hot: make([]PostView, 0, len(b.posts))}
	for _, shared := range b.posts {
		now, ok := v.Posts[shared.ID]
		if !ok || now.Hidden {
			continue // removed since, or a block between the caller and the author
		}
		row := *shared
		row.LikesCount, row.CommentsCount, row.IsLiked = now.Likes, now.Comments, now.Liked
		row.CountsVersion = now.CountsVersion
		if row.Group != nil {
			pg := *row.Group
			pg.Visibility = g.Visibility
			row.Group = &pg
		}
		view := NewPostView(&row)
		if row.ID == g.PinnedPostID && out.Pinned == nil {
			out.Pinned = &view
			continue // the pinned post is first on the board, and may be hot too
		}
		out.Hot = append(out.Hot, view)
	}
	return out, nil
}

// push sends the notifications made in a committed transaction, live;
// failures are logged: the rows are the truth and clients re-fetch.
func (a *Groups) push(ctx context.Context, from uuid.UUID, ns []notice) {
	pushNotices(ctx, a.d.DB, a.d.Pusher, a.d.Log, from, ns)
}

func pushNotices(ctx context.Context, db bun.IDB, pusher Pusher, log zerolog.Logger, from uuid.UUID, ns []notice) {
	if pusher == nil || len(ns) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	sender, err := persistence.UserByID(ctx, db, from)
	if err != nil {
		log.Warn().Err(err).Str("user_id", from.String()).Msg("group notification sender")
		return
	}
	var group *persistence.Group
	for _, x := range ns {
		if group == nil || group.ID != x.n.GroupID {
			group = new(persistence.Group)
			if err := db.NewSelect().Model(group).Column("id", "handle", "name").Where("id = ?", x.n.GroupID).Scan(ctx); err != nil {
				log.Warn().Err(err).Msg("group of a notification")
				return
			}
		}
		x.n.Actors = []*persistence.User{sender}
		x.n.GroupHandle, x.n.GroupName = group.Handle, group.Name
		unread, err := persistence.UnreadNotificationCount(ctx, db, x.to)
		if err != nil {
			log.Warn().Err(err).Str("user_id", x.to.String()).Msg("unread count for live push")
			continue
		}
		ev := NotificationEvent{NotificationView: NewNotificationView(x.n), UnreadCount: unread}
		if err := pusher.PushToUser(ctx, x.to, protocol.EventNotification, ev); err != nil {
			log.Warn().Err(err).Str("user_id", x.to.String()).Str("event", protocol.EventNotification).Msg("live push failed")
		}
	}
}

// groupPostNotices stores a group_post notification, in tx, for every
// member who follows the group closely (not the author).
func groupPostNotices(ctx context.Context, tx bun.IDB, groupID, postID, author uuid.UUID) ([]notice, error) {
	ids, err := persistence.CloseFollowers(ctx, tx, groupID, author)
	if err != nil {
		return nil, err
	}
	out := make(notices, 0, len(ids))
	for _, id := range ids {
		if err := out.add(ctx, tx, &persistence.Notification{UserID: id, Type: persistence.NotifyGroupPost, SenderID: author, PostID: postID, GroupID: groupID}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// groupPostAdmin reports whether userID is an owner or admin of the group.
func groupPostAdmin(ctx context.Context, db bun.IDB, groupID, userID uuid.UUID) (bool, error) {
	if groupID == uuid.Nil {
		return false, nil
	}
	m, err := persistence.MemberOf(ctx, db, groupID, userID)
	if err != nil {
		return false, err
	}
	return m.Standing().IsAdmin(), nil
}

// GroupChatResult answers switching a group's chat on or off.
type GroupChatResult struct {
	Enabled bool `json:"enabled"`
	// ConversationID is the chat (null when off).
	ConversationID *string   `json:"conversationId"`
	Group          GroupView `json:"group"`
}

// SetChat switches the group's chat on or off (owner and admins). On, it is
// a group conversation named as the group whose members are the group's
// members (its admins the group's owner and admins), kept in step with
// every join, leave and removal; the same one reopens after being off.
// Off, everyone leaves it, keeping the history up to then.
func (a *Groups) SetChat(ctx context.Context, p Principal, handle string, enabled bool) (GroupChatResult, error) {
	var group, chat uuid.UUID
	var left []uuid.UUID
	changed := false
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.locked(ctx, tx, p, handle)
		if err != nil {
			return err
		}
		if !r.Membership().IsAdmin() {
			return errNotGroupAdmin
		}
		group = r.ID
		if enabled {
			c, opened, err := persistence.OpenGroupChat(ctx, tx, r.ID, r.Name, p.UserID)
			if err != nil {
				return err
			}
			chat, changed = c.ID, opened
			return nil
		}
		chat, left, err = persistence.CloseGroupChat(ctx, tx, r.ID)
		changed = chat != uuid.Nil
		return err
	})
	if err != nil {
		return GroupChatResult{}, err
	}
	if changed {
		a.chatChanged(ctx, group, left...)
		a.d.Log.Info().Str("user_id", p.UserID.String()).Str("group_id", group.String()).
			Str("conversation_id", chat.String()).Bool("enabled", enabled).Msg("group chat switched")
	}
	v, err := a.view(ctx, p, group)
	if err != nil {
		return GroupChatResult{}, err
	}
	return GroupChatResult{Enabled: v.ChatEnabled, ConversationID: v.ChatID, Group: v}, nil
}
