package persistence_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// TestGroupChatFollowsMembership: a group's chat has the group's members
// (its admins the group's owner and admins) through every membership
// change, in the change's own transaction; one who comes back after
// messages were sent reads from their return; an account's deletion hands
// the chat's admin role to the group's heir; deleting the group answers
// the chat's image files.
func TestGroupChatFollowsMembership(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	owner, ana, ben := socialUser(t, db, "GC Owner"), socialUser(t, db, "GC Ana"), socialUser(t, db, "GC Ben")
	g := &persistence.Group{ID: persistence.NewID(), Handle: "gc-club", Name: "GC Club", Kind: "club", Visibility: "public"}
	var chat uuid.UUID
	inTx := func(t *testing.T, fn func(tx bun.Tx) error) {
		t.Helper()
		if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(tx) }); err != nil {
			t.Fatal(err)
		}
	}
	inTx(t, func(tx bun.Tx) error { return persistence.InsertGroup(ctx, tx, g, owner.ID) })
	inTx(t, func(tx bun.Tx) error {
		return persistence.SetMembership(ctx, tx, g.ID, ana.ID, domain.StatusMember, domain.RoleMember, uuid.Nil)
	})
	type member struct {
		role            string
		joined, readSeq int64
		left            bool
	}
	members := func(t *testing.T) map[uuid.UUID]member {
		t.Helper()
		var rows []persistence.ConversationMember
		if err := db.NewSelect().Model(&rows).Where("conversation_id = ?", chat).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		out := map[uuid.UUID]member{}
		for _, r := range rows {
			out[r.UserID] = member{r.Role, r.JoinedSeq, r.ReadSeq, r.LeftSeq != nil}
		}
		return out
	}
	current := func(t *testing.T) []uuid.UUID {
		t.Helper()
		ids, err := persistence.CurrentMemberIDs(ctx, db, chat)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
		return ids
	}
	sorted := func(ids ...uuid.UUID) []uuid.UUID {
		slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
		return ids
	}

	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"opened with the group's members", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error {
				c, opened, err := persistence.OpenGroupChat(ctx, tx, g.ID, g.Name, owner.ID)
				if err == nil && !opened {
					t.Error("a new chat not reported opened")
				}
				if c != nil {
					chat = c.ID
				}
				return err
			})
			ms := members(t)
			if len(ms) != 2 || ms[owner.ID].role != "admin" || ms[ana.ID].role != "member" {
				t.Fatalf("members %v", ms)
			}
		}},
		{"an invitation is not membership; accepting it is", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error {
				return persistence.SetMembership(ctx, tx, g.ID, ben.ID, domain.StatusInvited, domain.RoleMember, owner.ID)
			})
			if got := current(t); !slices.Equal(got, sorted(owner.ID, ana.ID)) {
				t.Fatalf("current %v after an invitation", got)
			}
			sendAll(t, db, chat, owner.ID, ana.ID)
			inTx(t, func(tx bun.Tx) error {
				return persistence.SetMembership(ctx, tx, g.ID, ben.ID, domain.StatusMember, domain.RoleMember, uuid.Nil)
			})
			if m := members(t)[ben.ID]; m.left || m.joined != 2 || m.readSeq != 2 || m.role != "member" {
				t.Fatalf("ben %+v, want a member from seq 2", m)
			}
		}},
		{"a role follows the group's", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error { return persistence.SetMemberRole(ctx, tx, g.ID, ana.ID, domain.RoleAdmin) })
			if m := members(t)[ana.ID]; m.role != "admin" {
				t.Fatalf("ana %+v", m)
			}
		}},
		{"out of the group, out of the chat; back after messages, reading from the return", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error {
				_, err := persistence.DeleteMembership(ctx, tx, g.ID, ben.ID)
				return err
			})
			if m := members(t)[ben.ID]; !m.left {
				t.Fatalf("ben %+v still in", m)
			}
			sendAll(t, db, chat, ana.ID)
			inTx(t, func(tx bun.Tx) error {
				return persistence.SetMembership(ctx, tx, g.ID, ben.ID, domain.StatusMember, domain.RoleMember, uuid.Nil)
			})
			if m := members(t)[ben.ID]; m.left || m.joined != 3 {
				t.Fatalf("ben %+v, want back from seq 3", m)
			}
		}},
		{"closed and reopened with nothing between: the windows continue", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error {
				id, left, err := persistence.CloseGroupChat(ctx, tx, g.ID)
				if id != chat || len(left) != 3 {
					t.Errorf("close: %v left %v", id, left)
				}
				return err
			})
			if got := current(t); len(got) != 0 {
				t.Fatalf("current %v after closing", got)
			}
			inTx(t, func(tx bun.Tx) error {
				_, opened, err := persistence.OpenGroupChat(ctx, tx, g.ID, g.Name, owner.ID)
				if !opened {
					t.Error("a reopened chat not reported opened")
				}
				return err
			})
			if ms := members(t); ms[owner.ID].joined != 0 || ms[ben.ID].joined != 3 || ms[ana.ID].role != "admin" {
				t.Fatalf("after reopening %v", ms)
			}
		}},
		{"the owner's account deleted: the heir is the chat's admin", func(t *testing.T) {
			inTx(t, func(tx bun.Tx) error {
				_, err := persistence.DeleteAccount(ctx, tx, owner.ID)
				return err
			})
			ms := members(t)
			if _, ok := ms[owner.ID]; ok || ms[ana.ID].role != "admin" || ms[ben.ID].role != "member" {
				t.Fatalf("after the owner's deletion %v", ms)
			}
		}},
		{"deleting the group deletes the chat and answers its images' files", func(t *testing.T) {
			seq := sendAll(t, db, chat, ben.ID)[0]
			im := &persistence.MessageImage{ConversationID: chat, Seq: seq, StorageKey: "chat-image-key", URL: "/media/x.jpg",
				ContentType: "image/jpeg", Width: 10, Height: 10}
			if _, err := db.NewInsert().Model(im).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			inTx(t, func(tx bun.Tx) error {
				keys, err := persistence.DeleteGroup(ctx, tx, g)
				if !slices.Contains(keys, "chat-image-key") {
					t.Errorf("keys %v lack the chat's image", keys)
				}
				return err
			})
			if _, err := persistence.GroupChatOf(ctx, db, g.ID); err == nil {
				t.Fatal("the chat outlived its group")
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			return
		}
	}
}
