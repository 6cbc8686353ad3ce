package app

import (
	"encoding/json"
	"testing"
	"time"

	"campus/persistence"
	"campus/protocol"
)

func TestNotificationFrames(t *testing.T) {
	sender := &persistence.User{ID: persistence.NewID(), Name: "Asha Rao", AvatarURL: "/media/a.png", Role: "student"}
	post := persistence.NewID()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	type frame struct {
		Event string         `json:"event"`
		Data  map[string]any `json:"data"`
	}
	tests := []struct {
		name   string
		n      *persistence.Notification
		sender *persistence.User
		events []string
		msg    string
	}{
		{"like", &persistence.Notification{Type: persistence.NotifyLike, PostID: post}, sender,
			[]string{protocol.EventPostLike, protocol.EventNotification}, "Asha Rao liked your post"},
		{"rolled-up like", &persistence.Notification{Type: persistence.NotifyLike, PostID: post, ActorCount: 1240,
			Actors: []*persistence.User{sender, {ID: persistence.NewID(), Name: "Ben"}}}, sender,
			[]string{protocol.EventPostLike, protocol.EventNotification}, "Asha Rao and 1,239 others liked your post"},
		{"like of two", &persistence.Notification{Type: persistence.NotifyLike, PostID: post, ActorCount: 2,
			Actors: []*persistence.User{sender, {ID: persistence.NewID(), Name: "Ben"}}}, sender,
			[]string{protocol.EventPostLike, protocol.EventNotification}, "Asha Rao and Ben liked your post"},
		{"comment", &persistence.Notification{Type: persistence.NotifyComment, PostID: post}, sender,
			[]string{protocol.EventPostComment, protocol.EventNotification}, "Asha Rao commented on your post"},
		{"friend request: notification only", &persistence.Notification{Type: persistence.NotifyFriendRequest}, sender,
			[]string{protocol.EventNotification}, "Asha Rao sent you a friend request"},
		{"no sender", &persistence.Notification{Type: persistence.NotifyLike, PostID: post}, nil,
			[]string{protocol.EventNotification}, "Someone liked your post"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.n.ID, tt.n.CreatedAt = persistence.NewID(), at
			if tt.sender != nil && len(tt.n.Actors) == 0 {
				tt.n.Actors = []*persistence.User{tt.sender}
			}
			raw, err := NotificationFrames(tt.n, 7)
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) != len(tt.events) {
				t.Fatalf("%d frames, want %v", len(raw), tt.events)
			}
			for i, b := range raw {
				var f frame
				if err := json.Unmarshal(b, &f); err != nil || f.Event != tt.events[i] {
					t.Fatalf("frame %s: %v", b, err)
				}
				switch f.Event {
				case protocol.EventNotification:
					if f.Data["unreadCount"] != 7.0 || f.Data["message"] != tt.msg || f.Data["id"] != tt.n.ID.String() ||
						f.Data["isRead"] != false || f.Data["createdAt"] != "2026-01-02T03:04:05Z" ||
						f.Data["actorCount"] != float64(max(tt.n.ActorCount, len(tt.n.Actors), 1)) ||
						len(f.Data["actors"].([]any)) != len(tt.n.Actors) {
						t.Fatalf("notification %v", f.Data)
					}
				default:
					from := f.Data["fromUser"].(map[string]any)
					if f.Data["postId"] != post.String() || from["id"] != sender.ID.String() || from["name"] != "Asha Rao" ||
						from["avatar"].(map[string]any)["url"] != "/media/a.png" ||
						(f.Event == protocol.EventPostLike && f.Data["actorCount"] != float64(max(tt.n.ActorCount, 1))) {
						t.Fatalf("personal event %v", f.Data)
					}
				}
			}
		})
	}
}
