package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/media"
	"campus/persistence"
	"campus/protocol"
)

// List sizes of posts and comments (docs/protocol.md §1).
const (
	postsPageDefault = 20
	postsPageMax     = 100
)

var (
	errPostNotFound = domain.NotFound(domain.MsgPostNotFound)
	errNotYourPost  = domain.Forbidden(domain.MsgNotYourPost)
)

// PostGrains is what the post use cases need from the live core: likes and
// comments go through the post's grain, which serializes and group-commits
// them (actors.Live implements it). Errors that are not *domain.Error are
// transport or database failures, worth one retry.
type PostGrains interface {
	// Like applies one like action and answers, once committed, whether the
	// user likes the post and its like count. requestID is the same on every
	// retry of one action, which then joins the original rather than
	// applying it again.
	Like(ctx context.Context, postID, userID uuid.UUID, action domain.LikeAction, requestID string) (liked bool, likes int, version int64, err error)
	// AddComment stores c (ID, PostID, UserID, Content set), fills its
	// CreatedAt and answers the post's comment count.
	AddComment(ctx context.Context, c *persistence.Comment) (comments int, version int64, err error)
	// RemoveComment deletes a comment if userID wrote it or the post.
	RemoveComment(ctx context.Context, postID, commentID, userID uuid.UUID) (comments int, version int64, err error)
	// PostDeleted tells the post's watchers on every node.
	PostDeleted(ctx context.Context, postID uuid.UUID) error
	// NotifyMentioned has each of users notified that author mentioned
	// them in the post (commentID zero) or one of its comments, through
	// their user grains (rolled up per person and post).
	NotifyMentioned(ctx context.Context, author, postID, commentID uuid.UUID, users []uuid.UUID) error
	// PublishCounts sends counts committed outside the grain (a repost) to
	// the post's watchers with the next count tick, through the batcher
	// the grains' own counts go through.
	PublishCounts(postID uuid.UUID, likes, comments, reposts int, version int64)
	// NotifyPost creates a notification of typ about post from sender
	// through userID's user grain (rolled up where the kind rolls up).
	NotifyPost(ctx context.Context, userID uuid.UUID, typ string, sender, post uuid.UUID) error
}

// PostsDeps are what the post use cases need.
type PostsDeps struct {
	DB *bun.DB
	// Media stores the images (ImageStore is shared with profiles).
	Media  ImageStore
	Grains PostGrains
	// Fanout sends post:new and post:edited; nil: none (readers see the
	// posts on their next fetch).
	Fanout Fanout
	// Brakes limit new accounts' posts and comments; nil: no brakes.
	Brakes *Brakes
	// Pusher tells close followers of a group of its new posts, live; nil:
	// the notifications are only stored.
	Pusher Pusher
	// Gates answers post gates from memory; nil: a query each time.
	Gates *Gates
	Log   zerolog.Logger
}

// Posts is creating, reading, editing and deleting posts, their comments and
// likes. Reads go straight to Postgres; likes and comments go through the
// post grain.
type Posts struct {
	d     PostsDeps
	pages *pageReads
}

// NewPosts wires the post use cases.
func NewPosts(d PostsDeps) *Posts { return &Posts{d: d, pages: newPageReads(d.DB, d.Log)} }

// PostImageView is one image of a post: the original (url, type, width,
// height: what clients without srcset show), its description, and its
// smaller copies for srcset. ThumbURL is the smallest copy, url itself when
// there is none.
type PostImageView struct {
	URL      string        `json:"url"`
	Type     string        `json:"type"`
	Width    int           `json:"width"`
	Height   int           `json:"height"`
	Alt      string        `json:"alt"`
	ThumbURL string        `json:"thumbUrl"`
	Variants []VariantView `json:"variants"`
}

