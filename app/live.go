package app

import (
	"context"
	"time"

	"github.com/google/uuid"

	"campus/persistence"
)

// Pusher sends a live event to every open socket of a user, on whichever
// node they are connected (in production: the user grain, which broadcasts
// to the node hubs). Use cases call it after their transaction commits; a
// failed push loses nothing, because the REST state is the truth and clients
// re-fetch on reconnect.
type Pusher interface {
	PushToUser(ctx context.Context, userID uuid.UUID, event string, data any) error
}

// Websocket event names of DESIGN §6 that use cases push to a person.
const (
	EventFriendRequest = "friend:request"
	EventFriendAccept  = "friend:accept"
	EventPostLike      = "post:like"
	EventPostComment   = "post:comment"
	EventNotification  = "notification"
)

// PersonalEvent is the payload of friend:request, friend:accept, post:like
// and post:comment: who did it and, for the last two, on which post.
type PersonalEvent struct {
	FromUser UserRef `json:"fromUser"`
	PostID   string  `json:"postId,omitempty"`
}

// UserRef is the {id, name, avatar} shape of event senders.
type UserRef struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Avatar Image  `json:"avatar"`
}

// NewUserRef renders u as an event sender.
func NewUserRef(u *persistence.User) UserRef {
	s := NewUserSummary(u)
	return UserRef{ID: s.ID, Name: s.Name, Avatar: s.Avatar}
}

// PostRef is a notification's optional post.
type PostRef struct {
	ID string `json:"id"`
}

// NotificationView is the server form of a notification (spec §3): the list
// of GET /notifications and the `notification` event carry it.
type NotificationView struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Message   string    `json:"message"`
	Sender    *UserRef  `json:"sender,omitempty"`
	Post      *PostRef  `json:"post,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	IsRead    bool      `json:"isRead"`
}

// NotificationEvent is the `notification` websocket event: the new
// notification and the recipient's unread count after it.
type NotificationEvent struct {
	NotificationView
	UnreadCount int `json:"unreadCount"`
}

// NewNotificationView renders n; sender may be nil (system notifications).
// The message is the line a client shows, e.g. "Asha liked your post".
func NewNotificationView(n *persistence.Notification, sender *persistence.User) NotificationView {
	v := NotificationView{ID: n.ID.String(), Type: n.Type, CreatedAt: n.CreatedAt, IsRead: n.IsRead}
	name := "Someone"
	if sender != nil {
		ref := NewUserRef(sender)
		v.Sender = &ref
		name = ref.Name
	}
	if n.PostID != uuid.Nil {
		v.Post = &PostRef{ID: n.PostID.String()}
	}
	switch n.Type {
	case persistence.NotifyFriendRequest:
		v.Message = name + " sent you a friend request"
	case persistence.NotifyFriendAccepted:
		v.Message = name + " accepted your friend request"
	case persistence.NotifyLike:
		v.Message = name + " liked your post"
	case persistence.NotifyComment:
		v.Message = name + " commented on your post"
	case persistence.NotifyModeration:
		v.Message = n.Note
	default:
		v.Message = "You have a new notification"
	}
	return v
}
