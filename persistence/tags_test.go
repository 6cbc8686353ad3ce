package persistence_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestPostTagsFollowTheText: a post's tags are its text's, written with
// the post, rewritten by an edit and gone with the post.
func TestPostTagsFollowTheText(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	author := newUser("Tag Author")
	insert(t, db, author)
	tags := func(p *persistence.Post) []string {
		t.Helper()
		got, err := persistence.PostTags(ctx, db, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	p := newPost(t, db, author, "Chess night! #Chess #chess #campus_life and C# is no tag", 0)
	if got, want := tags(p), []string{"campus_life", "chess"}; !slices.Equal(got, want) {
		t.Fatalf("after create: %q, want %q", got, want)
	}
	plain := newPost(t, db, author, "no tags at all", 0)
	if got := tags(plain); len(got) != 0 {
		t.Fatalf("a post without tags has %q", got)
	}

	for _, step := range []struct {
		name, text string
		want       []string
	}{
		{"one dropped, one added", "Chess night #chess #exams", []string{"chess", "exams"}},
		{"all dropped", "nothing to see", []string{}},
		{"back", "#Exams again", []string{"exams"}},
	} {
		t.Run(step.name, func(t *testing.T) {
			if err := persistence.SetPostContent(ctx, db, p.ID, step.text); err != nil {
				t.Fatal(err)
			}
			if got := tags(p); !slices.Equal(got, step.want) {
				t.Fatalf("%q, want %q", got, step.want)
			}
		})
	}

	// A tag's rows carry the post's time, which its page is ordered by.
	var same bool
	if err := db.QueryRowContext(ctx, `SELECT bool_and(pt.created_at = p.created_at) FROM post_tags pt
		JOIN posts p ON p.id = pt.post_id`).Scan(&same); err != nil || !same {
		t.Fatalf("post_tags.created_at equals the post's: %v (%v)", same, err)
	}

	if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := persistence.DeletePost(ctx, tx, p.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM post_tags").Scan(&left); err != nil || left != 0 {
		t.Fatalf("after delete: %d tag rows (%v)", left, err)
	}
}

// TestTagBackfill: posts written before tags existed get theirs when the
// migrations run, once, however many pages they take.
func TestTagBackfill(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	author := newUser("Old Author")
	insert(t, db, author)
	// Older posts: straight into the table, as before tags, 2,500 of them
	// (three pages), every tenth with a tag.
	if _, err := db.ExecContext(ctx, `INSERT INTO posts (id, user_id, content)
		SELECT gen_random_uuid(), ?, CASE WHEN i % 10 = 0 THEN 'old #Retro' || i ELSE 'old ' || i END
		FROM generate_series(1, 2500) AS i`, author.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO tag_backfill (after_id) VALUES ('00000000-0000-0000-0000-000000000000')"); err != nil {
		t.Fatal(err)
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var rows, pending int
	var sample string
	if err := db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM post_tags), (SELECT count(*) FROM tag_backfill),
		(SELECT min(tag) FROM post_tags)`).Scan(&rows, &pending, &sample); err != nil {
		t.Fatal(err)
	}
	if rows != 250 || pending != 0 || !strings.HasPrefix(sample, "retro") {
		t.Fatalf("after the backfill: %d tag rows (want 250), %d pending (want 0), first tag %q", rows, pending, sample)
	}
}

// TestTagPagePlan: the newest page of a tag of many posts walks
// post_tags_tag_idx and stops at the page's end: no sort of its posts.
func TestTagPagePlan(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	author := newUser("Plan Author")
	insert(t, db, author)
	if _, err := db.ExecContext(ctx, `WITH p AS (
			INSERT INTO posts (id, user_id, content, created_at)
			SELECT gen_random_uuid(), ?, 'p #big', now() - i * interval '1 second'
			FROM generate_series(1, 20000) AS i RETURNING id, content, created_at)
		INSERT INTO post_tags (post_id, tag, created_at) SELECT id, substr(content, 4), created_at FROM p`, author.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE posts; ANALYZE post_tags"); err != nil {
		t.Fatal(err)
	}
	plan := persistence.TagPagePlan(t, ctx, db, "big", author.ID)
	if !strings.Contains(plan, "post_tags_tag_idx") || strings.Contains(plan, "Sort") {
		t.Fatalf("the page does not walk post_tags_tag_idx:\n%s", plan)
	}
}
