// Package protocol is the websocket protocol of Campus, server side
// (docs/protocol.md): every event name in both directions, the frame
// encoding, the post:counts entry encoder, and the count tick's slots. It is
// the one Go home of what client/src/api/protocol.ts mirrors in the client;
// a frame's data shapes that render app views stay in app, which owns them.
//
// It imports nothing of ours, so every layer that builds or reads frames
// (app, actors, realtime, httpapi's tests) can use it.
package protocol

import (
	"encoding/json"
	"fmt"
)

// Server → client events.
const (
	// EventReady answers a socket's open: who it is and what it may do.
	EventReady = "ready"
	// EventTestResponse answers a client's test frame.
	EventTestResponse = "test:response"
	// EventError answers a client frame the server could not take.
	EventError = "error"

	// EventFriendRequest, EventFriendAccept: someone sent or accepted a
	// friend request (PersonalEvent of app).
	EventFriendRequest = "friend:request"
	EventFriendAccept  = "friend:accept"
	// EventFriendRemoved {fromUser, userId, requestId?, reason}: a request
	// was declined (to its sender) or cancelled (to its receiver), or a
	// friendship ended (to the other one).
	EventFriendRemoved = "friend:removed"
	// EventPostLike, EventPostComment: someone liked or commented on the
	// recipient's post; likes at most once per post and tick, with the
	// newest liker and the roll-up's count.
	EventPostLike    = "post:like"
	EventPostComment = "post:comment"
	// EventPostNew {postId, authorId}: a friend (or the reader on another
	// device) posted; ids only, the client fetches when the reader asks.
	EventPostNew = "post:new"
	// EventPostEdited {postId, content, images, updatedAt}: to the post's
	// watchers, the author's friends and the author.
	EventPostEdited = "post:edited"
	// EventPostDeleted {postId}: to the post's watchers; the hubs forget
	// the post's watches with it.
	EventPostDeleted = "post:deleted"
	// EventPostCounts {posts: [{postId, likesCount, commentsCount,
	// repostsCount, countsVersion}]}: the watched posts whose counts
	// changed, at most one frame per socket and count interval (CountSlots).
	EventPostCounts = "post:counts"
	// EventNotification {…notification, unreadCount}: a new or rolled-up
	// notification, of one of NotificationKinds.
	EventNotification = "notification"

	// EventMessageNew {conversationId, message}: a message was stored; to
	// every socket of every member at once after the commit (not on the
	// counts tick), the sender's own included.
	EventMessageNew = "message:new"
	// EventMessageUpdated {conversationId, message}: a message was edited,
	// unsent, removed or its reactions changed.
	EventMessageUpdated = "message:updated"
	// EventMessageRead {conversationId, userId, seq, unreadTotal?}: a
	// member's read pointer moved; unreadTotal only to the reader's own
	// sockets.
	EventMessageRead = "message:read"
	// EventConversationUpdated {conversation}: created, renamed, members
	// changed or became read-only, as the recipient sees it.
	EventConversationUpdated = "conversation:updated"
	// EventConversationRemoved {conversationId}: the recipient left or was
	// removed.
	EventConversationRemoved = "conversation:removed"
)

// NotificationKinds are the `type`s a notification has on the wire (the
// `notification` event, GET /api/notifications), as the database's check on
// notifications has them. like, profile_like, mention and repost roll up: one
// notification per post (per person for profile_like) re-sent with the same
// id as more people act, its actors the newest of them and actorCount how
// many there are. A mention is someone naming the recipient by @handle in a
// post or in a comment on it; a repost, someone sharing the recipient's
// post to their own friends.
var NotificationKinds = []string{
	"friend_request", "friend_accepted", "like", "comment", "other", "moderation",
	"group_join_request", "group_join_approved", "group_invitation", "group_post", "profile_like", "mention",
	"repost",
}

// EventTyping is both ways: a client sends {conversationId} while its user
// types; the server sends {conversationId, userId, name} to the other
// members (at most one per person and conversation every 2 s, never
// stored; clients show it for 5 s unless renewed).
const EventTyping = "typing"

// Client → server events.
const (
	// EventTest asks for a test:response (a probe of the socket).
	EventTest = "test"
	// EventWatch, EventUnwatch {postIds}: the posts whose counts the socket
	// wants (at most MaxWatched at once).
	EventWatch   = "watch"
	EventUnwatch = "unwatch"
	// EventResume {since}: a reconnecting client asks for the
	// notifications changed since the newest updatedAt it saw.
	EventResume = "resume"
	// EventAuth is sent by older clients and accepted without effect: the
	// token is checked at the handshake.
	EventAuth = "auth"
)

// Echoed reports whether event is one a client may send and the server
// accepts without acting on it: auth, and the personal events the original
// client emitted itself. The server pushes the authoritative event when the
// REST call commits, so a client can never forge one for someone else.
func Echoed(event string) bool {
	switch event {
	case EventAuth, EventFriendRequest, EventFriendAccept, EventPostLike, EventPostComment:
		return true
	}
	return false
}

// MaxWatched caps the posts one socket watches at once.
const MaxWatched = 200

// Frame encodes one websocket text frame: {"event":"name","data":{…}}. A
// nil data is sent as {}. Frames are encoded once and the same bytes go to
// every socket, so a fan-out costs no copies.
func Frame(event string, data any) ([]byte, error) {
	if data == nil {
		data = struct{}{}
	}
	b, err := json.Marshal(struct {
		Event string `json:"event"`
		Data  any    `json:"data"`
	}{event, data})
	if err != nil {
		return nil, fmt.Errorf("protocol: encode %s frame: %w", event, err)
	}
	return b, nil
}

// PostDeleted is the data of post:deleted.
type PostDeleted struct {
	PostID string `json:"postId"`
}