// PostView is the post JSON of docs/product.md §3. Author and User are the same
// summary: clients read either. Visibility is "public" outside groups and
// the group's visibility (public, closed, secret) inside one.
type PostView struct {
	ID         string          `json:"id"`
	Content    string          `json:"content"`
	Images     []PostImageView `json:"images"`
	Visibility string          `json:"visibility"`
	LikesCount int             `json:"likesCount"`
	IsLiked    bool            `json:"isLiked"`
	// Saved and Reposted are whether the reader bookmarked and reposted
	// the post (private to the reader, like isLiked).
	Saved         bool `json:"saved"`
	Reposted      bool `json:"reposted"`
	CommentsCount int  `json:"commentsCount"`
	RepostsCount  int  `json:"repostsCount"`
	// CountsVersion orders copies of the post's counts (a page, a like's
	// answer, a post:counts entry): the higher is the newer.
	CountsVersion int64       `json:"countsVersion"`
	Author        UserSummary `json:"author"`
	User          UserSummary `json:"user"`
	UserID        string      `json:"userId"`
	CreatedAt     time.Time   `json:"createdAt"`
	UpdatedAt     time.Time   `json:"updatedAt"`
	// Group is the post's group; null outside groups.
	Group *PostGroupView `json:"group"`
	// Mentions are the people the text names by @handle; left out when
	// none. An @handle not among them names no one and stays text.
	Mentions []MentionView `json:"mentions,omitempty"`
	// RepostOf makes this entry a repost (as Mastodon's reblog): ID,
	// Author, Content (the comment) and CreatedAt are the repost's, and
	// RepostOf is the original the card shows, with the reader's isLiked,
	// saved and reposted of it; a repost's own counts are 0 and its own
	// flags false. Absent on a post of its own.
	RepostOf *PostView `json:"repostOf,omitempty"`
}

// target is the post a card shows and acts on: the original of a repost,
// else v.
func (v *PostView) target() *PostView {
	if v.RepostOf != nil {
		return v.RepostOf
	}
	return v
}

// withViewer is v with the reader's flags set on its target (copied, so
// that other readers' copies of the page keep theirs).
func (v PostView) withViewer(liked, saved, reposted bool) PostView {
	if v.RepostOf != nil {
		o := *v.RepostOf
		o.IsLiked, o.Saved, o.Reposted = liked, saved, reposted
		v.RepostOf = &o
		return v
	}
	v.IsLiked, v.Saved, v.Reposted = liked, saved, reposted
	return v
}

// PostGroupView is the group a post belongs to.
type PostGroupView struct {
	ID         string `json:"id"`
	Handle     string `json:"handle"`
	Name       string `json:"name"`
	Visibility string `json:"visibility"`
}

// NewPostView renders a post row for its viewer: a repost as its entry
// wrapping the original, the images and the reader's flags the original's.
func NewPostView(r *persistence.PostRow) PostView {
	if r.Original != nil {
		o := *r.Original
		o.ImageList = r.ImageList
		orig := newPostView(&o)
		orig.IsLiked, orig.Saved, orig.Reposted = r.IsLiked, r.IsSaved, r.IsReposted
		var reposter UserSummary
		if r.Author != nil {
			reposter = NewUserSummary(r.Author)
		}
		return PostView{ID: r.ID.String(), Content: r.Content, Images: []PostImageView{}, Visibility: domain.VisibilityPublic,
			Author: reposter, User: reposter, UserID: r.UserID.String(), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
			RepostOf: &orig}
	}
	v := newPostView(r)
	v.Saved, v.Reposted = r.IsSaved, r.IsReposted
	return v
}

