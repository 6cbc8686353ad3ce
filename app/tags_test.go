package app

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// tagged stores a post as the posts API does (its tags with it), in group
// (uuid.Nil: outside groups), and labels it for the assertions.
func (f *searchFixture) tagged(labels map[string]string, label string, author, group uuid.UUID, content string) uuid.UUID {
	f.t.Helper()
	p := &persistence.Post{ID: persistence.NewID(), UserID: author, Content: content, GroupID: group}
	f.tx(func(ctx context.Context, tx bun.Tx) error { return persistence.InsertPost(ctx, tx, p, nil) })
	labels[p.ID.String()] = label
	return p.ID
}

// like has each of users like post, with the post's counter (as the grain
// writes them).
func (f *searchFixture) like(post uuid.UUID, users ...uuid.UUID) {
	f.t.Helper()
	for _, u := range users {
		f.exec("INSERT INTO post_likes (post_id, user_id) VALUES (?, ?)", post, u)
		f.exec("UPDATE posts SET likes_count = likes_count + 1, counts_version = counts_version + 1 WHERE id = ?", post)
	}
}

// commentOn adds a comment by user to post, with the post's counter.
func (f *searchFixture) commentOn(post, user uuid.UUID) {
	f.t.Helper()
	f.exec("INSERT INTO comments (id, post_id, user_id, content) VALUES (?, ?, ?, 'nice')", persistence.NewID(), post, user)
	f.exec("UPDATE posts SET comments_count = comments_count + 1, counts_version = counts_version + 1 WHERE id = ?", post)
}

// group makes a group owned by owner with members.
func (f *searchFixture) group(owner uuid.UUID, name, handle, visibility string, members ...uuid.UUID) uuid.UUID {
	f.t.Helper()
	g := &persistence.Group{ID: persistence.NewID(), Handle: handle, Name: name, Kind: "club", Visibility: visibility}
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.InsertGroup(ctx, tx, g, owner); err != nil {
			return err
		}
		for _, m := range members {
			if err := persistence.SetMembership(ctx, tx, g.ID, m, domain.StatusMember, domain.RoleMember, uuid.Nil); err != nil {
				return err
			}
		}
		return nil
	})
	return g.ID
}

// safetyCast is a reader and the people around them: blocked by the
// reader, blocking the reader, muted by the reader, suspended; and a
// secret group the reader is not in, a closed one they are in.
type safetyCast struct {
	reader, author, blocked, blocker, muted, suspended, owner uuid.UUID
	secret, closed                                            uuid.UUID
}

func newSafetyCast(f *searchFixture) safetyCast {
	f.t.Helper()
	c := safetyCast{
		reader:    f.user("Reader Roy", "student", "BWU/BCA/20/1", "", ""),
		author:    f.user("Author Ann", "student", "BWU/BCA/20/2", "", ""),
		blocked:   f.user("Blocked Bo", "student", "BWU/BCA/20/3", "", ""),
		blocker:   f.user("Blocker Cy", "student", "BWU/BCA/20/4", "", ""),
		muted:     f.user("Muted Mo", "student", "BWU/BCA/20/5", "", ""),
		suspended: f.user("Suspended Sy", "student", "BWU/BCA/20/6", "", ""),
		owner:     f.user("Owner Oz", "student", "BWU/BCA/20/7", "", ""),
	}
	ctx := context.Background()
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		if _, err := persistence.BlockUser(ctx, tx, c.reader, c.blocked); err != nil {
			return err
		}
		_, err := persistence.BlockUser(ctx, tx, c.blocker, c.reader)
		return err
	})
	if _, err := persistence.MuteUser(ctx, f.db, c.reader, c.muted); err != nil {
		f.t.Fatal(err)
	}
	if err := persistence.SuspendUser(ctx, f.db, c.suspended, nil, "spam", uuid.Nil); err != nil {
		f.t.Fatal(err)
	}
	c.secret = f.group(c.owner, "Secret Circle", "secret-circle", "secret")
	c.closed = f.group(c.owner, "Closed Club", "closed-club", "closed", c.reader)
	return c
}

func labelsOf(labels map[string]string, posts []PostView) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = labels[p.ID]
	}
	return out
}

