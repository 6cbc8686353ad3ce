package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"campus/config"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

func TestBrakesLimitNewAccountsOnly(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	newUser := func(name string, age time.Duration) *persistence.User {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "UPDATE users SET created_at = now() - ?::interval WHERE id = ?",
			age.String(), u.ID); err != nil {
			t.Fatal(err)
		}
		return u
	}
	limits := config.NewAccountLimits{Age: 24 * time.Hour, PostsPerHour: 2, CommentsPerHour: 3, RequestsPerHour: 1}
	cases := []struct {
		name    string
		age     time.Duration
		what    brake
		enabled bool
		allowed int // how many pass before a 429; -1: never refused in 10
	}{
		{"new account posts", time.Hour, brakePost, true, 2},
		{"new account comments", time.Hour, brakeComment, true, 3},
		{"new account requests", time.Minute, brakeRequest, true, 1},
		{"day-old account", 25 * time.Hour, brakePost, true, -1},
		{"limits off", time.Hour, brakePost, false, -1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := newUser("brake"+string(rune('a'+i)), c.age)
			b := NewBrakes(db, limits, c.enabled)
			passed := 0
			for range 10 {
				err := b.check(ctx, u.ID, c.what)
				if err == nil {
					passed++
					continue
				}
				var de *domain.Error
				if !errors.As(err, &de) || de.Kind != domain.KindTooMany || de.RetryAfter < 1 {
					t.Fatalf("refusal %v, want 429 with Retry-After", err)
				}
				break
			}
			want := c.allowed
			if want == -1 {
				want = 10
			}
			if passed != want {
				t.Errorf("%d passed, want %d", passed, want)
			}
		})
	}
}
