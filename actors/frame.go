package actors

import (
	"encoding/json"
	"fmt"
)

// Frame encodes one websocket text frame of DESIGN §6:
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

// Events the grains produce themselves (the personal events and
// notifications are rendered by Config.Render).
const (
	EventPostLikes    = "post:likes"
	EventPostComments = "post:comments"
	EventPostDeleted  = "post:deleted"
)

type postLikes struct {
	PostID     string `json:"postId"`
	LikesCount int    `json:"likesCount"`
}

type postComments struct {
	PostID        string `json:"postId"`
	CommentsCount int    `json:"commentsCount"`
}

type postDeleted struct {
	PostID string `json:"postId"`
}