// newPostView renders a post of its own.
func newPostView(r *persistence.PostRow) PostView {
	images := make([]PostImageView, len(r.ImageList))
	for i, im := range r.ImageList {
		images[i] = PostImageView{
			URL: im.URL, Type: im.Type, Width: im.Width, Height: im.Height, Alt: im.Alt,
			ThumbURL: im.URL, Variants: variantViews(im.Variants),
		}
		if len(im.Variants) > 0 {
			images[i].ThumbURL = im.Variants[0].URL
		}
	}
	var author UserSummary
	if r.Author != nil {
		author = NewUserSummary(r.Author)
	}
	v := PostView{
		ID: r.ID.String(), Content: r.Content, Images: images, Visibility: r.Visibility,
		LikesCount: r.LikesCount, IsLiked: r.IsLiked, CommentsCount: r.CommentsCount, RepostsCount: r.RepostsCount,
		CountsVersion: r.CountsVersion, Author: author, User: author, UserID: r.UserID.String(),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Mentions: mentionViews(r.Mentions),
	}
	if g := r.Group; g != nil {
		v.Group = &PostGroupView{ID: g.ID.String(), Handle: g.Handle, Name: g.Name, Visibility: g.Visibility}
		// A group post is read by whom its group lets read it: the row's
		// "public" (the only visibility a post is created with) would
		// contradict a closed or secret group, and the group's visibility
		// may change after the post.
		v.Visibility = g.Visibility
	}
	return v
}

// CommentView is a comment as lists and answers show it.
type CommentView struct {
	ID        string      `json:"id"`
	PostID    string      `json:"postId"`
	Content   string      `json:"content"`
	User      UserSummary `json:"user"`
	CreatedAt time.Time   `json:"createdAt"`
	// Mentions are the people the text names, as a post's.
	Mentions []MentionView `json:"mentions,omitempty"`
}

// NewCommentView renders c; author is c's author.
func NewCommentView(c *persistence.Comment, author *persistence.User) CommentView {
	v := CommentView{ID: c.ID.String(), PostID: c.PostID.String(), Content: c.Content, CreatedAt: c.CreatedAt,
		Mentions: mentionViews(c.Mentions)}
	if author != nil {
		v.User = NewUserSummary(author)
	}
	return v
}

// PostPage answers the feed and a user's posts.
type PostPage struct {
	Posts      []PostView `json:"posts"`
	NextCursor *string    `json:"nextCursor"`
	// enc is the page encoded once for all the readers of one query (nil
	// for a page made otherwise); only IsLiked may differ from it.
	enc *encodedPage
}

// PostResult answers creating and editing a post.
type PostResult struct {
	Post PostView `json:"post"`
}

// PostDetail answers GET /posts/{id}: the post and its first comments.
type PostDetail struct {
	Post       PostView      `json:"post"`
	Comments   []CommentView `json:"comments"`
	NextCursor *string       `json:"nextCursor"`
	// Moderation marks, for the moderators who alone still read it, a post
	// hidden from everyone else; absent from a post anyone may read.
	Moderation *HiddenMarks `json:"moderation,omitempty"`
}

// HiddenMarks say why a post a moderator reads is hidden from everyone
// else: a moderator removed it, or its author is suspended.
type HiddenMarks struct {
	Removed         bool `json:"removed"`
	AuthorSuspended bool `json:"authorSuspended"`
}

// CommentPage answers GET /posts/{id}/comments.
type CommentPage struct {
	Comments   []CommentView `json:"comments"`
	NextCursor *string       `json:"nextCursor"`
}

// CommentResult answers a new comment.
type CommentResult struct {
	Comment       CommentView `json:"comment"`
	CommentsCount int         `json:"commentsCount"`
	CountsVersion int64       `json:"countsVersion"`
}

// counted is a post's count and its counts version with it (a grain's
// comment answer).
type counted struct {
	Count   int
	Version int64
}

// CommentDeleted answers deleting a comment.
type CommentDeleted struct {
	Message       string `json:"message"`
	CommentsCount int    `json:"commentsCount"`
	CountsVersion int64  `json:"countsVersion"`
}

