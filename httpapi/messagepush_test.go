package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"campus/app"
	"campus/persistence"
	"campus/testlog"
)

// TestMessagePush walks the Web Push of messages: a member with no socket
// gets one push per conversation however many messages came while it
// waited ("3 new messages from …"), a snippet no longer than the lock
// screen's glimpse, the group's name as a group's title; an unsent message,
// a muted conversation, the sender themself and a member with a socket
// open get none.
func TestMessagePush(t *testing.T) {
	var keys app.Keys
	st := newLiveStack(t, liveOptions{mutate: func(st *liveStack, d *Deps) {
		messagesDeps(t)(st, d)
		k, err := app.LoadKeys(context.Background(), st.db, t.TempDir()+"/secret")
		if err != nil {
			t.Fatal(err)
		}
		keys = k
		d.Push = app.NewPush(app.PushDeps{DB: st.db, VAPID: keys.VAPID, AllowLoopbackHTTP: true})
	}})
	ctx := context.Background()
	// startSender runs a push sender until the returned stop; between
	// senders the outbox only fills, which lets a case look at it.
	startSender := func(t *testing.T) (*app.PushSender, func()) {
		s := app.NewPushSender(app.PushSenderOptions{DB: st.db, Log: testlog.New(t), VAPID: keys.VAPID,
			Subscriber: "support@campus.test", Product: "Campus", Online: st.live.Online, AllowLoopbackHTTP: true,
			RetryBase: 50 * time.Millisecond})
		s.Start()
		stop := func() {
			c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s.Stop(c)
		}
		t.Cleanup(stop)
		return s, stop
	}
	ps := newPushService(t)
	asha, ashaTok := st.user(t, "Push Asha")
	bikram, bikramTok := st.user(t, "Push Bikram")
	chitra, chitraTok := st.user(t, "Push Chitra")
	for _, pair := range [][2]*persistence.User{{asha, bikram}, {asha, chitra}, {bikram, chitra}} {
		if _, err := persistence.AddFriendship(ctx, st.db, pair[0].ID, pair[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	ashaDevice, bikramDevice := newPushDevice(t), newPushDevice(t)
	for _, s := range []struct {
		tok    string
		device *pushDevice
		path   string
	}{{ashaTok, ashaDevice, "/push/asha"}, {bikramTok, bikramDevice, "/push/bikram"}} {
		if status, env := st.call(t, "POST", "/api/push/subscriptions", s.tok, s.device.subscription(ps.URL+s.path)); status != 200 {
			t.Fatalf("subscribe: %d %v", status, env)
		}
	}
	direct := st.conversation(t, bikramTok, map[string]any{"kind": "direct", "userId": asha.ID.String()}, 201)["id"].(string)
	group := st.conversation(t, chitraTok, map[string]any{"kind": "group", "title": "Robotics club",
		"memberIds": []string{asha.ID.String(), bikram.ID.String()}}, 201)["id"].(string)

	queued := func(t *testing.T, conv string) (rows int, wanted int64) {
		t.Helper()
		err := st.db.NewRaw(`SELECT count(*), coalesce(max(wanted_seq), 0) FROM push_outbox WHERE conversation_id = ?`, conv).
			Scan(ctx, &rows, &wanted)
		if err != nil {
			t.Fatal(err)
		}
		return rows, wanted
	}
	payload := func(t *testing.T, r pushRequest) app.PushPayload {
		t.Helper()
		if r.path != "/push/asha" {
			t.Fatalf("pushed to %s, want only Asha's device", r.path)
		}
		plain, err := ashaDevice.decrypt(r.body)
		if err != nil {
			t.Fatalf("decrypt: %v", err)
		}
		var p app.PushPayload
		if err := json.Unmarshal(plain, &p); err != nil {
			t.Fatalf("payload %q: %v", plain, err)
		}
		return p
	}
	noMorePushes := func(t *testing.T) {
		t.Helper()
		select {
		case r := <-ps.got:
			t.Fatalf("an unexpected push to %s", r.path)
		default:
		}
	}
	read := func(t *testing.T, conv string) {
		t.Helper()
		if s, e := st.call(t, "POST", "/api/conversations/"+conv+"/read", ashaTok, map[string]any{"seq": 1000}); s != 200 {
			t.Fatalf("read: %d %v", s, e)
		}
	}

	t.Run("three messages while offline: one row, one push", func(t *testing.T) {
		for _, body := range []string{"are you coming", "to the lab", "at five?"} {
			st.mustSend(t, bikramTok, direct, body)
		}
		if rows, wanted := queued(t, direct); rows != 1 || wanted != 3 {
			t.Fatalf("outbox: %d rows up to seq %d, want 1 up to 3 (Bikram, the sender, gets none)", rows, wanted)
		}
		sender, stop := startSender(t)
		defer stop()
		got := payload(t, ps.next(t))
		want := app.PushPayload{ID: direct, Type: "message", Title: "Push Bikram",
			Body: "3 new messages from Push Bikram", URL: "/messages/" + direct}
		if got != want {
			t.Fatalf("payload %+v, want %+v", got, want)
		}
		waitFor(t, "the push to be settled", func() bool { rows, _ := queued(t, direct); return rows == 0 && sender.Stats().Sent == 1 })
		noMorePushes(t)
		read(t, direct)
	})

	t.Run("one long message: a short snippet", func(t *testing.T) {
		_, stop := startSender(t)
		defer stop()
		long := strings.Repeat("lab notes ", 60)
		st.mustSend(t, bikramTok, direct, long)
		got := payload(t, ps.next(t))
		if n := utf8.RuneCountInString(got.Body); n > 80 || !strings.HasPrefix(got.Body, "lab notes lab") ||
			!strings.HasSuffix(got.Body, "…") {
			t.Fatalf("body %q (%d characters), want the message's first 80 at most, cut with …", got.Body, n)
		}
		waitFor(t, "the push to be settled", func() bool { rows, _ := queued(t, direct); return rows == 0 })
		read(t, direct)
	})

	t.Run("a group: its name as the title, the sender before the text", func(t *testing.T) {
		_, stop := startSender(t)
		defer stop()
		st.mustSend(t, chitraTok, group, "meeting moved to room 4")
		// Bikram has no socket either: both devices get one.
		var mine app.PushPayload
		for range 2 {
			if r := ps.next(t); r.path == "/push/asha" {
				mine = payload(t, r)
			}
		}
		want := app.PushPayload{ID: group, Type: "message", Title: "Robotics club",
			Body: "Push Chitra: meeting moved to room 4", URL: "/messages/" + group}
		if mine != want {
			t.Fatalf("payload %+v, want %+v", mine, want)
		}
		waitFor(t, "the pushes to be settled", func() bool { rows, _ := queued(t, group); return rows == 0 })
		read(t, group)
		if s, e := st.call(t, "POST", "/api/conversations/"+group+"/read", bikramTok, map[string]any{"seq": 1000}); s != 200 {
			t.Fatalf("read: %d %v", s, e)
		}
	})

	t.Run("unsent before the sender came: nothing pushed", func(t *testing.T) {
		m := st.mustSend(t, bikramTok, direct, "oops, wrong person")
		if s, e := st.call(t, "DELETE", "/api/conversations/"+direct+"/messages/"+fmt.Sprint(m["seq"]), bikramTok, nil); s != 200 {
			t.Fatalf("unsend: %d %v", s, e)
		}
		if rows, _ := queued(t, direct); rows != 1 {
			t.Fatalf("outbox: %d rows, want the one the send queued", rows)
		}
		sender, stop := startSender(t)
		defer stop()
		waitFor(t, "the push to be skipped", func() bool { rows, _ := queued(t, direct); return rows == 0 && sender.Stats().Skipped == 1 })
		noMorePushes(t)
	})

	t.Run("muted: nothing queued", func(t *testing.T) {
		if s, e := st.call(t, "PATCH", "/api/conversations/"+direct, ashaTok, map[string]any{"muted": true}); s != 200 {
			t.Fatalf("mute: %d %v", s, e)
		}
		st.mustSend(t, bikramTok, direct, "are you there")
		if rows, _ := queued(t, direct); rows != 0 {
			t.Fatalf("outbox: %d rows for a muted conversation", rows)
		}
		if s, e := st.call(t, "PATCH", "/api/conversations/"+direct, ashaTok, map[string]any{"muted": false}); s != 200 {
			t.Fatalf("unmute: %d %v", s, e)
		}
		read(t, direct)
	})

	t.Run("a socket open: not pushed", func(t *testing.T) {
		sender, stop := startSender(t)
		defer stop()
		ws := st.connect(t, ashaTok)
		defer ws.Close()
		waitFor(t, "Asha to be online", func() bool {
			on, err := st.live.Online(ctx, asha.ID)
			return err == nil && on
		})
		st.mustSend(t, bikramTok, direct, "see you there")
		until(t, ws, "the message", newMessage(direct, "see you there"))
		waitFor(t, "the push to be skipped", func() bool { rows, _ := queued(t, direct); return rows == 0 && sender.Stats().Skipped == 1 })
		if s := sender.Stats(); s.Sent != 0 {
			t.Fatalf("sent %d pushes to a member with a socket open", s.Sent)
		}
		noMorePushes(t)
	})
}
