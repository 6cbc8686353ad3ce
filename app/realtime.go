package app

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/protocol"
)

// Realtime is what the websocket needs from the app: who a token belongs to,
// and the `ready` greeting.
type Realtime struct {
	db       bun.IDB
	sessions *Sessions
	gates    *Gates
}

// NewRealtime wires the websocket use cases; gates (nil: none) answers the
// watch checks from memory.
func NewRealtime(db bun.IDB, sessions *Sessions, gates *Gates) *Realtime {
	return &Realtime{db: db, sessions: sessions, gates: gates}
}

// ReadyView is the `ready` event: who is connected, their unread
// notifications and their unread messages.
type ReadyView struct {
	UserID         string `json:"userId"`
	UnreadCount    int    `json:"unreadCount"`
	UnreadMessages int    `json:"unreadMessages"`
}

// Connect authenticates a socket's token (ErrBadToken if it is not valid)
// and answers the greeting.
func (r *Realtime) Connect(ctx context.Context, token string) (Principal, ReadyView, error) {
	p, err := r.sessions.Authenticate(ctx, token)
	if err != nil {
		return Principal{}, ReadyView{}, err
	}
	unread, err := persistence.UnreadNotificationCount(ctx, r.db, p.UserID)
	if err != nil {
		return Principal{}, ReadyView{}, err
	}
	messages, err := persistence.UnreadMessagesTotal(ctx, r.db, p.UserID)
	if err != nil {
		return Principal{}, ReadyView{}, err
	}
	return p, ReadyView{UserID: p.UserID.String(), UnreadCount: unread, UnreadMessages: messages}, nil
}

// StillValid re-checks an open socket's token after a revocation: false
// means close the socket.
func (r *Realtime) StillValid(ctx context.Context, token string) (bool, error) {
	_, err := r.sessions.Authenticate(ctx, token)
	if errors.Is(err, ErrBadToken) {
		return false, nil
	}
	return err == nil, err
}

// Watchable answers which of the posts ids a socket of viewer may watch:
// live counts and events of a post must not reach someone with a block
// between them and its author (either way), nor anyone of a removed post.
// A socket asks once per watch frame, for all the posts it lists; a block
// made later drops the watches through the hub (Hub.UsersBlocked).
//
// With gates in use the check costs no query once the posts' gates are
// known: when thousands of sockets connect at once (an event starting, a
// node's sockets reconnecting after a drain) a query per watch frame queued
// behind each other until checks timed out and their watches were dropped.
func (r *Realtime) Watchable(ctx context.Context, viewer uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	if r.gates == nil || r.gates.generation() == 0 {
		return persistence.WatchablePosts(ctx, r.db, viewer, ids)
	}
	out := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		g, err := r.gates.Post(ctx, id, viewer)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !g.Removed && !g.Blocked && !g.GroupLocked && !g.AuthorSuspended {
			out = append(out, id)
		}
	}
	return out, nil
}

// NotificationFrames renders what a new or rolled-up notification pushes to
// its user's sockets (the user grain calls it through actors.Config.Render):
// for a like or a comment the personal event post:like / post:comment from
// the newest actor (a like's with the roll-up's count), then the
// `notification` event with the unread count.
func NotificationFrames(n *persistence.Notification, unread int) ([][]byte, error) {
	var frames [][]byte
	if len(n.Actors) > 0 && n.PostID != uuid.Nil {
		ev := PersonalEvent{FromUser: NewUserRef(n.Actors[0]), PostID: n.PostID.String()}
		var event string
		switch n.Type {
		case persistence.NotifyLike:
			event, ev.ActorCount = protocol.EventPostLike, max(n.ActorCount, 1)
		case persistence.NotifyComment:
			event = protocol.EventPostComment
		}
		if event != "" {
			f, err := protocol.Frame(event, ev)
			if err != nil {
				return nil, err
			}
			frames = append(frames, f)
		}
	}
	f, err := protocol.Frame(protocol.EventNotification, NotificationEvent{NotificationView: NewNotificationView(n), UnreadCount: unread})
	if err != nil {
		return nil, err
	}
	return append(frames, f), nil
}
