package actors

import (
	"encoding/json"
	"fmt"
)

// Frame encodes one websocket text frame of docs/protocol.md §2.2:
// {"event":"name","data":{…}}. Frames are encoded once and the same bytes go
// to every socket, so a fan-out costs no copies.
func Frame(event string, data any) ([]byte, error) {
	if data == nil {
		data = struct{}{}
	}
	b, err := json.Marshal(struct {
		Event string `json:"event"`
		Data  any    `json:"data"`
	}{event, data})
	if err != nil {
		return nil, fmt.Errorf("actors: encode %s frame: %w", event, err)
	}
	return b, nil
}

// EventPostDeleted tells a post's watchers it is gone; the live counts are
// EventPostCounts (counts.go).
const EventPostDeleted = "post:deleted"

type postDeleted struct {
	PostID string `json:"postId"`
}
