package app

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/searchindex"
)

// SearchDeps are what search needs.
type SearchDeps struct {
	DB    *bun.DB
	Index *searchindex.Index
}

// Search answers the search overlay (GET /api/search) and the user search of
// docs/product.md §7.2 from the node's index. The index finds and orders; what a
// result shows is loaded from Postgres, one query per kind, so names and
// avatars are always current and anything deleted since it was indexed is
// left out.
type Search struct {
	d SearchDeps
}

// NewSearch wires search.
func NewSearch(d SearchDeps) *Search { return &Search{d: d} }

// SearchResult is docs/product.md §3's search result.
type SearchResult struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Title    string `json:"title"`
	Subtitle string `json:"subtitle"`
	Avatar   string `json:"avatar"`
	URL      string `json:"url"`
}

// SearchResults is the answer of GET /api/search: data.results.
type SearchResults struct {
	Results []SearchResult `json:"results"`
}

// UserSearchResults is the answer of GET /api/users/search: data.users.
type UserSearchResults struct {
	Users []UserSummary `json:"users"`
}

// Search finds users, groups, tags, posts and comments for q, at most limit
// (default 20, max 50): exact title or subtitle matches first, then users,
// groups, tags, posts and comments, each by relevance. A blank query
// answers nothing without searching. Without a reader, only what anyone may
// see: no secret groups, no posts of closed or secret groups.
func (s *Search) Search(ctx context.Context, q string, limit int) (SearchResults, error) {
	return s.search(ctx, q, limit, uuid.Nil, nil)
}

// SearchFor is Search as p sees it: nothing by or of people with a block
// between them and p, the groups p may see (a secret group only to its
// members and the people invited to it, as the directory shows it), and
// tags counted in the posts p may list.
func (s *Search) SearchFor(ctx context.Context, p Principal, q string, limit int) (SearchResults, error) {
	if strings.TrimSpace(q) == "" {
		return SearchResults{Results: []SearchResult{}}, nil
	}
	hide, err := persistence.BlockedWith(ctx, s.d.DB, p.UserID)
	if err != nil {
		return SearchResults{}, err
	}
	return s.search(ctx, q, limit, p.UserID, hide)
}

// UsersFor is Users as p sees it: no one with a block between them and p.
func (s *Search) UsersFor(ctx context.Context, p Principal, q string, limit int) (UserSearchResults, error) {
	res, err := s.Users(ctx, q, limit)
	if err != nil || len(res.Users) == 0 {
		return res, err
	}
	hide, err := persistence.BlockedWith(ctx, s.d.DB, p.UserID)
	if err != nil {
		return UserSearchResults{}, err
	}
	res.Users = slices.DeleteFunc(res.Users, func(u UserSummary) bool {
		id, _ := uuid.Parse(u.ID)
		return hide[id]
	})
	return res, nil
}

