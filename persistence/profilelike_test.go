package persistence_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestProfileLikesRollUp: profile likes notify the owner as one
// profile_like row per owner (migration 20261124000007), rolled up like post
// likes: newest likers first, counted by profile_likes, unread once. A block
// and a deleted account take the liker out of it; the owner liking their
// own profile or a sender behind a block notifies no one.
func TestProfileLikesRollUp(t *testing.T) {
	ctx := context.Background()
	type step struct {
		op string // like, block, delete
		by int    // liker index
	}
	tests := []struct {
		name       string
		steps      []step
		wantRows   int
		wantCount  int
		wantActors []string
	}{
		{"one liker", []step{{"like", 0}}, 1, 1, []string{"Liker 0"}},
		{"three likers, one batch each", []step{{"like", 0}, {"like", 1}, {"like", 2}}, 1, 3, []string{"Liker 2", "Liker 1", "Liker 0"}},
		{"a repeat counts once", []step{{"like", 0}, {"like", 1}, {"like", 0}}, 1, 2, []string{"Liker 0", "Liker 1"}},
		{"four likers keep the newest three", []step{{"like", 0}, {"like", 1}, {"like", 2}, {"like", 3}}, 1, 4,
			[]string{"Liker 3", "Liker 2", "Liker 1"}},
		{"the owner blocks the only liker", []step{{"like", 0}, {"block", 0}}, 0, 0, nil},
		{"a blocked liker notifies no one", []step{{"block", 0}, {"like", 0}}, 0, 0, nil},
		{"a liker of two deletes the account", []step{{"like", 0}, {"like", 1}, {"delete", 1}}, 1, 1, []string{"Liker 0"}},
		{"the only liker deletes the account", []step{{"like", 0}, {"delete", 0}}, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := testdb.New(t)
			owner := newUser("Profile Owner")
			insert(t, db, owner)
			likers := make([]*persistence.User, 4)
			for i := range likers {
				likers[i] = newUser(fmt.Sprintf("Liker %d", i))
				insert(t, db, likers[i])
			}
			for _, s := range tt.steps {
				u := likers[s.by]
				err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
					switch s.op {
					case "like":
						if _, err := persistence.LikeProfile(ctx, tx, owner.ID, u.ID); err != nil {
							return err
						}
						// The owner's own "like" rides along: it must notify no one.
						_, err := persistence.CreateNotifications(ctx, tx, owner.ID, []*persistence.Notification{
							{ID: persistence.NewID(), UserID: owner.ID, Type: persistence.NotifyProfileLike, SenderID: u.ID},
							{ID: persistence.NewID(), UserID: owner.ID, Type: persistence.NotifyProfileLike, SenderID: owner.ID}})
						return err
					case "block":
						_, err := persistence.BlockUser(ctx, tx, owner.ID, u.ID)
						return err
					default:
						_, err := persistence.DeleteAccount(ctx, tx, u.ID)
						return err
					}
				})
				if err != nil {
					t.Fatalf("%s by %s: %v", s.op, u.Name, err)
				}
			}
			list, err := persistence.NotificationsOf(ctx, db, owner.ID, persistence.Keyset{}, 10)
			if err != nil || len(list) != tt.wantRows {
				t.Fatalf("list %+v %v, want %d rows", list, err, tt.wantRows)
			}
			unread, err := persistence.UnreadNotificationCount(ctx, db, owner.ID)
			if err != nil || unread != tt.wantRows {
				t.Fatalf("unread %d %v, want %d", unread, err, tt.wantRows)
			}
			if tt.wantRows == 0 {
				return
			}
			n := list[0]
			if n.Type != persistence.NotifyProfileLike || n.ActorCount != tt.wantCount || fmt.Sprint(names(n.Actors)) != fmt.Sprint(tt.wantActors) {
				t.Fatalf("%s of %d by %v, want profile_like of %d by %v", n.Type, n.ActorCount, names(n.Actors), tt.wantCount, tt.wantActors)
			}
		})
	}
}
