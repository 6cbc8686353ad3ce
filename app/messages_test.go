package app

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/persistence"
	"campus/persistence/testdb"
	"campus/protocol"
)

// recordedPush is one PushToUsers call.
type recordedPush struct {
	users []uuid.UUID
	event string
}

// recordingFanout keeps what the use cases push (the live core's side is
// tested in actors and httpapi).
type recordingFanout struct {
	mu     sync.Mutex
	pushes []recordedPush
}

func (f *recordingFanout) PushToUsers(_ context.Context, users []uuid.UUID, event string, _ any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pushes = append(f.pushes, recordedPush{append([]uuid.UUID(nil), users...), event})
	return nil
}

func (f *recordingFanout) PushToWatchers(context.Context, uuid.UUID, string, any) error { return nil }

// take answers the pushes of event since the last take.
func (f *recordingFanout) take(event string) []recordedPush {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []recordedPush
	for _, p := range f.pushes {
		if p.event == event {
			out = append(out, p)
		}
	}
	f.pushes = nil
	return out
}

// TestTypingRateMembershipAndBlocks: a typing event reaches the other
// members, at most once per person and conversation every 2 s (the
// limiter's clock is the test's, so no real time passes), never a member
// across a block, and nothing from someone who left or was never in.
func TestTypingRateMembershipAndBlocks(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	var us []*persistence.User
	for i := range 4 {
		u := &persistence.User{ID: persistence.NewID(), Name: fmt.Sprintf("Typist %d", i), Role: "student", PasswordHash: "x",
			Email: fmt.Sprintf("typist%d-%s@uni.edu", i, uuid.NewString()[:6]), EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	a, b, c, outsider := us[0], us[1], us[2], us[3]
	conv := &persistence.Conversation{ID: persistence.NewID(), Title: "Typing", CreatedBy: a.ID}
	if err := persistence.CreateGroupConversation(ctx, db, conv, []uuid.UUID{b.ID, c.ID}); err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	limiter := NewTypingLimiter()
	limiter.now = func() time.Time { return clock }
	fan := &recordingFanout{}
	m := NewMessages(MessagesDeps{DB: db, Fanout: fan, TypingLimit: limiter, Log: zerolog.Nop()})

	steps := []struct {
		name   string
		before func()
		who    uuid.UUID
		want   []uuid.UUID // nil: nothing pushed
	}{
		{"reaches the others", nil, a.ID, []uuid.UUID{b.ID, c.ID}},
		{"again at once is dropped", nil, a.ID, nil},
		{"another member has a budget of their own", nil, b.ID, []uuid.UUID{a.ID, c.ID}},
		{"2 s later it goes again", func() { clock = clock.Add(typingEvery) }, a.ID, []uuid.UUID{b.ID, c.ID}},
		{"not across a block", func() {
			clock = clock.Add(typingEvery)
			if _, err := persistence.BlockUser(ctx, db, c.ID, a.ID); err != nil {
				t.Fatal(err)
			}
		}, a.ID, []uuid.UUID{b.ID}},
		{"not from someone never in it", nil, outsider.ID, nil},
		{"not from someone who left", func() {
			clock = clock.Add(typingEvery)
			if _, err := persistence.RemoveMember(ctx, db, conv.ID, b.ID, 0); err != nil {
				t.Fatal(err)
			}
		}, b.ID, nil},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.before != nil {
				st.before()
			}
			if err := m.Typing(ctx, st.who, conv.ID); err != nil {
				t.Fatal(err)
			}
			got := fan.take(protocol.EventTyping)
			if st.want == nil {
				if len(got) != 0 {
					t.Fatalf("pushed %v", got)
				}
				return
			}
			if len(got) != 1 || fmt.Sprint(sorted(got[0].users)) != fmt.Sprint(sorted(st.want)) {
				t.Fatalf("pushed %v, want one push to %v", got, st.want)
			}
		})
	}
}

func sorted(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	slices.Sort(out)
	return out
}
