package realtime

import (
	"encoding/json"
	"io"
	"time"

	"github.com/google/uuid"

	"campus/protocol"
)

// Client frame limits (docs/protocol.md §2, docs/architecture.md §10); the cap on watched posts is
// protocol.MaxWatched.
const (
	// MaxFrame is the largest frame a client may send; a larger one is
	// answered with an error frame.
	MaxFrame = 16 << 10
	// readLimit is where the socket itself gives up (close 1009): reading
	// and discarding gigabytes to answer politely is not worth it.
	readLimit = 1 << 20
)

// Error frame messages.
const (
	msgFrameTooLarge = "Frame too large: the limit is 16 KiB."
	msgBadFrame      = `Invalid frame: send JSON {"event": "name", "data": {…}}.`
	msgUnknownEvent  = "Unknown event."
	msgBadWatch      = `Invalid watch: send {"postIds": ["…"]}.`
	msgBadPostIDs    = "Some post ids are not valid and were ignored."
	msgTooManyWatch  = "You can watch at most 200 posts at once."
	msgBadResume     = `Invalid resume: send {"since": "<RFC 3339 time>"}.`
	msgBadTyping     = `Invalid typing: send {"conversationId": "…"}.`
)

// watchSet is the posts a socket watches: the ones in the client's
// viewport. Owned by the socket's session actor.
type watchSet map[uuid.UUID]struct{}

func (w watchSet) ids() []uuid.UUID {
	ids := make([]uuid.UUID, 0, len(w))
	for id := range w {
		ids = append(ids, id)
	}
	return ids
}

// handled is what one client frame asks of its session.
type handled struct {
	// reply is the frame to send back, nil when there is nothing to say.
	reply []byte
	// added and removed are the watch changes for the hub.
	added, removed []uuid.UUID
	// resume is set by a resume frame: replay what changed since then.
	resume *time.Time
	// typing is set by a typing frame: the conversation the user types in.
	typing uuid.UUID
}

// handle answers one client frame. Every bad frame gets an error frame;
// nothing a client sends can make it panic.
func (w watchSet) handle(data []byte) handled {
	if len(data) > MaxFrame {
		return handled{reply: errorFrame(msgFrameTooLarge)}
	}
	var f struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Event == "" {
		return handled{reply: errorFrame(msgBadFrame)}
	}
	switch {
	case f.Event == protocol.EventTest:
		fr, _ := protocol.Frame(protocol.EventTestResponse, map[string]any{"message": "ok", "serverTime": time.Now().UTC()})
		return handled{reply: fr}
	case f.Event == protocol.EventWatch || f.Event == protocol.EventUnwatch:
		reply, added, removed := w.watch(f.Event == protocol.EventWatch, f.Data)
		return handled{reply: reply, added: added, removed: removed}
	case f.Event == protocol.EventResume:
		var in struct {
			Since time.Time `json:"since"`
		}
		if len(f.Data) == 0 || json.Unmarshal(f.Data, &in) != nil || in.Since.IsZero() {
			return handled{reply: errorFrame(msgBadResume)}
		}
		return handled{resume: &in.Since}
	case f.Event == protocol.EventTyping:
		var in struct {
			ConversationID string `json:"conversationId"`
		}
		if len(f.Data) == 0 || json.Unmarshal(f.Data, &in) != nil {
			return handled{reply: errorFrame(msgBadTyping)}
		}
		id, err := uuid.Parse(in.ConversationID)
		if err != nil {
			return handled{reply: errorFrame(msgBadTyping)}
		}
		return handled{typing: id}
	case protocol.Echoed(f.Event):
		return handled{}
	default:
		return handled{reply: errorFrame(msgUnknownEvent)}
	}
}

// watch adds or removes post ids; valid ids take effect even when the frame
// also carries bad ones or would pass the cap, which the answer then says.
func (w watchSet) watch(add bool, raw json.RawMessage) (reply []byte, added, removed []uuid.UUID) {
	var in struct {
		PostIDs []string `json:"postIds"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &in) != nil || in.PostIDs == nil {
		return errorFrame(msgBadWatch), nil, nil
	}
	bad, full := false, false
	for _, s := range in.PostIDs {
		id, err := uuid.Parse(s)
		if err != nil {
			bad = true
			continue
		}
		_, have := w[id]
		switch {
		case add && !have && len(w) >= protocol.MaxWatched:
			full = true
		case add && !have:
			w[id] = struct{}{}
			added = append(added, id)
		case !add && have:
			delete(w, id)
			removed = append(removed, id)
		}
	}
	switch {
	case full:
		reply = errorFrame(msgTooManyWatch)
	case bad:
		reply = errorFrame(msgBadPostIDs)
	}
	return reply, added, removed
}

func errorFrame(msg string) []byte {
	f, _ := protocol.Frame(protocol.EventError, map[string]string{"message": msg}) // a map of strings always encodes
	return f
}

// readFrame reads a frame of up to MaxFrame bytes; of a larger one it
// answers the first MaxFrame+1 bytes (enough for handle to refuse it) and
// discards the rest.
func readFrame(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFrame+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFrame {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return nil, err
		}
	}
	return data, nil
}