// Create stores a new post with up to three images. Images are validated
// and stored first; if anything fails, the stored files are removed and no
// row is left.
func (a *Posts) Create(ctx context.Context, p Principal, in domain.PostInput, images []io.Reader) (PostResult, error) {
	post, err := in.Validate(len(images))
	if err != nil {
		return PostResult{}, err
	}
	groupID, err := a.groupToPostIn(ctx, p, in.GroupID)
	if err != nil {
		return PostResult{}, err
	}
	if err := a.d.Brakes.check(ctx, p.UserID, brakePost); err != nil {
		return PostResult{}, err
	}
	saved := make([]media.Image, 0, len(images))
	cleanup := func() {
		for _, im := range saved {
			if err := a.d.Media.Delete(im.Key); err != nil {
				a.d.Log.Warn().Err(err).Str("key", im.Key).Msg("could not remove an image of a failed post")
			}
		}
	}
	for _, r := range images {
		im, err := a.d.Media.Save(ctx, r)
		if err != nil {
			cleanup()
			return PostResult{}, err
		}
		saved = append(saved, im)
	}
	row := &persistence.Post{ID: persistence.NewID(), UserID: p.UserID, Content: post.Content, Visibility: post.Visibility,
		GroupID: groupID}
	var notices []notice
	var mentions persistence.StoredMentions
	rows := make([]*persistence.PostImage, len(saved))
	for i, im := range saved {
		rows[i] = &persistence.PostImage{
			ID: persistence.NewID(), PostID: row.ID, Position: int16(i), StorageKey: im.Key, URL: im.URL,
			Type: im.Type, ContentType: im.ContentType, Width: im.Width, Height: im.Height, SizeBytes: im.Size,
			Alt: post.Alts[i], Variants: storedVariants(im),
		}
	}
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.InsertPost(ctx, tx, row, rows); err != nil {
			return err
		}
		var err error
		mentions, err = persistence.StoreMentions(ctx, tx, persistence.MentionSource{PostID: row.ID, AuthorID: p.UserID,
			Handles: domain.MentionHandles(post.Content)})
		if err != nil {
			return err
		}
		if groupID == uuid.Nil {
			return nil
		}
		notices, err = groupPostNotices(ctx, tx, groupID, row.ID, p.UserID)
		return err
	})
	if err != nil {
		cleanup()
		return PostResult{}, err
	}
	pushNotices(ctx, a.d.DB, a.d.Pusher, a.d.Log, p.UserID, notices)
	notifyMentioned(ctx, a.d.Grains, a.d.Log, p.UserID, row.ID, mentions.Notify)
	view, err := persistence.PostByID(ctx, a.d.DB, row.ID, p.UserID)
	if err != nil {
		return PostResult{}, err
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("post_id", row.ID.String()).Int("images", len(saved)).Msg("post created")
	a.fanOut(ctx, p.UserID, groupID, func(ctx context.Context, to []uuid.UUID) error {
		return a.d.Fanout.PushToUsers(ctx, to, protocol.EventPostNew, PostNewEvent{PostID: row.ID.String(), AuthorID: p.UserID.String()})
	})
	return PostResult{Post: NewPostView(view)}, nil
}

// groupToPostIn checks the groupId of a new post: "" is none; otherwise
// the caller must be a member (403), and the group must exist for them
// (404 for a secret group they are not in).
func (a *Posts) groupToPostIn(ctx context.Context, p Principal, raw string) (uuid.UUID, error) {
	if raw == "" {
		return uuid.Nil, nil
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, domain.InvalidField("groupId", domain.MsgGroupNotFound)
	}
	g, err := persistence.GroupByID(ctx, a.d.DB, id, p.UserID)
	if isNotFound(err) || (err == nil && !domain.CanSeeGroup(g.Visibility, g.Membership())) {
		return uuid.Nil, errGroupNotFound
	}
	if err != nil {
		return uuid.Nil, err
	}
	if !g.Membership().IsMember() {
		return uuid.Nil, errNotGroupMember
	}
	return id, nil
}