// search is Search leaving out users in hide and what they wrote, and
// posts and comments of groups reader may not read (uuid.Nil: anyone's
// public view). The
// index is asked for as many more hits as could be left out.
func (s *Search) search(ctx context.Context, q string, limit int, reader uuid.UUID, hide map[uuid.UUID]bool) (SearchResults, error) {
	out := SearchResults{Results: []SearchResult{}}
	if strings.TrimSpace(q) == "" {
		return out, nil
	}
	limit = domain.SearchLimit(limit)
	hits, err := s.d.Index.Search(ctx, q, limit+min(len(hide), 3*limit))
	if err != nil {
		return out, indexError(err)
	}
	tagHits, err := s.d.Index.Tags(ctx, q, maxTagResults)
	if err != nil {
		return out, indexError(err)
	}
	hits = append(hits, tagHits...)
	ids := map[domain.SearchKind][]uuid.UUID{}
	for _, h := range hits {
		ids[h.Kind] = append(ids[h.Kind], h.ID)
	}
	// What each hit shows, by its id (a tag's by tagKey).
	shown := map[string]SearchResult{}
	handles := map[uuid.UUID]string{}
	users, err := persistence.ShownUsersByIDs(ctx, s.d.DB, ids[domain.SearchUser])
	if err != nil {
		return out, err
	}
	for i := range users {
		if !hide[users[i].ID] {
			shown[users[i].ID.String()] = userResult(&users[i])
			handles[users[i].ID] = users[i].Handle
		}
	}
	posts, err := persistence.SearchPostsByIDs(ctx, s.d.DB, ids[domain.SearchPost], reader)
	if err != nil {
		return out, err
	}
	for _, p := range posts {
		if hide[p.AuthorID] {
			continue
		}
		shown[p.ID.String()] = SearchResult{
			Type: string(domain.SearchPost), ID: p.ID.String(),
			Title: domain.SearchSnippet(p.Content), Subtitle: searchName(p.AuthorName),
			Avatar: p.AuthorAvatar, URL: "/post/" + p.ID.String(),
		}
	}
	if err := s.groupResults(ctx, ids[domain.SearchGroup], reader, shown); err != nil {
		return out, err
	}
	if err := s.tagResults(ctx, tagHits, reader, shown); err != nil {
		return out, err
	}
	comments, err := persistence.SearchCommentsByIDs(ctx, s.d.DB, ids[domain.SearchComment], reader)
	if err != nil {
		return out, err
	}
	for _, c := range comments {
		if hide[c.AuthorID] || hide[c.PostAuthorID] {
			continue
		}
		shown[c.ID.String()] = SearchResult{
			Type: string(domain.SearchComment), ID: c.ID.String(),
			Title: domain.SearchSnippet(c.Content), Subtitle: domain.CommentSearchSubtitle(searchName(c.PostAuthorName)),
			Avatar: c.AuthorAvatar, URL: "/post/" + c.PostID.String(),
		}
	}

	// Exactness is decided on what is shown (fresh rows: a renamed author
	// counts under the new name), then docs/product.md §9's order; the index's order
	// is the relevance order within each group.
	type ranked struct {
		r    SearchResult
		rank domain.SearchRanking
	}
	list := make([]ranked, 0, len(hits))
	for _, h := range hits {
		key := h.ID.String()
		if h.Kind == domain.SearchTag {
			key = tagKey(h.Tag)
		}
		r, ok := shown[key]
		if !ok {
			continue // deleted since it was indexed, or not for this reader
		}
		exact := domain.IsExactMatch(q, r.Title, r.Subtitle)
		switch h.Kind {
		case domain.SearchUser:
			// A person's handle typed in full (with or without its @) is an
			// exact match too.
			exact = exact || (handles[h.ID] != "" && domain.NormalizeUserHandle(q) == handles[h.ID])
		case domain.SearchGroup:
			exact = domain.IsExactGroupMatch(q, r.Title, strings.TrimPrefix(r.URL, "/g/"))
		case domain.SearchTag:
			exact = domain.IsExactTagMatch(q, h.Tag)
		}
		list = append(list, ranked{r, domain.SearchRanking{Kind: h.Kind, Exact: exact, Score: h.Score}})
	}
	slices.SortStableFunc(list, func(a, b ranked) int { return domain.CompareSearch(a.rank, b.rank) })
	for _, r := range list[:min(len(list), limit)] {
		out.Results = append(out.Results, r.r)
	}
	return out, nil
}

// maxTagResults is how many tags a search shows at most.
const maxTagResults = 3

// tagKey keys a tag's result among the results' ids (which are uuids).
func tagKey(tag string) string { return "#" + tag }

