package app

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
)

// Bookmarks and reposts. A bookmark is private: only its owner ever reads
// it (the Saved list, the saved flag of their post JSON). A repost is a row
// of its own in the reposter's name (persistence.PostRow), shown in the
// feed and on the reposter's profile wrapping the original; the original
// keeps the likes, comments and counts.

// BookmarkResult answers saving and unsaving a post.
type BookmarkResult struct {
	Saved bool `json:"saved"`
}

// RepostResult answers reposting and undoing a repost: the reader's state,
// the original's repost count with its counts version, and the repost
// entry (null after undoing).
type RepostResult struct {
	Reposted      bool      `json:"reposted"`
	RepostsCount  int       `json:"repostsCount"`
	CountsVersion int64     `json:"countsVersion"`
	Repost        *PostView `json:"repost"`
}

// Save adds a post the caller can see to their saved posts; saving it
// again changes nothing.
func (a *Posts) Save(ctx context.Context, p Principal, postID uuid.UUID) (BookmarkResult, error) {
	if _, err := a.gate(ctx, p, postID); err != nil {
		return BookmarkResult{}, err
	}
	if err := persistence.SaveBookmark(ctx, a.d.DB, p.UserID, postID); err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return BookmarkResult{}, errPostNotFound // deleted in between
		}
		return BookmarkResult{}, err
	}
	return BookmarkResult{Saved: true}, nil
}

// Unsave takes a post out of the caller's saved posts, whether or not it
// is there, and whether or not they can still see it (a post that became
// invisible still leaves the list when asked).
func (a *Posts) Unsave(ctx context.Context, p Principal, postID uuid.UUID) (BookmarkResult, error) {
	if err := persistence.DeleteBookmark(ctx, a.d.DB, p.UserID, postID); err != nil {
		return BookmarkResult{}, err
	}
	return BookmarkResult{Saved: false}, nil
}

// Saved is the caller's saved posts, newest saved first, filtered as the
// feed is: a post that became invisible to them (removed, its author
// suspended or with a block between them, a closed or secret group they
// are no longer in) is not listed. The reader's mutes do not hide what they
// saved.
func (a *Posts) Saved(ctx context.Context, p Principal, limit int, cursor string) (PostPage, error) {
	limit = keysetLimit(limit, postsPageDefault, postsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return PostPage{}, err
	}
	rows, more, err := persistence.Posts(ctx, a.d.DB, persistence.PostQuery{Viewers: []uuid.UUID{p.UserID},
		Saved: p.UserID, HiddenFrom: p.UserID, After: after, Limit: limit})
	if err != nil {
		return PostPage{}, err
	}
	return rowsPage(rows, more), nil
}

// Repost shares a post the caller can see to their own feed, with an
// optional comment: only a public post (one outside groups), never their
// own, at most once (a repeat answers the repost there is, its comment
// unchanged). The original's author is notified (rolled up per post), the
// new count goes to the original's watchers with the next count tick, and
// the caller's friends hear of the repost as of a new post.
func (a *Posts) Repost(ctx context.Context, p Principal, postID uuid.UUID, in domain.RepostInput) (RepostResult, error) {
	comment, err := in.Validate()
	if err != nil {
		return RepostResult{}, err
	}
	g, err := a.gate(ctx, p, postID)
	if err != nil {
		return RepostResult{}, err
	}
	meta, err := persistence.PostMetaOf(ctx, a.d.DB, postID)
	if isNotFound(err) {
		return RepostResult{}, errPostNotFound
	}
	if err != nil {
		return RepostResult{}, err
	}
	if err := domain.CanRepost(g.AuthorID == p.UserID, meta.GroupID != uuid.Nil); err != nil {
		return RepostResult{}, err
	}
	if err := a.d.Brakes.check(ctx, p.UserID, brakePost); err != nil {
		return RepostResult{}, err
	}
	row := &persistence.Post{ID: persistence.NewID(), UserID: p.UserID, Content: comment, RepostOf: postID}
	c, err := persistence.InsertRepost(ctx, a.d.DB, row)
	if errors.Is(err, domain.ErrNotFound) {
		return RepostResult{}, errPostNotFound
	}
	if err != nil {
		return RepostResult{}, err
	}
	if c.Changed {
		a.repostChanged(ctx, postID, c)
		a.notifyRepost(ctx, c.AuthorID, p.UserID, postID)
		a.d.Log.Info().Str("user_id", p.UserID.String()).Str("post_id", postID.String()).
			Str("repost_id", c.RepostID.String()).Msg("post reposted")
		a.fanOut(ctx, p.UserID, uuid.Nil, func(ctx context.Context, to []uuid.UUID) error {
			return a.d.Fanout.PushToUsers(ctx, to, protocol.EventPostNew,
				PostNewEvent{PostID: c.RepostID.String(), AuthorID: p.UserID.String()})
		})
	}
	res := RepostResult{Reposted: true, RepostsCount: c.Reposts, CountsVersion: c.Version}
	entry, err := persistence.RepostByUser(ctx, a.d.DB, postID, p.UserID, p.UserID)
	if err != nil && !isNotFound(err) { // not found: undone or the original deleted since
		return RepostResult{}, err
	}
	if err == nil {
		v := NewPostView(entry)
		res.Repost = &v
	}
	return res, nil
}

// Unrepost undoes the caller's repost of a post, if there is one: it
// leaves every feed (its entry's post:deleted goes to the caller's friends
// and the caller) and the original's count moves down live.
func (a *Posts) Unrepost(ctx context.Context, p Principal, postID uuid.UUID) (RepostResult, error) {
	c, err := persistence.DeleteRepost(ctx, a.d.DB, postID, p.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return RepostResult{}, errPostNotFound
	}
	if err != nil {
		return RepostResult{}, err
	}
	if c.Changed {
		a.repostGone(ctx, p.UserID, postID, c)
	}
	return RepostResult{Reposted: false, RepostsCount: c.Reposts, CountsVersion: c.Version}, nil
}

// repostGone publishes the original's counts after a repost of it was
// deleted and takes the repost's entry out of the feeds showing it.
func (a *Posts) repostGone(ctx context.Context, reposter, postID uuid.UUID, c persistence.RepostCounts) {
	a.repostChanged(ctx, postID, c)
	a.d.Log.Info().Str("user_id", reposter.String()).Str("post_id", postID.String()).
		Str("repost_id", c.RepostID.String()).Msg("repost undone")
	a.fanOut(ctx, reposter, uuid.Nil, func(ctx context.Context, to []uuid.UUID) error {
		return a.d.Fanout.PushToUsers(ctx, to, protocol.EventPostDeleted, protocol.PostDeleted{PostID: c.RepostID.String()})
	})
}

// repostChanged sends the original's new counts to its watchers through
// the count batcher, like a like's.
func (a *Posts) repostChanged(_ context.Context, postID uuid.UUID, c persistence.RepostCounts) {
	if a.d.Grains != nil {
		a.d.Grains.PublishCounts(postID, c.Likes, c.Comments, c.Reposts, c.Version)
	}
}

// notifyRepost tells the original's author, after the commit: a lost
// notification loses no repost, so a failure is logged, not answered. The
// user grain skips it when a block now stands between the two.
func (a *Posts) notifyRepost(ctx context.Context, author, reposter, postID uuid.UUID) {
	if a.d.Grains == nil {
		return
	}
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	if err := a.d.Grains.NotifyPost(nctx, author, persistence.NotifyRepost, reposter, postID); err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", author.String()).Str("post_id", postID.String()).
			Msg("repost notification failed")
	}
}