// Feed is the home feed, newest first: posts outside groups and the posts
// of the caller's groups.
func (a *Posts) Feed(ctx context.Context, p Principal, limit int, cursor string) (PostPage, error) {
	limit = keysetLimit(limit, postsPageDefault, postsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return PostPage{}, err
	}
	var groups []uuid.UUID
	if a.d.Gates != nil {
		groups, err = a.d.Gates.MemberGroups(ctx, p.UserID)
	} else {
		groups, err = persistence.MemberGroupIDs(ctx, a.d.DB, p.UserID)
	}
	if err != nil {
		return PostPage{}, err
	}
	return a.pages.read(ctx, persistence.PostQuery{Groups: groups, After: after, Limit: limit}, p.UserID)
}

// UserPosts is one user's posts, newest first.
func (a *Posts) UserPosts(ctx context.Context, p Principal, userID uuid.UUID, limit int, cursor string) (PostPage, error) {
	// A block hides a profile's posts as if the profile were gone, and so
	// does a suspension (but to moderators, whose list is empty: lists
	// leave a suspended account's posts out for everyone).
	if blocked, err := blockedWith(ctx, a.d.DB, p.UserID, userID); err != nil {
		return PostPage{}, err
	} else if blocked {
		return PostPage{}, errUserNotFound
	}
	if _, hidden, err := suspendedFor(ctx, a.d.DB, p.UserID, userID); err != nil {
		return PostPage{}, err
	} else if hidden {
		return PostPage{}, errUserNotFound
	}
	return a.page(ctx, p, userID, limit, cursor)
}

func (a *Posts) page(ctx context.Context, p Principal, author uuid.UUID, limit int, cursor string) (PostPage, error) {
	limit = keysetLimit(limit, postsPageDefault, postsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return PostPage{}, err
	}
	return a.pages.read(ctx, persistence.PostQuery{Author: author, After: after, Limit: limit}, p.UserID)
}

// Get is one post with its first page of comments.
func (a *Posts) Get(ctx context.Context, p Principal, id uuid.UUID) (PostDetail, error) {
	row, err := persistence.PostByID(ctx, a.d.DB, id, p.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return a.repostEntry(ctx, p, id)
	}
	if err != nil {
		return PostDetail{}, err
	}
	// A block hides the post as if it were gone, and so does a closed or
	// secret group to a non-member; a removed post, and the post of a
	// suspended author, is shown to moderators only, marked. Moderators
	// read group posts too (reports reach them), but a block still stands.
	suspended, err := a.authorSuspended(ctx, row.UserID)
	if err != nil {
		return PostDetail{}, err
	}
	if len(row.HiddenFor) > 0 || row.Removed || suspended {
		if err := a.moderatorMayRead(ctx, p, id, row); err != nil {
			return PostDetail{}, err
		}
	}
	cs, err := a.comments(ctx, p, id, 0, "")
	if err != nil {
		return PostDetail{}, err
	}
	d := PostDetail{Post: NewPostView(row), Comments: cs.Comments, NextCursor: cs.NextCursor}
	if row.Removed || suspended {
		d.Moderation = &HiddenMarks{Removed: row.Removed, AuthorSuspended: suspended}
	}
	return d, nil
}

// repostEntry is a repost's entry (what post:new announced) with its
// original's first comments, as Get answers it; errPostNotFound when there
// is none or a block stands between the reader and either person on it.
func (a *Posts) repostEntry(ctx context.Context, p Principal, id uuid.UUID) (PostDetail, error) {
	row, err := persistence.RepostEntryByID(ctx, a.d.DB, id, p.UserID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && len(row.HiddenFor) > 0) {
		return PostDetail{}, errPostNotFound
	}
	if err != nil {
		return PostDetail{}, err
	}
	cs, err := a.comments(ctx, p, row.RepostOf, 0, "")
	if err != nil {
		return PostDetail{}, err
	}
	return PostDetail{Post: NewPostView(row), Comments: cs.Comments, NextCursor: cs.NextCursor}, nil
}

// authorSuspended reports whether author is suspended now, from the gate
// cache when there is one.
func (a *Posts) authorSuspended(ctx context.Context, author uuid.UUID) (bool, error) {
	if a.d.Gates != nil {
		return a.d.Gates.AuthorSuspended(ctx, author)
	}
	s, err := persistence.SuspensionOf(ctx, a.d.DB, author)
	return s != nil, err
}

