package realtime

import (
	"encoding/json"
	"io"
	"time"

	"github.com/google/uuid"

	"campus/actors"
)

// Client frame limits (DESIGN §6, §10).
const (
	// MaxFrame is the largest frame a client may send; a larger one is
	// answered with an error frame.
	MaxFrame = 16 << 10
	// readLimit is where the socket itself gives up (close 1009): reading
	// and discarding gigabytes to answer politely is not worth it.
	readLimit = 1 << 20
	// MaxWatched caps the posts one connection watches.
	MaxWatched = 200
)

// Client → server events (DESIGN §6).
const (
	evTest    = "test"
	evWatch   = "watch"
	evUnwatch = "unwatch"
	evAuth    = "auth"
)

// Server → client events produced here.
const (
	evReady        = "ready"
	evTestResponse = "test:response"
	evError        = "error"
)

// ignoredEvents are what the spec's client emits and the server accepts
// without acting: the server pushes the authoritative event itself when the
// REST call commits, so a client can never forge one for someone else.
var ignoredEvents = map[string]bool{
	evAuth: true, "friend:request": true, "friend:accept": true,
	"post:like": true, "post:comment": true,
}

// Error frame messages.
const (
	msgFrameTooLarge = "Frame too large: the limit is 16 KiB."
	msgBadFrame      = `Invalid frame: send JSON {"event": "name", "data": {…}}.`
	msgUnknownEvent  = "Unknown event."
	msgBadWatch      = `Invalid watch: send {"postIds": ["…"]}.`
	msgBadPostIDs    = "Some post ids are not valid and were ignored."
	msgTooManyWatch  = "You can watch at most 200 posts at once."
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

// handle answers one client frame: reply is nil when there is nothing to
// say, else the frame to send back; added and removed are the watch changes
// for the hub. Every bad frame gets an error frame; nothing a client sends
// can make it panic.
func (w watchSet) handle(data []byte) (reply []byte, added, removed []uuid.UUID) {
	if len(data) > MaxFrame {
		return errorFrame(msgFrameTooLarge), nil, nil
	}
	var f struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Event == "" {
		return errorFrame(msgBadFrame), nil, nil
	}
	switch {
	case f.Event == evTest:
		fr, _ := actors.Frame(evTestResponse, map[string]any{"message": "ok", "serverTime": time.Now().UTC()})
		return fr, nil, nil
	case f.Event == evWatch || f.Event == evUnwatch:
		return w.watch(f.Event == evWatch, f.Data)
	case ignoredEvents[f.Event]:
		return nil, nil, nil
	default:
		return errorFrame(msgUnknownEvent), nil, nil
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
		case add && !have && len(w) >= MaxWatched:
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
	f, _ := actors.Frame(evError, map[string]string{"message": msg}) // a map of strings always encodes
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