// groupResults adds to shown the groups among ids that reader may see (the
// directory's rule: a secret group only to its members and invitees).
func (s *Search) groupResults(ctx context.Context, ids []uuid.UUID, reader uuid.UUID, shown map[string]SearchResult) error {
	if len(ids) == 0 {
		return nil
	}
	groups, _, err := persistence.Groups(ctx, s.d.DB, persistence.GroupListQuery{Viewer: reader, IDs: ids})
	if err != nil {
		return err
	}
	for _, g := range groups {
		shown[g.ID.String()] = SearchResult{
			Type: string(domain.SearchGroup), ID: g.ID.String(), Title: g.Name,
			Subtitle: domain.GroupSearchSubtitle(g.Kind, g.Visibility, g.MembersCount),
			Avatar:   g.AvatarURL, URL: "/g/" + g.Handle,
		}
	}
	return nil
}

// tagResults adds to shown the tags of hits that have posts reader may
// list, with how many (counted up to domain.TagCountCap): a tag whose posts
// are all hidden from the reader (a secret group's, say) is not shown.
func (s *Search) tagResults(ctx context.Context, hits []searchindex.Hit, reader uuid.UUID, shown map[string]SearchResult) error {
	if len(hits) == 0 {
		return nil
	}
	tags := make([]string, len(hits))
	for i, h := range hits {
		tags[i] = h.Tag
	}
	counts, err := persistence.TagCounts(ctx, s.d.DB, tags, reader, domain.TagCountCap)
	if err != nil {
		return err
	}
	for _, t := range tags {
		if n := counts[t]; n > 0 {
			shown[tagKey(t)] = SearchResult{
				Type: string(domain.SearchTag), ID: t, Title: "#" + t, Subtitle: domain.TagPostsLabel(n),
				URL: TagPath(t),
			}
		}
	}
	return nil
}

// Users finds users only (docs/product.md §7.2 GET /users/search): the same index and
// order, in the user summary shape.
func (s *Search) Users(ctx context.Context, q string, limit int) (UserSearchResults, error) {
	out := UserSearchResults{Users: []UserSummary{}}
	if strings.TrimSpace(q) == "" {
		return out, nil
	}
	hits, err := s.d.Index.SearchUsers(ctx, q, domain.SearchLimit(limit))
	if err != nil {
		return out, indexError(err)
	}
	ids := make([]uuid.UUID, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	users, err := persistence.ShownUsersByIDs(ctx, s.d.DB, ids)
	if err != nil {
		return out, err
	}
	byID := make(map[uuid.UUID]*persistence.User, len(users))
	for i := range users {
		byID[users[i].ID] = &users[i]
	}
	for _, h := range hits { // the index's order: exact first, then relevance
		if u, ok := byID[h.ID]; ok {
			out.Users = append(out.Users, NewUserSummary(u))
		}
	}
	return out, nil
}

// MsgSearchRebuilding answers a search while the node rebuilds its index
// (its files were lost while it ran).
const MsgSearchRebuilding = "Search is rebuilding. Please try again in a moment."

// searchRetryAfter is the Retry-After of a search during a rebuild: a
// small index takes seconds to rebuild.
const searchRetryAfter = 2

// indexError is what a failed index search answers: a 503 while the index
// is being rebuilt, the error itself otherwise.
func indexError(err error) error {
	if errors.Is(err, searchindex.ErrRebuilding) {
		return domain.Unavailable(MsgSearchRebuilding, searchRetryAfter)
	}
	return err
}

func userResult(u *persistence.User) SearchResult {
	return SearchResult{
		Type: string(domain.SearchUser), ID: u.ID.String(),
		Title:    searchName(u.Name),
		Subtitle: domain.UserSearchSubtitle(domain.Role(u.Role), u.UniversityID, u.Department),
		// A result shows the avatar at 32 px: its thumbnail when it has one.
		Avatar: newImage(u.AvatarURL, u.AvatarKey, u.AvatarVariants).ThumbURL, URL: "/profile/" + u.ID.String(),
	}
}

// searchName is a user's name as shown: "User" when missing (docs/product.md §3).
func searchName(name string) string {
	if name == "" {
		return "User"
	}
	return name
}