// moderatorMayRead answers nil when p may read the hidden or removed post
// row as a moderator: it is hidden only by its group (no block) and p is a
// moderator; errPostNotFound otherwise.
func (a *Posts) moderatorMayRead(ctx context.Context, p Principal, id uuid.UUID, row *persistence.PostRow) error {
	if len(row.HiddenFor) > 0 {
		g, err := persistence.PostGateOf(ctx, a.d.DB, id, p.UserID)
		if isNotFound(err) {
			return errPostNotFound
		}
		if err != nil {
			return err
		}
		if g.Blocked || !g.GroupLocked {
			return errPostNotFound
		}
	}
	c, err := capabilitiesOf(ctx, a.d.DB, p.UserID)
	if err != nil {
		return err
	}
	if !c.Moderator {
		return errPostNotFound
	}
	return nil
}

// Update replaces the text of the caller's own post and, when the request
// carries them, its images' descriptions. Only the people the new text
// mentions and no earlier version did are notified.
func (a *Posts) Update(ctx context.Context, p Principal, id uuid.UUID, in domain.PostEditInput) (PostResult, error) {
	var mentions persistence.StoredMentions
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		lp, err := a.ownPost(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if lp.RepostOf != uuid.Nil {
			return errPostNotFound // a repost's comment stays as it was posted
		}
		content, alts, err := in.Validate(lp.Images)
		if err != nil {
			return err
		}
		if err := persistence.SetPostImageAlts(ctx, tx, id, alts); err != nil {
			return err
		}
		if err := persistence.SetPostContent(ctx, tx, id, content); err != nil {
			return err
		}
		mentions, err = persistence.StoreMentions(ctx, tx, persistence.MentionSource{PostID: id, AuthorID: p.UserID,
			Handles: domain.MentionHandles(content), Edit: true})
		return err
	})
	if err != nil {
		return PostResult{}, err
	}
	notifyMentioned(ctx, a.d.Grains, a.d.Log, p.UserID, id, mentions.Notify)
	row, err := persistence.PostByID(ctx, a.d.DB, id, p.UserID)
	if err != nil {
		return PostResult{}, err
	}
	view := NewPostView(row)
	ev := PostEditedEvent{PostID: view.ID, Content: view.Content, Images: view.Images, UpdatedAt: view.UpdatedAt,
		Mentions: view.Mentions}
	// Its watchers see the post now; the author's friends may have it in a
	// feed further down, outside the viewport that watches. A socket in
	// both gets it twice, which the client applies idempotently.
	var group uuid.UUID
	if row.Group != nil {
		group = row.Group.ID
	}
	a.fanOut(ctx, p.UserID, group, func(ctx context.Context, to []uuid.UUID) error {
		if err := a.d.Fanout.PushToWatchers(ctx, id, protocol.EventPostEdited, ev); err != nil {
			return err
		}
		return a.d.Fanout.PushToUsers(ctx, to, protocol.EventPostEdited, ev)
	})
	return PostResult{Post: view}, nil
}

// fanOut sends a live event of author's post (in group, or uuid.Nil) to
// its live audience (persistence.LiveAudience: the author's friends, or the
// group's members) and author's own other sessions, after the commit.
// Failures are logged, never returned: the rows are the truth.
func (a *Posts) fanOut(ctx context.Context, author, group uuid.UUID, send func(ctx context.Context, to []uuid.UUID) error) {
	if a.d.Fanout == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	to, err := persistence.LiveAudience(ctx, a.d.DB, author, group)
	if err == nil {
		err = send(ctx, append(to, author))
	}
	if err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", author.String()).Msg("post event not broadcast")
	}
}