func TestTagPages(t *testing.T) {
	f := newSearchFixture(t)
	c := newSafetyCast(f)
	l := map[string]string{}
	first := f.tagged(l, "first", c.author, uuid.Nil, "#chess opening")
	f.tagged(l, "blocked", c.blocked, uuid.Nil, "#chess from someone the reader blocked")
	f.tagged(l, "blocker", c.blocker, uuid.Nil, "#chess from someone who blocked the reader")
	f.tagged(l, "muted", c.muted, uuid.Nil, "#chess from someone the reader muted")
	f.tagged(l, "suspended", c.suspended, uuid.Nil, "#chess from a suspended account")
	f.tagged(l, "secret", c.owner, c.secret, "#chess in a secret group")
	removed := f.tagged(l, "removed", c.author, uuid.Nil, "#chess, removed by a moderator")
	f.tagged(l, "second", c.author, uuid.Nil, "#Chess endgame")
	edited := f.tagged(l, "edited", c.author, uuid.Nil, "#chess, then edited")
	closed := f.tagged(l, "closed", c.owner, c.closed, "#CHESS in a closed group the reader is in")
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		if _, err := persistence.RemovePost(ctx, tx, removed); err != nil {
			return err
		}
		return persistence.SetPostContent(ctx, tx, edited, "now about #go")
	})
	f.like(first, c.owner, c.author, c.reader) // top: 3
	f.commentOn(closed, c.author)              // top: 2 (a comment weighs two likes)
	a := NewTags(TagsDeps{DB: f.db})
	ctx := context.Background()
	reader := Principal{UserID: c.reader}

	page := func(p Principal, tag, sort string, limit int, cursor string) ([]string, *string) {
		t.Helper()
		got, err := a.Posts(ctx, p, tag, sort, limit, cursor)
		if err != nil {
			t.Fatalf("Posts(%q, %q): %v", tag, sort, err)
		}
		return labelsOf(l, got.Posts), got.NextCursor
	}
	tests := []struct {
		name, tag, sort string
		want            []string
	}{
		{"newest first, as the feed filters", "chess", "new", []string{"closed", "second", "first"}},
		{"the default sort is new", "#Chess", "", []string{"closed", "second", "first"}},
		{"top: likes and twice the comments", "CHESS", "top", []string{"first", "closed", "second"}},
		{"an edit moves the post", "go", "new", []string{"edited"}},
		{"a tag nobody used is an empty page", "nobodyusedthis", "new", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, next := page(reader, tt.tag, tt.sort, 0, ""); !slices.Equal(got, tt.want) || next != nil {
				t.Errorf("got %q (next %v), want %q", got, next, tt.want)
			}
		})
	}

	for _, sort := range []string{"new", "top"} {
		t.Run("pages of "+sort, func(t *testing.T) {
			all, _ := page(reader, "chess", sort, 0, "")
			p1, next := page(reader, "chess", sort, 2, "")
			if !slices.Equal(p1, all[:2]) || next == nil {
				t.Fatalf("page 1: %q (next %v), want %q", p1, next, all[:2])
			}
			p2, last := page(reader, "chess", sort, 2, *next)
			if !slices.Equal(p2, all[2:]) || last != nil {
				t.Fatalf("page 2: %q (next %v), want %q", p2, last, all[2:])
			}
		})
	}

	// The reader's own view of the posts: their like.
	got, err := a.Posts(ctx, reader, "chess", "top", 1, "")
	if err != nil || len(got.Posts) != 1 || !got.Posts[0].IsLiked || got.Posts[0].LikesCount != 3 {
		t.Errorf("the reader's like on the page: %+v, %v", got.Posts, err)
	}

	// Someone else sees what the reader's blocks and mutes hid, never the
	// suspended, removed or group posts.
	other := Principal{UserID: f.user("Other Olu", "student", "BWU/BCA/20/9", "", "")}
	if got, _ := page(other, "chess", "new", 0, ""); !slices.Equal(got, []string{"second", "muted", "blocker", "blocked", "first"}) {
		t.Errorf("another reader: %q", got)
	}

	info, err := a.Get(ctx, reader, "#Chess")
	if err != nil || info.Tag != (TagInfo{Name: "chess", PostsCount: 3, PostsLabel: "3 posts", URL: "/tags/chess"}) {
		t.Errorf("Get: %+v, %v", info, err)
	}

	for _, bad := range []struct {
		name, tag, sort, cursor string
	}{
		{"no tag", "c#", "new", ""},
		{"too long", "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijk", "new", ""},
		{"unknown sort", "chess", "hot", ""},
		{"bad cursor", "chess", "new", "!!"},
		{"a newest page's cursor on top", "chess", "top", func() string { _, n := page(reader, "chess", "new", 1, ""); return *n }()},
	} {
		t.Run(bad.name, func(t *testing.T) {
			_, err := a.Posts(ctx, reader, bad.tag, bad.sort, 0, bad.cursor)
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindInvalid {
				t.Errorf("got %v, want a 400", err)
			}
		})
	}
}

