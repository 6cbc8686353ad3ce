package app

import (
	"cmp"
	"context"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// Tags (issue 27 item 2): a tag's page, newest or top, and what is
// trending on campus. A tag's posts are listed by the home feed's rules
// (persistence.TagPage: no removed posts, no suspended authors, nobody
// with a block either way or whom the reader mutes, and posts of closed
// and secret groups for their members only).

// Trending's shape: the posts of the last two days are candidates, and
// what moved in the last six hours counts, each like and comment (twice a
// like) weighing half as much every two hours of its age. As on Mastodon,
// only recent posts trend.
const (
	trendPostsWindow    = 48 * time.Hour
	trendActivityWindow = 6 * time.Hour
	trendHalfLife       = 2 * time.Hour
	trendCandidates     = 5000
	// trendTTL: the node computes trending at most once a minute, for
	// everyone; each reader's answer filters it (one light query).
	trendTTL = time.Minute
	// What a computation keeps, and what a reader is shown of it.
	trendTagsKept     = 20
	trendContribsKept = 10
	trendPostsKept    = 30
	trendTagsShown    = 10
	trendPostsShown   = 5
)

var errBadSort = domain.InvalidField("sort", "Sort must be new or top.")

// TagsDeps are what the tag use cases need.
type TagsDeps struct {
	DB  *bun.DB
	Log zerolog.Logger
}

// Tags is tag pages and trending.
type Tags struct {
	d     TagsDeps
	trend hotCache[struct{}, *trendSnapshot]
}

// NewTags wires the tag use cases.
func NewTags(d TagsDeps) *Tags {
	return &Tags{d: d, trend: hotCache[struct{}, *trendSnapshot]{ttl: trendTTL}}
}

// TagPath is the client's page of tag (already normalized).
func TagPath(tag string) string { return "/tags/" + url.PathEscape(tag) }

// TagInfo is a tag as its page's header shows it: the posts the reader may
// list, counted up to domain.TagCountCap, and that count as words.
type TagInfo struct {
	Name       string `json:"name"`
	PostsCount int    `json:"postsCount"`
	PostsLabel string `json:"postsLabel"`
	URL        string `json:"url"`
}

// TagResult answers GET /api/tags/{tag}.
type TagResult struct {
	Tag TagInfo `json:"tag"`
}

// tagOf normalizes a tag from a URL; a 400 when it cannot be a tag.
func tagOf(raw string) (string, error) {
	tag := domain.NormalizeTag(raw)
	if tag == "" {
		return "", domain.InvalidField("tag", domain.MsgTagInvalid)
	}
	return tag, nil
}

// Get is a tag as p sees it. A tag nobody used is not an error: its page
// is empty, as Instagram shows it.
func (a *Tags) Get(ctx context.Context, p Principal, raw string) (TagResult, error) {
	tag, err := tagOf(raw)
	if err != nil {
		return TagResult{}, err
	}
	counts, err := persistence.TagCounts(ctx, a.d.DB, []string{tag}, p.UserID, domain.TagCountCap)
	if err != nil {
		return TagResult{}, err
	}
	n := counts[tag]
	return TagResult{Tag: TagInfo{Name: tag, PostsCount: n, PostsLabel: domain.TagPostsLabel(n), URL: TagPath(tag)}}, nil
}

// Posts is a page of the tag's posts as p may list them, newest first
// (sort "new" or "") or top first ("top": likes plus twice the comments,
// then newest).
func (a *Tags) Posts(ctx context.Context, p Principal, raw, sort string, limit int, cursor string) (PostPage, error) {
	tag, err := tagOf(raw)
	if err != nil {
		return PostPage{}, err
	}
	q := persistence.TagPageQuery{Tag: tag, Viewer: p.UserID, Limit: keysetLimit(limit, postsPageDefault, postsPageMax)}
	switch sort {
	case "", "new":
		q.Sort = persistence.TagNew
	case "top":
		q.Sort = persistence.TagTop
	default:
		return PostPage{}, errBadSort
	}
	if q.After, err = decodeKeyset(cursor); err != nil {
		return PostPage{}, err
	}
	if q.Sort == persistence.TagTop && !q.After.IsZero() {
		// A top page's cursor carries the last post's score.
		if q.AfterScore, err = strconv.ParseInt(q.After.Key, 10, 64); err != nil {
			return PostPage{}, errBadCursor
		}
	}
	refs, more, err := persistence.TagPage(ctx, a.d.DB, q)
	if err != nil {
		return PostPage{}, err
	}
	ids := make([]uuid.UUID, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	rows, err := persistence.PostsByIDs(ctx, a.d.DB, ids, p.UserID)
	if err != nil {
		return PostPage{}, err
	}
	page := PostPage{Posts: make([]PostView, len(rows))}
	for i, r := range rows {
		page.Posts[i] = NewPostView(r)
	}
	if more {
		last := refs[len(refs)-1]
		k := persistence.Keyset{At: last.CreatedAt, ID: last.ID}
		if q.Sort == persistence.TagTop {
			k.Key = strconv.FormatInt(last.Score, 10)
		}
		next := encodeKeyset(k)
		page.NextCursor = &next
	}
	return page, nil
}

// TrendingTag is a trending tag: how many people posted it lately (in
// posts anyone may read, or at least those the reader sees).
type TrendingTag struct {
	Tag         string `json:"tag"`
	People      int    `json:"people"`
	PeopleLabel string `json:"peopleLabel"`
	URL         string `json:"url"`
}

// TrendingResult answers GET /api/trending: the tags and the posts that
// moved most in the last hours, as the reader may see them, most first.
type TrendingResult struct {
	Tags  []TrendingTag `json:"tags"`
	Posts []PostView    `json:"posts"`
}

// trendSnapshot is trending as nobody in particular sees it, computed at
// most once a minute per node and shared: read only.
type trendSnapshot struct {
	posts []uuid.UUID // by activity, most first
	tags  []trendTag  // by score, most first
}

// trendTag is a tag's standing: its contributions (each author's best post
// with it, by value, most first; at most trendContribsKept of its authors
// alone), how many authors posted it, and how many of them where anyone may
// read it.
type trendTag struct {
	tag      string
	authors  int
	people   int
	contribs []trendContrib
}

type trendContrib struct {
	post  uuid.UUID
	value float64
}

// decay is how much something of age weighs: 1 now, half every
// trendHalfLife.
func decay(age time.Duration) float64 {
	return math.Pow(0.5, max(age, 0).Hours()/trendHalfLife.Hours())
}

// computeTrend makes the snapshot. A post trends by its activity; a tag by
// the people posting it: each author counts once, with their best post
// with the tag (its freshness, as a like just now, plus its activity), so
// one person posting a tag twenty times does not make it trend.
func (a *Tags) computeTrend(ctx context.Context) (*trendSnapshot, error) {
	cands, err := persistence.TrendPosts(ctx, a.d.DB, persistence.TrendWindow{
		Posts: trendPostsWindow, Max: trendCandidates, Activity: trendActivityWindow, HalfLife: trendHalfLife,
	})
	if err != nil {
		return nil, err
	}
	now := time.Now()
	snap := &trendSnapshot{}
	moving := slices.DeleteFunc(slices.Clone(cands), func(p persistence.TrendPost) bool { return p.Activity <= 0 })
	slices.SortFunc(moving, func(x, y persistence.TrendPost) int {
		return cmp.Or(cmp.Compare(y.Activity, x.Activity), y.CreatedAt.Compare(x.CreatedAt), strings.Compare(x.ID.String(), y.ID.String()))
	})
	for _, p := range moving[:min(len(moving), trendPostsKept)] {
		snap.posts = append(snap.posts, p.ID)
	}

	type authorBest struct {
		best   trendContrib
		public bool // the author posted the tag where anyone may read it
	}
	byTag := map[string]map[uuid.UUID]*authorBest{}
	for _, p := range cands {
		value := decay(now.Sub(p.CreatedAt)) + p.Activity
		for _, t := range p.Tags {
			authors := byTag[t]
			if authors == nil {
				authors = map[uuid.UUID]*authorBest{}
				byTag[t] = authors
			}
			ab := authors[p.AuthorID]
			if ab == nil {
				ab = &authorBest{}
				authors[p.AuthorID] = ab
			}
			if value > ab.best.value {
				ab.best = trendContrib{post: p.ID, value: value}
			}
			ab.public = ab.public || p.Public
		}
	}
	type scored struct {
		trendTag
		score float64
	}
	tags := make([]scored, 0, len(byTag))
	for t, authors := range byTag {
		s := scored{trendTag: trendTag{tag: t, authors: len(authors)}}
		for _, ab := range authors {
			s.score += ab.best.value
			s.contribs = append(s.contribs, ab.best)
			if ab.public {
				s.people++
			}
		}
		slices.SortFunc(s.contribs, func(x, y trendContrib) int {
			return cmp.Or(cmp.Compare(y.value, x.value), strings.Compare(x.post.String(), y.post.String()))
		})
		s.contribs = s.contribs[:min(len(s.contribs), trendContribsKept)]
		tags = append(tags, s)
	}
	slices.SortFunc(tags, func(x, y scored) int { return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(x.tag, y.tag)) })
	for _, t := range tags[:min(len(tags), trendTagsKept)] {
		snap.tags = append(snap.tags, t.trendTag)
	}
	return snap, nil
}

// Trending is what moved most on campus in the last hours, as p may see it:
// the node's snapshot (at most a minute old) with every post p may not list
// left out, and each tag ranked by the posts of it p may see (a tag is
// shown only when p may see one of them: a secret group's tag never
// reaches an outsider).
func (a *Tags) Trending(ctx context.Context, p Principal) (TrendingResult, error) {
	out := TrendingResult{Tags: []TrendingTag{}, Posts: []PostView{}}
	snap, err := a.trend.get(ctx, struct{}{}, a.computeTrend)
	if err != nil {
		return out, err
	}
	ids := slices.Clone(snap.posts)
	for _, t := range snap.tags {
		for _, c := range t.contribs {
			ids = append(ids, c.post)
		}
	}
	visible, err := persistence.ListablePostIDs(ctx, a.d.DB, ids, p.UserID)
	if err != nil {
		return out, err
	}
	type shown struct {
		TrendingTag
		score float64
	}
	var tags []shown
	for _, t := range snap.tags {
		s := shown{TrendingTag: TrendingTag{Tag: t.tag, URL: TagPath(t.tag)}}
		seen := 0
		for _, c := range t.contribs {
			if visible[c.post] {
				s.score += c.value
				seen++
			}
		}
		if seen == 0 {
			continue
		}
		// Every author kept: the people the reader sees, exactly. Else the
		// people anyone may see posting it (a blocked one among many
		// changes little).
		s.People = seen
		if t.authors > len(t.contribs) {
			s.People = max(t.people, seen)
		}
		s.PeopleLabel = domain.TrendPeopleLabel(s.People)
		tags = append(tags, s)
	}
	slices.SortStableFunc(tags, func(x, y shown) int { return cmp.Compare(y.score, x.score) })
	for _, t := range tags[:min(len(tags), trendTagsShown)] {
		out.Tags = append(out.Tags, t.TrendingTag)
	}
	var postIDs []uuid.UUID
	for _, id := range snap.posts {
		if visible[id] && len(postIDs) < trendPostsShown {
			postIDs = append(postIDs, id)
		}
	}
	rows, err := persistence.PostsByIDs(ctx, a.d.DB, postIDs, p.UserID)
	if err != nil {
		return out, err
	}
	for _, r := range rows {
		out.Posts = append(out.Posts, NewPostView(r))
	}
	return out, nil
}
