package realtime

import (
	"campus/protocol"

	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// FuzzFrame feeds arbitrary frames to the client frame handler: it never
// panics, answers only well-formed frames, answers every bad frame with an
// error frame, and never lets the watched set pass the cap.
func FuzzFrame(f *testing.F) {
	for _, seed := range []string{
		`{"event":"test","data":{}}`, `{"event":"watch","data":{"postIds":["` + uuid.NewString() + `"]}}`,
		`{"event":"unwatch","data":{"postIds":[]}}`, `{"event":"watch","data":{"postIds":null}}`,
		`{"event":"auth","data":{"token":"x"}}`, `{"event":"post:comment"}`, `{"event":1}`, `null`, `"x"`,
		`{"event":"watch","data":[1]}`, `{"event":"typing","data":{"conversationId":"` + uuid.NewString() + `"}}`, `{"event":"\u0000"}`, "\xff\xfe", `{"event":"test","data":` + strings.Repeat("[", 5000),
	} {
		f.Add([]byte(seed))
	}
	known := map[string]bool{"test": true, "watch": true, "unwatch": true, "auth": true,
		"friend:request": true, "friend:accept": true, "post:like": true, "post:comment": true, "resume": true, "typing": true}
	f.Fuzz(func(t *testing.T, frame []byte) {
		w := make(watchSet)
		h := w.handle(frame)
		reply, added, removed := h.reply, h.added, h.removed
		var in struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		bad := len(frame) > MaxFrame || json.Unmarshal(frame, &in) != nil || !known[in.Event]
		if len(w) > protocol.MaxWatched || len(added) != len(w) || len(removed) != 0 {
			t.Fatalf("%d watched, %d added, %d removed", len(w), len(added), len(removed))
		}
		if reply == nil {
			if bad || (in.Event == "resume" && h.resume == nil) || (in.Event == "typing" && h.typing == uuid.Nil) {
				t.Fatalf("bad frame %q not answered", frame)
			}
			return
		}
		var out struct {
			Event string         `json:"event"`
			Data  map[string]any `json:"data"`
		}
		if err := json.Unmarshal(reply, &out); err != nil {
			t.Fatalf("reply %q is not JSON", reply)
		}
		if bad && (out.Event != "error" || out.Data["message"] == "") {
			t.Fatalf("bad frame %q answered %q", frame, reply)
		}
	})
}

// TestTypingFrame: a typing frame names a conversation by id; anything
// else is answered with an error frame and types nowhere.
func TestTypingFrame(t *testing.T) {
	id := uuid.New()
	for _, tc := range []struct {
		name, frame string
		want        uuid.UUID
	}{
		{"valid", `{"event":"typing","data":{"conversationId":"` + id.String() + `"}}`, id},
		{"no data", `{"event":"typing"}`, uuid.Nil},
		{"no id", `{"event":"typing","data":{}}`, uuid.Nil},
		{"bad id", `{"event":"typing","data":{"conversationId":"x"}}`, uuid.Nil},
		{"wrong type", `{"event":"typing","data":{"conversationId":5}}`, uuid.Nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := make(watchSet).handle([]byte(tc.frame))
			if h.typing != tc.want {
				t.Fatalf("typing %v, want %v", h.typing, tc.want)
			}
			if (tc.want == uuid.Nil) != (h.reply != nil) {
				t.Fatalf("reply %s", h.reply)
			}
		})
	}
}