func TestTrending(t *testing.T) {
	f := newSearchFixture(t)
	c := newSafetyCast(f)
	l := map[string]string{}
	other := f.user("Other Olu", "student", "BWU/BCA/20/9", "", "")
	fans := []uuid.UUID{c.owner, other, f.user("Fan One", "student", "BWU/BCA/20/10", "", ""),
		f.user("Fan Two", "student", "BWU/BCA/20/11", "", ""), f.user("Fan Three", "student", "BWU/BCA/20/12", "", "")}
	hot := f.tagged(l, "hot", c.author, uuid.Nil, "Results are out #exams")
	warm := f.tagged(l, "warm", other, uuid.Nil, "Revision group #exams #library")
	f.tagged(l, "quiet", other, uuid.Nil, "Nobody reads this #quietcorner")
	blocked := f.tagged(l, "blocked", c.blocked, uuid.Nil, "Hot take #blockedtopic")
	secret := f.tagged(l, "secret", c.owner, c.secret, "Plans #secretplan")
	removed := f.tagged(l, "removed", c.author, uuid.Nil, "Gone soon #removedtopic")
	suspended := f.tagged(l, "suspended", c.suspended, uuid.Nil, "Spam #spamtopic")
	f.like(hot, fans[:3]...)
	f.commentOn(hot, other)
	f.like(warm, fans[0])
	for _, p := range []uuid.UUID{blocked, secret, removed, suspended} {
		f.like(p, fans...) // hotter than anything the reader may see
	}
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		_, err := persistence.RemovePost(ctx, tx, removed)
		return err
	})
	a := NewTags(TagsDeps{DB: f.db})
	ctx := context.Background()

	trending := func(user uuid.UUID) ([]string, []string) {
		t.Helper()
		got, err := a.Trending(ctx, Principal{UserID: user})
		if err != nil {
			t.Fatal(err)
		}
		var tags []string
		for _, tg := range got.Tags {
			tags = append(tags, tg.Tag)
		}
		return tags, labelsOf(l, got.Posts)
	}

	tags, posts := trending(c.reader)
	if !slices.Equal(posts, []string{"hot", "warm"}) {
		t.Errorf("the reader's trending posts: %q, want hot then warm", posts)
	}
	if len(tags) < 3 || tags[0] != "exams" || !slices.Contains(tags, "library") || !slices.Contains(tags, "quietcorner") {
		t.Errorf("the reader's trending tags: %q, want exams first, library and quietcorner", tags)
	}
	for _, hidden := range []string{"blockedtopic", "secretplan", "removedtopic", "spamtopic"} {
		if slices.Contains(tags, hidden) {
			t.Errorf("the reader sees #%s: %q", hidden, tags)
		}
	}
	got, err := a.Trending(ctx, Principal{UserID: c.reader})
	if err != nil || got.Tags[0] != (TrendingTag{Tag: "exams", People: 2, PeopleLabel: "2 people posting", URL: "/tags/exams"}) {
		t.Errorf("#exams: %+v, %v", got.Tags, err)
	}
	if len(got.Posts) == 0 || got.Posts[0].LikesCount != 3 || got.Posts[0].CommentsCount != 1 {
		t.Errorf("the hot post's counts: %+v", got.Posts)
	}

	// The secret group's owner sees its post and tag; nobody sees the
	// removed post's or the suspended account's.
	tags, posts = trending(c.owner)
	if !slices.Contains(posts, "secret") || !slices.Contains(tags, "secretplan") || !slices.Contains(posts, "blocked") {
		t.Errorf("the owner's trending: %q, %q", tags, posts)
	}
	if slices.Contains(posts, "removed") || slices.Contains(posts, "suspended") || slices.Contains(tags, "removedtopic") {
		t.Errorf("removed or suspended trending for the owner: %q, %q", tags, posts)
	}

	// A block made now counts at once (the filter is per request); what
	// trends is computed once and reused until it is a minute old.
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		_, err := persistence.BlockUser(ctx, tx, c.reader, other)
		return err
	})
	newer := f.tagged(l, "newer", c.author, uuid.Nil, "Fresh #newtopic")
	f.like(newer, fans...)
	tags, posts = trending(c.reader)
	if slices.Contains(posts, "warm") || slices.Contains(tags, "quietcorner") || slices.Contains(posts, "newer") {
		t.Errorf("after blocking warm's author, within the minute: %q, %q", tags, posts)
	}
	// #exams now counts only the person the reader still sees.
	if got, err := a.Trending(ctx, Principal{UserID: c.reader}); err != nil || len(got.Tags) == 0 || got.Tags[0].Tag != "exams" ||
		got.Tags[0].People != 1 || got.Tags[0].PeopleLabel != "1 person posting" {
		t.Errorf("#exams after the block: %+v, %v", got.Tags, err)
	}
	// Once stale, a read answers the old snapshot and starts one refresh;
	// the read after that refresh has published sees the new post first.
	a.trend.mu.Lock()
	entry0 := a.trend.entries[struct{}{}]
	entry0.at = time.Now().Add(-2 * trendTTL)
	a.trend.mu.Unlock()
	trending(c.reader)
	for {
		a.trend.mu.Lock()
		done := !entry0.refreshing
		a.trend.mu.Unlock()
		if done {
			break
		}
		time.Sleep(5 * time.Millisecond) // polling the refresh's state, not a clock
	}
	if _, posts = trending(c.reader); len(posts) == 0 || posts[0] != "newer" {
		t.Errorf("the snapshot was not recomputed once stale: %q", posts)
	}
}
