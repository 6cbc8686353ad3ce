package actors_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/actors"
	"campus/domain"
	"campus/persistence"
)

// group makes a group conversation of us (the first its admin).
func (n *node) group(t *testing.T, us []*persistence.User) uuid.UUID {
	t.Helper()
	c := &persistence.Conversation{ID: persistence.NewID(), Title: "Study group", CreatedBy: us[0].ID}
	others := make([]uuid.UUID, 0, len(us)-1)
	for _, u := range us[1:] {
		others = append(others, u.ID)
	}
	if err := persistence.CreateGroupConversation(context.Background(), n.db, c, others); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// sent is one acknowledged send.
type sent struct {
	sender  uuid.UUID
	client  string
	seq     int64
	id      uuid.UUID
	created bool
}

// checkGapless asserts the conversation's rows are exactly 1..want with
// last_seq = want, each (sender, client id) stored once, and every
// acknowledged send answered with the row the database holds for it.
func checkGapless(t *testing.T, n *node, conv uuid.UUID, want int, acks []sent) {
	t.Helper()
	ctx := context.Background()
	var rows []persistence.Message
	if err := n.db.NewSelect().Model(&rows).Where("conversation_id = ?", conv).Order("seq").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	bySeq := make(map[int64]persistence.Message, len(rows))
	byClient := make(map[string]persistence.Message, len(rows))
	for i, r := range rows {
		if r.Seq != int64(i+1) {
			t.Fatalf("row %d has seq %d: a gap", i, r.Seq)
		}
		bySeq[r.Seq] = r
		k := r.SenderID.String() + "/" + r.ClientID
		if _, dup := byClient[k]; dup {
			t.Fatalf("client id %s stored twice", k)
		}
		byClient[k] = r
	}
	c, err := persistence.LockConversation(ctx, n.db, conv)
	if err != nil {
		t.Fatal(err)
	}
	if c.LastSeq != int64(want) {
		t.Fatalf("last_seq %d, want %d", c.LastSeq, want)
	}
	for _, a := range acks {
		r, ok := byClient[a.sender.String()+"/"+a.client]
		if !ok || r.Seq != a.seq || r.ID != a.id {
			t.Fatalf("send %s answered seq %d id %s; the table holds %+v", a.client, a.seq, a.id, r)
		}
	}
}

// TestConversationSeqGapless: many senders at once through the
// conversation's grain get distinct, gapless seqs from 1, each sender's own
// sends in the order they made them, and a send retried with its client id
// (after its answer, or while the first is still in flight) never doubles.
func TestConversationSeqGapless(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 20)
	conv := n.group(t, us)
	const each = 15

	var (
		mu   sync.Mutex
		acks []sent
		wg   sync.WaitGroup
	)
	errs := make(chan error, len(us)*each*2)
	for _, u := range us {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last int64
			for i := range each {
				client := fmt.Sprintf("c%d-%s", i, u.ID.String()[:8])
				s := persistence.MessageSend{ID: persistence.NewID(), SenderID: u.ID, ClientID: client, Body: "hello " + client}
				// Every third send is sent twice at once: the retry must
				// join the original.
				tries := 1
				if i%3 == 0 {
					tries = 2
				}
				answers := make(chan sent, tries)
				var inner sync.WaitGroup
				for range tries {
					inner.Add(1)
					go func() {
						defer inner.Done()
						seq, id, _, created, err := n.live.SendMessage(context.Background(), conv, s)
						if err != nil {
							errs <- err
							return
						}
						answers <- sent{u.ID, client, seq, id, created}
					}()
				}
				inner.Wait()
				close(answers)
				var got []sent
				for a := range answers {
					got = append(got, a)
				}
				if len(got) == 0 {
					return
				}
				createdN := 0
				for _, a := range got {
					if a.seq != got[0].seq || a.id != got[0].id {
						errs <- fmt.Errorf("client id %s answered seqs %d and %d", client, got[0].seq, a.seq)
					}
					if a.created {
						createdN++
					}
				}
				if createdN > 1 {
					errs <- fmt.Errorf("client id %s created %d times", client, createdN)
				}
				if got[0].seq <= last {
					errs <- fmt.Errorf("sender's send %d got seq %d after %d", i, got[0].seq, last)
				}
				last = got[0].seq
				// A retry after the answer answers the original.
				if i%5 == 0 {
					seq, id, _, created, err := n.live.SendMessage(context.Background(), conv,
						persistence.MessageSend{ID: persistence.NewID(), SenderID: u.ID, ClientID: client, Body: "again"})
					if err != nil || seq != got[0].seq || id != got[0].id || created {
						errs <- fmt.Errorf("late retry of %s: seq %d id %s created %v err %v", client, seq, id, created, err)
					}
				}
				mu.Lock()
				acks = append(acks, got...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkGapless(t, n, conv, len(us)*each, acks)
}

// TestConversationTwins runs one conversation's grain twice at once, as a
// topology change can: a second activation in the same actor system, and a
// second actor system over the same database. Sends through all three at
// the same moment, some of them the same client id sent to two of them (a
// retry landing on the twin), leave gapless seqs with every client id
// stored once: Postgres assigns the seqs and the unique key decides.
func TestConversationTwins(t *testing.T) {
	a := startNode(t)
	b := startNodeOn(t, a.db)
	us := a.users(t, 10)
	conv := a.group(t, us)

	var kind *protocluster.Kind
	for _, k := range a.live.Kinds() {
		if k.Kind == actors.ConversationKind {
			kind = k
		}
	}
	if kind == nil {
		t.Fatal("no conversation kind")
	}
	root := a.node.System.Root
	twin := root.Spawn(protocluster.WithClusterIdentity(kind.Props,
		protocluster.NewClusterIdentity(conv.String(), actors.ConversationKind)))
	t.Cleanup(func() { root.Poison(twin) })

	type path func(s persistence.MessageSend) (int64, uuid.UUID, bool, error)
	viaA := func(s persistence.MessageSend) (int64, uuid.UUID, bool, error) {
		seq, id, _, created, err := a.live.SendMessage(context.Background(), conv, s)
		return seq, id, created, err
	}
	viaB := func(s persistence.MessageSend) (int64, uuid.UUID, bool, error) {
		seq, id, _, created, err := b.live.SendMessage(context.Background(), conv, s)
		return seq, id, created, err
	}
	viaTwin := func(s persistence.MessageSend) (int64, uuid.UUID, bool, error) {
		res, err := root.RequestFuture(twin, &actors.SendMessageRequest{SenderId: s.SenderID.String(), ClientId: s.ClientID,
			Body: s.Body, MessageId: s.ID.String()}, 10*time.Second).Result()
		if err != nil {
			return 0, uuid.Nil, false, err
		}
		r := res.(*actors.SendMessageResponse)
		if r.Failure != actors.Failure_FAILURE_NONE {
			return 0, uuid.Nil, false, fmt.Errorf("twin: %v", r.Failure)
		}
		return r.Seq, uuid.MustParse(r.MessageId), r.Created, nil
	}
	paths := []path{viaA, viaB, viaTwin}

	var (
		mu   sync.Mutex
		acks []sent
		wg   sync.WaitGroup
	)
	const each = 12
	errs := make(chan error, len(us)*each*2)
	for ui, u := range us {
		for i := range each {
			client := fmt.Sprintf("t%d-%d", ui, i)
			s := persistence.MessageSend{ID: persistence.NewID(), SenderID: u.ID, ClientID: client, Body: client}
			targets := []path{paths[(ui+i)%3]}
			if i%2 == 0 {
				targets = append(targets, paths[(ui+i+1)%3]) // the same send lands on a twin too
			}
			for _, send := range targets {
				wg.Add(1)
				go func() {
					defer wg.Done()
					seq, id, created, err := send(s)
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					acks = append(acks, sent{u.ID, client, seq, id, created})
					mu.Unlock()
				}()
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkGapless(t, a, conv, len(us)*each, acks)
	created := make(map[string]int)
	for _, k := range acks {
		if k.created {
			created[k.client]++
		}
	}
	for client, c := range created {
		if c != 1 {
			t.Fatalf("client id %s reported created %d times", client, c)
		}
	}
	if len(created) != len(us)*each {
		t.Fatalf("%d sends reported created, want %d", len(created), len(us)*each)
	}
	seqs := make([]int64, 0, len(acks))
	for _, k := range acks {
		seqs = append(seqs, k.seq)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	if seqs[0] != 1 || seqs[len(seqs)-1] != int64(len(us)*each) {
		t.Fatalf("answered seqs run %d..%d", seqs[0], seqs[len(seqs)-1])
	}
}

// TestConversationRefusals: the grain stores nothing for a sender who is no
// longer a member, nor across a block in a direct conversation, and answers
// "not found" for a conversation that does not exist.
func TestConversationRefusals(t *testing.T) {
	n := startNode(t)
	ctx := context.Background()
	us := n.users(t, 3)
	conv := n.group(t, us)
	c, _, err := persistence.CreateDirectConversation(ctx, n.db, us[0].ID, us[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.RemoveMember(ctx, n.db, conv, us[2].ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.BlockUser(ctx, n.db, us[1].ID, us[0].ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		conv   uuid.UUID
		sender uuid.UUID
		want   error
	}{
		{"a member who left", conv, us[2].ID, domain.ErrForbidden},
		{"across a block", c.ID, us[0].ID, domain.ErrForbidden},
		{"the blocker too", c.ID, us[1].ID, domain.ErrForbidden},
		{"no such conversation", uuid.New(), us[0].ID, domain.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, _, err := n.live.SendMessage(ctx, tc.conv,
				persistence.MessageSend{ID: persistence.NewID(), SenderID: tc.sender, ClientID: "x1", Body: "hi"})
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			n2, err := n.db.NewSelect().Model((*persistence.Message)(nil)).Where("conversation_id = ?", tc.conv).Count(ctx)
			if err != nil || n2 != 0 {
				t.Fatalf("%d rows stored (%v)", n2, err)
			}
		})
	}
	// A member still sends.
	if seq, _, _, _, err := n.live.SendMessage(ctx, conv,
		persistence.MessageSend{ID: persistence.NewID(), SenderID: us[1].ID, ClientID: "ok", Body: "hi"}); err != nil || seq != 1 {
		t.Fatalf("member's send: %d %v", seq, err)
	}
}
