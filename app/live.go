package app

import (
	"context"
	"time"

	"github.com/google/uuid"

	"campus/domain"
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

// Fanout sends one live event to many sockets at once, on every node (in
// production actors.Live: one broadcast per node, the frame encoded once).
// Like Pusher it runs after the commit and a lost event loses nothing.
type Fanout interface {
	// PushToUsers reaches every open socket of each of users.
	PushToUsers(ctx context.Context, users []uuid.UUID, event string, data any) error
	// PushToWatchers reaches every socket that watches the post.
	PushToWatchers(ctx context.Context, postID uuid.UUID, event string, data any) error
}

// The events use cases push are named in package protocol (every event of
// the websocket, both ways); their data shapes, which render app views, are
// here.

// PostNewEvent is the post:new payload: ids only, so a post by someone with
// a thousand friends costs a thousand tiny frames, not a thousand renders.
type PostNewEvent struct {
	PostID   string `json:"postId"`
	AuthorID string `json:"authorId"`
}

// PostEditedEvent is the post:edited payload: what an edit can change.
type PostEditedEvent struct {
	PostID    string          `json:"postId"`
	Content   string          `json:"content"`
	Images    []PostImageView `json:"images"`
	UpdatedAt time.Time       `json:"updatedAt"`
	// Mentions are the people the new text names (left out for none).
	Mentions []MentionView `json:"mentions,omitempty"`
}

// Reasons of friend:removed.
const (
	RemovedDeclined   = "declined"
	RemovedCancelled  = "cancelled"
	RemovedUnfriended = "unfriended"
)

// FriendRemovedEvent is the friend:removed payload: FromUser ended the
// relation with the recipient; UserID is FromUser's id (what the client's
// lists key on), RequestID the request that was declined or cancelled.
type FriendRemovedEvent struct {
	FromUser  UserRef `json:"fromUser"`
	UserID    string  `json:"userId"`
	RequestID string  `json:"requestId,omitempty"`
	Reason    string  `json:"reason"`
}

// PersonalEvent is the payload of friend:request, friend:accept, post:like
// and post:comment: who did it and, for the last two, on which post.
type PersonalEvent struct {
	FromUser UserRef `json:"fromUser"`
	PostID   string  `json:"postId,omitempty"`
	// ActorCount is, on post:like, how many people like the post (its
	// notification's roll-up count): likes are pushed at most once per
	// post per tick, with the newest liker as fromUser.
	ActorCount int `json:"actorCount,omitempty"`
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

// PostRef is a notification's optional post, with the start of its text.
type PostRef struct {
	ID      string `json:"id"`
	Snippet string `json:"snippet,omitempty"`
}

// GroupRef is a notification's group.
type GroupRef struct {
	ID     string `json:"id"`
	Handle string `json:"handle"`
	Name   string `json:"name"`
}

// NotificationView is the server form of a notification (docs/product.md §3): the list
// of GET /notifications and the `notification` event carry it. Likes roll
// up: one notification per post, with its newest likers in Actors (newest
// first; Sender is the newest) and how many people like the post in
// ActorCount; Message is the ready line, "Asha and 1,239 others liked your
// post". UpdatedAt moves when a roll-up changes, and lists are ordered by it.
type NotificationView struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Message    string    `json:"message"`
	Sender     *UserRef  `json:"sender,omitempty"`
	Actors     []UserRef `json:"actors"`
	ActorCount int       `json:"actorCount"`
	Post       *PostRef  `json:"post,omitempty"`
	// Group is the group of a group notification.
	Group     *GroupRef `json:"group,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	IsRead    bool      `json:"isRead"`
}

// NotificationEvent is the `notification` websocket event: the new or
// rolled-up notification and the recipient's unread count after it.
type NotificationEvent struct {
	NotificationView
	UnreadCount int `json:"unreadCount"`
}

// NewNotificationView renders n with its actors (n.Actors; none for system
// notifications or when every actor's account is gone).
func NewNotificationView(n *persistence.Notification) NotificationView {
	v := NotificationView{ID: n.ID.String(), Type: n.Type, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt,
		IsRead: n.IsRead, Actors: make([]UserRef, 0, len(n.Actors))}
	if v.UpdatedAt.IsZero() {
		v.UpdatedAt = v.CreatedAt
	}
	for _, a := range n.Actors {
		v.Actors = append(v.Actors, NewUserRef(a))
	}
	if len(v.Actors) > 0 {
		v.Sender = &v.Actors[0]
	}
	v.ActorCount = max(n.ActorCount, len(v.Actors), 1)
	if n.PostID != uuid.Nil {
		v.Post = &PostRef{ID: n.PostID.String(), Snippet: n.PostSnippet}
	}
	name := "Someone"
	if v.Sender != nil {
		name = v.Sender.Name
	}
	if n.GroupID != uuid.Nil {
		v.Group = &GroupRef{ID: n.GroupID.String(), Handle: n.GroupHandle, Name: n.GroupName}
	}
	switch n.Type {
	case persistence.NotifyFriendRequest:
		v.Message = name + " sent you a friend request"
	case persistence.NotifyFriendAccepted:
		v.Message = name + " accepted your friend request"
	case persistence.NotifyLike:
		v.Message = domain.RollupActors(names(v.Actors), v.ActorCount) + " liked your post"
	case persistence.NotifyProfileLike:
		v.Message = domain.RollupActors(names(v.Actors), v.ActorCount) + " liked your profile"
	case persistence.NotifyRepost:
		v.Message = domain.RollupActors(names(v.Actors), v.ActorCount) + " reposted your post"
	case persistence.NotifyComment:
		v.Message = name + " commented on your post"
	case persistence.NotifyMention:
		v.Message = mentionMessage(names(v.Actors), v.ActorCount, n.CommentID != uuid.Nil)
	case persistence.NotifyModeration:
		v.Message = n.Note
	case persistence.NotifyGroupJoinRequest:
		v.Message = name + " asked to join " + n.GroupName
	case persistence.NotifyGroupJoinApproved:
		v.Message = "Your request to join " + n.GroupName + " was approved"
	case persistence.NotifyGroupInvitation:
		v.Message = name + " invited you to join " + n.GroupName
	case persistence.NotifyGroupPost:
		v.Message = name + " posted in " + n.GroupName
	default:
		v.Message = "You have a new notification"
	}
	return v
}

func names(refs []UserRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// mentionMessage is a mention roll-up's line: "Asha mentioned you in a
// post" or "… in a comment" (where the newest mention is), "Asha and 2
// others mentioned you" once several people have.
func mentionMessage(actors []string, count int, inComment bool) string {
	who := domain.RollupActors(actors, count)
	switch {
	case max(count, len(actors)) > 1:
		return who + " mentioned you"
	case inComment:
		return who + " mentioned you in a comment"
	}
	return who + " mentioned you in a post"
}
