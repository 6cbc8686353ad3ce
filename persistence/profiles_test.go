package persistence_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// socialUser stores a verified account with its profile, as signup does.
func socialUser(t *testing.T, db bun.IDB, name string) *persistence.User {
	t.Helper()
	u := newUser(name)
	u.EmailVerifiedAt = now()
	if err := persistence.InsertUser(context.Background(), db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func likeCounter(t *testing.T, db bun.IDB, u *persistence.User) (counter, rows int) {
	t.Helper()
	err := db.QueryRowContext(context.Background(), `SELECT
		coalesce((SELECT likes_count FROM profiles WHERE user_id = ?0), -1),
		(SELECT count(*) FROM profile_likes WHERE user_id = ?0)`, u.ID).Scan(&counter, &rows)
	if err != nil {
		t.Fatal(err)
	}
	return counter, rows
}

func TestProfileLikesMoveByRows(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	target := socialUser(t, db, "Liked Person")
	fans := make([]*persistence.User, 8)
	for i := range fans {
		fans[i] = socialUser(t, db, fmt.Sprintf("Fan %d", i))
	}
	// Every fan likes, likes again, unlikes and likes, all at once.
	var wg sync.WaitGroup
	for _, f := range fans {
		for _, like := range []bool{true, true, false, true} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if like {
					_, err = persistence.LikeProfile(ctx, db, target.ID, f.ID)
				} else {
					_, err = persistence.UnlikeProfile(ctx, db, target.ID, f.ID)
				}
				if err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	counter, rows := likeCounter(t, db, target)
	if counter != rows {
		t.Fatalf("counter %d, rows %d", counter, rows)
	}
	// Settle every fan on "liked" and check the answers count exactly.
	for i, f := range fans {
		if _, err := persistence.UnlikeProfile(ctx, db, target.ID, f.ID); err != nil {
			t.Fatal(err)
		}
		n, err := persistence.LikeProfile(ctx, db, target.ID, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := persistence.LikeProfile(ctx, db, target.ID, f.ID); again != n {
			t.Fatalf("second like moved the count: %d then %d", n, again)
		}
		if liked, _ := persistence.ProfileLikedBy(ctx, db, target.ID, f.ID); !liked {
			t.Fatalf("fan %d not recorded", i)
		}
	}
	if counter, rows := likeCounter(t, db, target); counter != 8 || rows != 8 {
		t.Fatalf("counter %d rows %d, want 8", counter, rows)
	}

	// A user seeded without a profile row gets one from the first like.
	bare := newUser("Seeded Without Profile")
	insert(t, db, bare)
	if n, err := persistence.UnlikeProfile(ctx, db, bare.ID, target.ID); err != nil || n != 0 {
		t.Fatalf("unlike on a bare user: %d %v", n, err)
	}
	if n, err := persistence.LikeProfile(ctx, db, bare.ID, target.ID); err != nil || n != 1 {
		t.Fatalf("like on a bare user: %d %v", n, err)
	}
}

func TestSaveProfileWritesOnlyItsColumns(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	u := socialUser(t, db, "Profile Owner")

	p, err := persistence.ProfileOf(ctx, db, u.ID)
	if err != nil || p.Skills == nil || p.Interests == nil || p.Achievements == nil || !p.SetupCompletedAt.IsZero() {
		t.Fatalf("fresh profile %+v %v", p, err)
	}
	err = persistence.SaveProfile(ctx, db, &persistence.Profile{UserID: u.ID,
		Education: persistence.Education{Degree: "BCA"}, Skills: []persistence.Skill{{Name: "Go", Proficiency: 70}}},
		persistence.ColEducation, persistence.ColSkills)
	if err != nil {
		t.Fatal(err)
	}
	if err := persistence.SaveProfile(ctx, db, &persistence.Profile{UserID: u.ID, Interests: []string{"chess"}}, persistence.ColInterests); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.LikeProfile(ctx, db, u.ID, socialUser(t, db, "Liker").ID); err != nil {
		t.Fatal(err)
	}
	if err := persistence.SaveProfile(ctx, db, &persistence.Profile{UserID: u.ID}, "likes_count"); err == nil {
		t.Fatal("SaveProfile wrote a column it must not")
	}
	if err := persistence.MarkProfileSetup(ctx, db, u.ID); err != nil {
		t.Fatal(err)
	}
	p, err = persistence.ProfileOf(ctx, db, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Education.Degree != "BCA" || len(p.Skills) != 1 || p.Skills[0].Proficiency != 70 || len(p.Interests) != 1 ||
		p.LikesCount != 1 || p.SetupCompletedAt.IsZero() {
		t.Fatalf("profile %+v", p)
	}
	first := p.SetupCompletedAt
	time.Sleep(10 * time.Millisecond)
	if err := persistence.MarkProfileSetup(ctx, db, u.ID); err != nil {
		t.Fatal(err)
	}
	if p, _ := persistence.ProfileOf(ctx, db, u.ID); !p.SetupCompletedAt.Equal(first) {
		t.Fatal("the first setup time must stay")
	}

	// Experience is replaced whole, in order.
	for _, titles := range [][]string{{"A", "B", "C"}, {"D"}, {}} {
		var entries []persistence.Experience
		for _, title := range titles {
			entries = append(entries, persistence.Experience{Title: title})
		}
		if err := persistence.ReplaceExperience(ctx, db, u.ID, entries); err != nil {
			t.Fatal(err)
		}
		got, err := persistence.ExperienceOf(ctx, db, u.ID)
		if err != nil || len(got) != len(titles) {
			t.Fatalf("experience %v %v, want %v", got, err, titles)
		}
		for i := range got {
			if got[i].Title != titles[i] {
				t.Fatalf("experience %d = %s, want %s", i, got[i].Title, titles[i])
			}
		}
	}
}

func TestSetUserImageHandsBackTheReplacedKey(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	u := socialUser(t, db, "Image Owner")
	outbox := func() int {
		n, err := db.NewSelect().Model((*persistence.OutboxEntry)(nil)).Where("entity_id = ?", u.ID).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	before := outbox()
	steps := []struct {
		which, key, wantOld string
		outboxGrows         bool
	}{
		{persistence.ImageAvatar, "a1.png", "", true},
		{persistence.ImageAvatar, "a2.png", "a1.png", true},
		{persistence.ImageCover, "c1.jpg", "", false},
		{persistence.ImageCover, "c2.jpg", "c1.jpg", false},
	}
	for _, st := range steps {
		var old string
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			old, err = persistence.SetUserImage(ctx, tx, u.ID, st.which, "/media/"+st.key, st.key,
				persistence.ImageVariants{{URL: "/media/" + st.key + "-320", Width: 320, Height: 200}})
			return err
		})
		if err != nil || old != st.wantOld {
			t.Fatalf("%s %s: old %q %v, want %q", st.which, st.key, old, err, st.wantOld)
		}
		if grew := outbox() > before; grew != st.outboxGrows {
			t.Fatalf("%s %s: outbox grew %v", st.which, st.key, grew)
		}
		before = outbox()
	}
	got, err := persistence.UserByID(ctx, db, u.ID)
	if err != nil || got.AvatarKey != "a2.png" || got.AvatarURL != "/media/a2.png" || got.CoverKey != "c2.jpg" {
		t.Fatalf("user %+v %v", got, err)
	}
	if len(got.AvatarVariants) != 1 || got.AvatarVariants[0] != (persistence.ImageVariant{URL: "/media/a2.png-320", Width: 320, Height: 200}) ||
		len(got.CoverVariants) != 1 || got.CoverVariants[0].URL != "/media/c2.jpg-320" {
		t.Fatalf("variants: avatar %+v cover %+v", got.AvatarVariants, got.CoverVariants)
	}
	if _, err := persistence.SetUserImage(ctx, db, persistence.NewID(), persistence.ImageAvatar, "/x", "x", nil); err == nil {
		t.Fatal("no error for a missing user")
	}
}