// Delete removes the caller's own post (or, for a group post, one the
// caller administers the group of) with its images, likes, comments and
// notifications, then tells the post's watchers.
func (a *Posts) Delete(ctx context.Context, p Principal, id uuid.UUID) (MessageResult, error) {
	var keys []string
	var repostOf uuid.UUID
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if lp, err := a.ownPost(ctx, tx, p, id); errors.Is(err, errNotYourPost) {
			if admin, aerr := groupPostAdmin(ctx, tx, lp.GroupID, p.UserID); aerr != nil {
				return aerr
			} else if !admin {
				return err
			}
		} else if err != nil {
			return err
		} else if lp.RepostOf != uuid.Nil {
			repostOf = lp.RepostOf // undone below, which moves the original's count
			return nil
		}
		var err error
		keys, err = persistence.DeletePost(ctx, tx, id)
		return err
	})
	if err != nil {
		return MessageResult{}, err
	}
	if repostOf != uuid.Nil {
		if _, err := a.Unrepost(ctx, p, repostOf); err != nil {
			return MessageResult{}, err
		}
		return MessageResult{Message: "Repost removed"}, nil
	}
	// This node's next request sees the post gone without waiting for the
	// NOTIFY DeletePost sent; other nodes hear that.
	if a.d.Gates != nil {
		a.d.Gates.Changed(SafetyChange{Post: id})
	}
	// Files go only once the rows are gone for good: a rolled-back delete
	// must not leave a post pointing at missing images.
	for _, k := range keys {
		if err := a.d.Media.Delete(k); err != nil {
			a.d.Log.Warn().Err(err).Str("key", k).Msg("could not remove an image of a deleted post")
		}
	}
	if err := a.d.Grains.PostDeleted(ctx, id); err != nil {
		a.d.Log.Warn().Err(err).Str("post_id", id.String()).Msg("post deletion not broadcast")
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("post_id", id.String()).Msg("post deleted")
	return MessageResult{Message: "Post deleted"}, nil
}

// ownPost locks the post and checks the caller wrote it.
func (a *Posts) ownPost(ctx context.Context, tx bun.Tx, p Principal, id uuid.UUID) (persistence.LockedPost, error) {
	lp, err := persistence.LockPost(ctx, tx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return lp, errPostNotFound
	}
	if err != nil {
		return lp, err
	}
	if lp.AuthorID != p.UserID {
		return lp, errNotYourPost
	}
	return lp, nil
}

// Comments is a page of a post's comments, oldest first.
func (a *Posts) Comments(ctx context.Context, p Principal, id uuid.UUID, limit int, cursor string) (CommentPage, error) {
	if _, err := a.gate(ctx, p, id); err != nil {
		return CommentPage{}, err
	}
	return a.comments(ctx, p, id, limit, cursor)
}

// gate answers the post's gate for the caller: errPostNotFound if it is
// gone, removed, its author suspended, its group closed to the caller, or
// a block stands between the caller and its author, so that nothing of it
// (likes, comments, the notifications they make) reaches the author from
// someone they blocked or who blocked them.
func (a *Posts) gate(ctx context.Context, p Principal, id uuid.UUID) (persistence.PostGate, error) {
	var g persistence.PostGate
	var err error
	if a.d.Gates != nil {
		g, err = a.d.Gates.Post(ctx, id, p.UserID)
	} else {
		g, err = persistence.PostGateOf(ctx, a.d.DB, id, p.UserID)
	}
	if isNotFound(err) || (err == nil && (g.Removed || g.Blocked || g.GroupLocked || g.AuthorSuspended)) {
		return g, errPostNotFound
	}
	return g, err
}

func (a *Posts) comments(ctx context.Context, p Principal, id uuid.UUID, limit int, cursor string) (CommentPage, error) {
	limit = keysetLimit(limit, postsPageDefault, postsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return CommentPage{}, err
	}
	cs, more, err := persistence.Comments(ctx, a.d.DB, id, p.UserID, after, limit)
	if err != nil {
		return CommentPage{}, err
	}
	out := CommentPage{Comments: make([]CommentView, len(cs))}
	for i, c := range cs {
		out.Comments[i] = NewCommentView(c, c.Author)
	}
	if more {
		last := cs[len(cs)-1]
		next := encodeKeyset(persistence.Keyset{At: last.CreatedAt, ID: last.ID})
		out.NextCursor = &next
	}
	return out, nil
}

