package persistence_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// sendAll stores one message per sender in conv, in order, and answers
// their seqs.
func sendAll(t *testing.T, db bun.IDB, conv uuid.UUID, senders ...uuid.UUID) []int64 {
	t.Helper()
	b := persistence.MessageBatch{ConversationID: conv}
	for _, s := range senders {
		b.Sends = append(b.Sends, persistence.MessageSend{ID: persistence.NewID(), SenderID: s,
			ClientID: uuid.NewString(), Body: "hello"})
	}
	res, errs := persistence.ApplyMessageBatches(context.Background(), db, []persistence.MessageBatch{b})
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	seqs := make([]int64, len(senders))
	for i, m := range res[0].Messages {
		if res[0].Errs[i] != nil {
			t.Fatal(res[0].Errs[i])
		}
		seqs[i] = m.Seq
	}
	return seqs
}

func groupOf(t *testing.T, db bun.IDB, us ...*persistence.User) uuid.UUID {
	t.Helper()
	c := &persistence.Conversation{ID: persistence.NewID(), Title: "Group", CreatedBy: us[0].ID}
	var others []uuid.UUID
	for _, u := range us[1:] {
		others = append(others, u.ID)
	}
	if err := persistence.CreateGroupConversation(context.Background(), db, c, others); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// unreadByHand counts what user has not read in conv, the slow way.
func unreadByHand(t *testing.T, db bun.IDB, conv, user uuid.UUID) (int64, int) {
	t.Helper()
	var read int64
	if err := db.NewRaw(`SELECT read_seq FROM conversation_members WHERE conversation_id = ? AND user_id = ?`, conv, user).
		Scan(context.Background(), &read); err != nil {
		t.Fatal(err)
	}
	n, err := db.NewSelect().Model((*persistence.Message)(nil)).
		Where("conversation_id = ? AND seq > ? AND sender_id <> ? AND unsent_at IS NULL", conv, read, user).
		Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return read, int(n)
}

// TestUnreadExactUnderRacingReads: reads of one person racing each other
// (and new messages) leave the read pointer at the highest seq read (it
// never moves back) and the unread counts exact.
func TestUnreadExactUnderRacingReads(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b, c := socialUser(t, db, "Unread A"), socialUser(t, db, "Unread B"), socialUser(t, db, "Unread C")
	conv := groupOf(t, db, a, b, c)
	for range 20 {
		sendAll(t, db, conv, a.ID, b.ID, c.ID)
	}
	if _, err := persistence.UnsendMessage(ctx, db, conv, 4, a.ID); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	highest := map[uuid.UUID]int64{}
	errs := make(chan error, 200)
	for i := range 60 {
		reader := []*persistence.User{b, c}[i%2]
		seq := rand.Int64N(60) + 1
		mu.Lock()
		highest[reader.ID] = max(highest[reader.ID], seq)
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := persistence.MarkRead(ctx, db, conv, reader.ID, seq)
			if err != nil {
				errs <- err
				return
			}
			if got < seq {
				errs <- fmt.Errorf("read %d answered %d", seq, got)
			}
		}()
		if i%10 == 0 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b := persistence.MessageBatch{ConversationID: conv, Sends: []persistence.MessageSend{
					{ID: persistence.NewID(), SenderID: a.ID, ClientID: uuid.NewString(), Body: "more"}}}
				if _, errs2 := persistence.ApplyMessageBatches(ctx, db, []persistence.MessageBatch{b}); errs2[0] != nil {
					errs <- errs2[0]
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, u := range []*persistence.User{b, c} {
		t.Run(u.Name, func(t *testing.T) {
			read, want := unreadByHand(t, db, conv, u.ID)
			if read != highest[u.ID] {
				t.Fatalf("read pointer %d, highest read %d", read, highest[u.ID])
			}
			s, err := persistence.ConversationStateOf(ctx, db, conv, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if s.Unread != want || s.ReadSeq != read {
				t.Fatalf("state unread %d read %d, want %d %d", s.Unread, s.ReadSeq, want, read)
			}
			total, err := persistence.UnreadMessagesTotal(ctx, db, u.ID)
			if err != nil || total != want {
				t.Fatalf("total %d %v, want %d", total, err, want)
			}
			// Reading back never moves the pointer back.
			if got, err := persistence.MarkRead(ctx, db, conv, u.ID, 1); err != nil || got != read {
				t.Fatalf("read back to 1 answered %d %v", got, err)
			}
		})
	}
	// Muting takes a conversation out of the total, not out of its count.
	if err := persistence.SetMuted(ctx, db, conv, b.ID, true); err != nil {
		t.Fatal(err)
	}
	if total, err := persistence.UnreadMessagesTotal(ctx, db, b.ID); err != nil || total != 0 {
		t.Fatalf("muted total %d %v", total, err)
	}
}

// TestDirectConversationOnePerPair: two people starting their conversation
// at the same moment, from both sides, get one conversation.
func TestDirectConversationOnePerPair(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b := socialUser(t, db, "Pair Asha"), socialUser(t, db, "Pair Bikram")
	var wg sync.WaitGroup
	ids := make(chan uuid.UUID, 20)
	created := make(chan bool, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from, to := a.ID, b.ID
			if i%2 == 1 {
				from, to = to, from
			}
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				c, isNew, err := persistence.CreateDirectConversation(ctx, tx, from, to)
				if err == nil {
					ids <- c.ID
					created <- isNew
				}
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	close(ids)
	close(created)
	first := uuid.Nil
	for id := range ids {
		if first == uuid.Nil {
			first = id
		}
		if id != first {
			t.Fatalf("two conversations for one pair: %s and %s", first, id)
		}
	}
	n := 0
	for c := range created {
		if c {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("created %d times", n)
	}
	count, err := db.NewSelect().Model((*persistence.ConversationMember)(nil)).Where("conversation_id = ?", first).Count(ctx)
	if err != nil || count != 2 {
		t.Fatalf("%d members %v", count, err)
	}
}

// TestMessageWindow: a member added later reads from their joining, one who
// left reads up to their leaving, and pages run by seq both ways.
func TestMessageWindow(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b, c := socialUser(t, db, "Window A"), socialUser(t, db, "Window B"), socialUser(t, db, "Window C")
	conv := groupOf(t, db, a, b)
	sendAll(t, db, conv, a.ID, b.ID, a.ID) // 1..3
	joined, err := persistence.AddMembers(ctx, db, conv, 3, []uuid.UUID{c.ID})
	if err != nil || len(joined) != 1 {
		t.Fatalf("add: %v %v", joined, err)
	}
	sendAll(t, db, conv, c.ID, a.ID, b.ID) // 4..6
	if ok, err := persistence.RemoveMember(ctx, db, conv, b.ID, 6); err != nil || !ok {
		t.Fatalf("remove: %v %v", ok, err)
	}
	sendAll(t, db, conv, a.ID, c.ID) // 7..8
	// B can no longer send: the batch refuses that send alone.
	res, errs := persistence.ApplyMessageBatches(ctx, db, []persistence.MessageBatch{{ConversationID: conv, Sends: []persistence.MessageSend{
		{ID: persistence.NewID(), SenderID: b.ID, ClientID: "late", Body: "x"},
		{ID: persistence.NewID(), SenderID: a.ID, ClientID: "fine", Body: "y"}}}})
	if errs[0] != nil || res[0].Errs[0] != persistence.ErrCannotSend || res[0].Errs[1] != nil || res[0].Messages[1].Seq != 9 {
		t.Fatalf("mixed batch: %+v %v", res[0], errs[0])
	}

	for _, tc := range []struct {
		name          string
		user          uuid.UUID
		before, after int64
		limit         int
		want          []int64
		more          bool
	}{
		{"newest page of a member", a.ID, 10, -1, 4, []int64{6, 7, 8, 9}, true},
		{"older page", a.ID, 6, -1, 4, []int64{2, 3, 4, 5}, true},
		{"oldest page", a.ID, 2, -1, 4, []int64{1}, false},
		{"gap after a seq", a.ID, 0, 5, 2, []int64{6, 7}, true},
		{"joined later", c.ID, 10, -1, 20, []int64{4, 5, 6, 7, 8, 9}, false},
		{"joined later, after 0", c.ID, 0, 0, 20, []int64{4, 5, 6, 7, 8, 9}, false},
		{"left", b.ID, 10, -1, 20, []int64{1, 2, 3, 4, 5, 6}, false},
		{"left, the gap after", b.ID, 0, 5, 20, []int64{6}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := persistence.ConversationStateOf(ctx, db, conv, tc.user)
			if err != nil {
				t.Fatal(err)
			}
			rows, more, err := persistence.MessagePage(ctx, db, conv, tc.user, s.JoinedSeq, s.VisibleTo(), tc.before, tc.after, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range rows {
				got = append(got, r.Seq)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || more != tc.more {
				t.Fatalf("got %v more %v, want %v more %v", got, more, tc.want, tc.more)
			}
		})
	}
}