// AddComment comments on a post through its grain.
func (a *Posts) AddComment(ctx context.Context, p Principal, postID uuid.UUID, in domain.CommentInput) (CommentResult, error) {
	content, err := in.Validate()
	if err != nil {
		return CommentResult{}, err
	}
	if _, err := a.gate(ctx, p, postID); err != nil {
		return CommentResult{}, err
	}
	if err := a.d.Brakes.check(ctx, p.UserID, brakeComment); err != nil {
		return CommentResult{}, err
	}
	c := &persistence.Comment{ID: persistence.NewID(), PostID: postID, UserID: p.UserID, Content: content}
	n, err := retryOnce(ctx, func() (counted, error) {
		count, version, err := a.d.Grains.AddComment(ctx, c)
		return counted{count, version}, err
	})
	if err != nil {
		return CommentResult{}, err
	}
	author, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return CommentResult{}, err
	}
	view := NewCommentView(c, author)
	// The grain stored them with the comment (and has them notified).
	if view.Mentions, err = commentMentions(ctx, a.d.DB, c); err != nil {
		return CommentResult{}, err
	}
	return CommentResult{Comment: view, CommentsCount: n.Count, CountsVersion: n.Version}, nil
}

// DeleteComment removes a comment the caller wrote or that is on the
// caller's post.
func (a *Posts) DeleteComment(ctx context.Context, p Principal, postID, commentID uuid.UUID) (CommentDeleted, error) {
	n, err := retryOnce(ctx, func() (counted, error) {
		count, version, err := a.d.Grains.RemoveComment(ctx, postID, commentID, p.UserID)
		return counted{count, version}, err
	})
	if err != nil {
		return CommentDeleted{}, err
	}
	return CommentDeleted{Message: "Comment deleted", CommentsCount: n.Count, CountsVersion: n.Version}, nil
}

// Like likes, unlikes or toggles through the post's grain; like and unlike
// are idempotent. The answer has the spec's like result shape (LikeResult,
// shared with profile likes). The answer comes after the commit, with the count
// Postgres returned. requestID names the action across retries, the app's
// own and the client's (its X-Request-Id): a retry joins the original, so a
// toggle sent twice toggles once. Empty, the action gets an id of its own.
func (a *Posts) Like(ctx context.Context, p Principal, postID uuid.UUID, action domain.LikeAction, requestID string) (LikeResult, error) {
	if !action.Valid() {
		return LikeResult{}, fmt.Errorf("app: unknown like action %d", action)
	}
	if _, err := a.gate(ctx, p, postID); err != nil {
		return LikeResult{}, err
	}
	if requestID == "" {
		requestID = uuid.NewString()
	}
	return retryOnce(ctx, func() (LikeResult, error) {
		liked, count, version, err := a.d.Grains.Like(ctx, postID, p.UserID, action, requestID)
		return LikeResult{IsLiked: liked, LikesCount: count, CountsVersion: version}, err
	})
}

// retryOnce calls fn and, if it failed for a reason that is not the user's
// (a grain call that got no answer), calls it once more (docs/architecture.md §4.4). Grain
// calls carry ids that make the repeat harmless. A grain call that still
// failed did nothing the caller must undo, and its retry joins it: it is
// answered 503 with Retry-After, never 500 (docs/architecture.md §4.1).
func retryOnce[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	v, err := fn()
	var de *domain.Error
	if err == nil || errors.As(err, &de) {
		return v, err
	}
	if ctx.Err() == nil {
		if v, err = fn(); err == nil || errors.As(err, &de) {
			return v, err
		}
	}
	return v, fmt.Errorf("app: grain call: %w (%w)", domain.Unavailable("", 1), err)
}
