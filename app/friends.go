package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
)

// List sizes of the friends area. Friend lists are shown whole and searched
// on the device (docs/product.md §2.14), so their pages are large.
const (
	friendsPageDefault  = 500
	friendsPageMax      = 1000
	requestsPageDefault = 100
	requestsPageMax     = 100
	suggestionsLimit    = 20
	// pushTimeout bounds a live push after a commit; the REST state is the
	// truth, so a slow push is dropped rather than waited for.
	pushTimeout = 2 * time.Second
)

var (
	errRequestToSelf     = domain.InvalidField("receiverId", "You cannot send a friend request to yourself")
	errReceiverRequired  = domain.InvalidField("receiverId", "receiverId is required")
	errAlreadyFriends    = domain.Conflict("You are already friends with this user")
	errAlreadySent       = domain.Conflict("Friend request already sent")
	errRequestNotFound   = domain.NotFound("Friend request not found")
	errRequestNotPending = domain.Conflict("This friend request is no longer pending")
	errOnlyReceiver      = domain.Forbidden("Only the person who received this friend request can answer it")
	errOnlySender        = domain.Forbidden("Only the person who sent this friend request can cancel it")
	errNotFriends        = domain.NotFound("You are not friends with this user")
)

// FriendsDeps are what the friend use cases need. Pusher may be nil (no
// live events: clients still see everything on their next fetch).
type FriendsDeps struct {
	DB     *bun.DB
	Pusher Pusher
	// Brakes limit new accounts' friend requests; nil: no brakes.
	Brakes *Brakes
	// Messages, when set, tells the two people of a direct conversation
	// that a friendship made or ended changed whether they can write there.
	Messages *Messages
	Log      zerolog.Logger
}

// Friends is friend requests, friendships and suggestions (docs/product.md §7.4).
type Friends struct {
	d FriendsDeps
}

// NewFriends wires the friend use cases.
func NewFriends(d FriendsDeps) *Friends {
	return &Friends{d: d}
}

// FriendRequestView is a friend request as docs/product.md §3 has it.
type FriendRequestView struct {
	ID        string      `json:"id"`
	Sender    UserSummary `json:"sender"`
	Receiver  UserSummary `json:"receiver"`
	Status    string      `json:"status"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
}

func newRequestView(r *persistence.FriendRequest, sender, receiver *persistence.User) FriendRequestView {
	return FriendRequestView{
		ID: r.ID.String(), Sender: NewUserSummary(sender), Receiver: NewUserSummary(receiver),
		Status: r.Status, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// FriendRequestResult answers send, accept, decline and cancel.
type FriendRequestResult struct {
	FriendRequest FriendRequestView `json:"friendRequest"`
	Message       string            `json:"message"`
}

// FriendsResult answers the friend lists: data.friends.
type FriendsResult struct {
	Friends    []UserSummary `json:"friends"`
	NextCursor *string       `json:"nextCursor"`
}

// PendingRequestsResult answers GET /friends/pending-requests.
type PendingRequestsResult struct {
	PendingRequests []FriendRequestView `json:"pendingRequests"`
	NextCursor      *string             `json:"nextCursor"`
}

// SentRequestsResult answers GET /friends/sent-requests.
type SentRequestsResult struct {
	SentRequests []FriendRequestView `json:"sentRequests"`
	NextCursor   *string             `json:"nextCursor"`
}

// SuggestionView is one "people you may know" entry (docs/product.md §3).
type SuggestionView struct {
	User          UserSummary `json:"user"`
	MutualFriends int         `json:"mutualFriends"`
	// Relevance lists what is shared besides friends: course, batch, role.
	Relevance []string `json:"relevance"`
	// Priority is the rank's score: 8 per mutual friend, 4 for the course,
	// 2 for the batch, 1 for the role, so mutual friends always win.
	Priority int `json:"priority"`
}

// FriendCheck answers GET /friends/check/{id}. RequestID is the pending
// request between the two, if any, for a Cancel or Accept button.
type FriendCheck struct {
	IsFriend        bool   `json:"isFriend"`
	RequestSent     bool   `json:"requestSent"`
	RequestReceived bool   `json:"requestReceived"`
	RequestID       string `json:"requestId,omitempty"`
}

// UnfriendResult answers DELETE /friends/unfriend/{id}.
type UnfriendResult struct {
	Message string `json:"message"`
	UserID  string `json:"userId"`
}

// SendRequestInput is the body of POST /friends/send-request.
type SendRequestInput struct {
	ReceiverID string `json:"receiverId"`
}

// List is the caller's friends by name.
func (a *Friends) List(ctx context.Context, p Principal, limit int, cursor string) (FriendsResult, error) {
	return a.friendsOf(ctx, p.UserID, limit, cursor)
}

// UserFriends is user id's friends by name.
func (a *Friends) UserFriends(ctx context.Context, p Principal, id uuid.UUID, limit int, cursor string) (FriendsResult, error) {
	if blocked, err := blockedWith(ctx, a.d.DB, p.UserID, id); err != nil {
		return FriendsResult{}, err
	} else if blocked {
		return FriendsResult{}, errUserNotFound
	}
	if id != p.UserID {
		if _, err := persistence.VerifiedUserByID(ctx, a.d.DB, id); err != nil {
			if isNotFound(err) {
				return FriendsResult{}, errUserNotFound
			}
			return FriendsResult{}, err
		}
	}
	return a.friendsOf(ctx, id, limit, cursor)
}

func (a *Friends) friendsOf(ctx context.Context, id uuid.UUID, limit int, cursor string) (FriendsResult, error) {
	limit = keysetLimit(limit, friendsPageDefault, friendsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return FriendsResult{}, err
	}
	users, err := persistence.FriendsOf(ctx, a.d.DB, id, after, limit+1)
	if err != nil {
		return FriendsResult{}, err
	}
	res := FriendsResult{Friends: make([]UserSummary, 0, min(len(users), limit))}
	if len(users) > limit {
		last := users[limit-1]
		next := encodeKeyset(persistence.Keyset{Key: strings.ToLower(last.Name), ID: last.ID})
		res.NextCursor = &next
		users = users[:limit]
	}
	for i := range users {
		res.Friends = append(res.Friends, NewUserSummary(&users[i]))
	}
	return res, nil
}

// Pending is the requests the caller received and has not answered.
func (a *Friends) Pending(ctx context.Context, p Principal, limit int, cursor string) (PendingRequestsResult, error) {
	list, next, err := a.requests(ctx, p, persistence.Received, limit, cursor)
	return PendingRequestsResult{PendingRequests: list, NextCursor: next}, err
}

// Sent is the caller's requests still waiting for an answer.
func (a *Friends) Sent(ctx context.Context, p Principal, limit int, cursor string) (SentRequestsResult, error) {
	list, next, err := a.requests(ctx, p, persistence.Sent, limit, cursor)
	return SentRequestsResult{SentRequests: list, NextCursor: next}, err
}

func (a *Friends) requests(ctx context.Context, p Principal, direction string, limit int, cursor string) ([]FriendRequestView, *string, error) {
	limit = keysetLimit(limit, requestsPageDefault, requestsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return nil, nil, err
	}
	rows, err := persistence.PendingRequests(ctx, a.d.DB, p.UserID, direction, after, limit+1)
	if err != nil {
		return nil, nil, err
	}
	var next *string
	if len(rows) > limit {
		last := rows[limit-1]
		c := encodeKeyset(persistence.Keyset{At: last.CreatedAt, ID: last.ID})
		next = &c
		rows = rows[:limit]
	}
	out := make([]FriendRequestView, 0, len(rows))
	for i := range rows {
		out = append(out, newRequestView(&rows[i], rows[i].Sender, rows[i].Receiver))
	}
	return out, next, nil
}

// Suggestions is "people you may know": verified users who are neither the
// caller's friends nor in a pending request with them, ranked by mutual
// friends, then a shared course, batch and role, newest accounts first
// among equals. Everyone else fills the list after the matches.
func (a *Friends) Suggestions(ctx context.Context, p Principal) ([]SuggestionView, error) {
	me, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return nil, err
	}
	rows, err := persistence.Suggestions(ctx, a.d.DB, me, suggestionsLimit)
	if err != nil {
		return nil, err
	}
	out := make([]SuggestionView, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		v := SuggestionView{User: NewUserSummary(&r.User), MutualFriends: r.MutualFriends, Relevance: []string{}}
		v.Priority = 8 * r.MutualFriends
		if r.SameCourse {
			v.Relevance = append(v.Relevance, "course")
			v.Priority += 4
		}
		if r.SameBatch {
			v.Relevance = append(v.Relevance, "batch")
			v.Priority += 2
		}
		if r.SameRole {
			v.Relevance = append(v.Relevance, "role")
			v.Priority++
		}
		out = append(out, v)
	}
	return out, nil
}

// Check tells how the caller stands towards user id.
func (a *Friends) Check(ctx context.Context, p Principal, id uuid.UUID) (FriendCheck, error) {
	if id == p.UserID {
		return FriendCheck{}, nil
	}
	rel, err := persistence.RelationOf(ctx, a.d.DB, p.UserID, id)
	if err != nil {
		return FriendCheck{}, err
	}
	c := FriendCheck{IsFriend: rel.IsFriend, RequestSent: rel.SentID != uuid.Nil, RequestReceived: rel.ReceivedID != uuid.Nil}
	switch {
	case c.RequestSent:
		c.RequestID = rel.SentID.String()
	case c.RequestReceived:
		c.RequestID = rel.ReceivedID.String()
	}
	return c, nil
}

// Send asks in.ReceiverID to be friends. A request crossing one the caller
// already received accepts that one instead. The receiver gets a
// friend_request notification in the same transaction and, after the
// commit, the friend:request and notification events.
func (a *Friends) Send(ctx context.Context, p Principal, in SendRequestInput) (FriendRequestResult, error) {
	raw := strings.TrimSpace(in.ReceiverID)
	if raw == "" {
		return FriendRequestResult{}, errReceiverRequired
	}
	to, err := uuid.Parse(raw)
	if err != nil {
		return FriendRequestResult{}, errUserNotFound
	}
	if to == p.UserID {
		return FriendRequestResult{}, errRequestToSelf
	}
	// Someone blocked either way is, to the other, gone.
	if blocked, err := blockedWith(ctx, a.d.DB, p.UserID, to); err != nil {
		return FriendRequestResult{}, err
	} else if blocked {
		return FriendRequestResult{}, errUserNotFound
	}
	if err := a.d.Brakes.check(ctx, p.UserID, brakeRequest); err != nil {
		return FriendRequestResult{}, err
	}
	var (
		req      *persistence.FriendRequest
		sender   *persistence.User
		receiver *persistence.User
		notice   *persistence.Notification
		accepted bool
	)
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if sender, err = persistence.UserByID(ctx, tx, p.UserID); err != nil {
			return err
		}
		if receiver, err = persistence.VerifiedUserByID(ctx, tx, to); err != nil {
			if isNotFound(err) {
				return errUserNotFound
			}
			return err
		}
		if err := persistence.LockFriendPair(ctx, tx, p.UserID, to); err != nil {
			return err
		}
		if friends, err := persistence.AreFriends(ctx, tx, p.UserID, to); err != nil {
			return err
		} else if friends {
			return errAlreadyFriends
		}
		if _, err := persistence.PendingRequest(ctx, tx, p.UserID, to); err == nil {
			return errAlreadySent
		} else if !isNotFound(err) {
			return err
		}
		crossing, err := persistence.PendingRequest(ctx, tx, to, p.UserID)
		switch {
		case err == nil:
			// They asked first: asking back is saying yes.
			req, accepted = crossing, true
			notice, err = a.accept(ctx, tx, crossing)
			return err
		case !isNotFound(err):
			return err
		}
		req = &persistence.FriendRequest{ID: persistence.NewID(), SenderID: p.UserID, ReceiverID: to}
		if err := persistence.InsertFriendRequest(ctx, tx, req); err != nil {
			if persistence.IsPendingPairConflict(err) {
				return errAlreadySent
			}
			return err
		}
		notice = &persistence.Notification{UserID: to, Type: persistence.NotifyFriendRequest, SenderID: p.UserID}
		return persistence.InsertNotification(ctx, tx, notice)
	})
	if err != nil {
		return FriendRequestResult{}, err
	}
	if accepted {
		// The request was theirs: they are its sender, the caller accepted.
		a.pushPersonal(ctx, to, protocol.EventFriendAccept, sender, notice)
		a.pairChanged(ctx, p.UserID, to)
		return FriendRequestResult{FriendRequest: newRequestView(req, receiver, sender), Message: "Friend request accepted"}, nil
	}
	a.pushPersonal(ctx, to, protocol.EventFriendRequest, sender, notice)
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("receiver_id", to.String()).Msg("friend request sent")
	return FriendRequestResult{FriendRequest: newRequestView(req, sender, receiver), Message: "Friend request sent"}, nil
}

// accept makes the request's two users friends, marks it accepted, files
// the sender's friend_accepted notification and marks the receiver's
// friend_request notification read. The pair must be locked.
func (a *Friends) accept(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest) (*persistence.Notification, error) {
	if err := persistence.SetRequestStatus(ctx, tx, r, persistence.RequestAccepted); err != nil {
		return nil, err
	}
	if _, err := persistence.AddFriendship(ctx, tx, r.SenderID, r.ReceiverID); err != nil {
		return nil, err
	}
	if err := persistence.ReadFriendRequestNotifications(ctx, tx, r.ReceiverID, r.SenderID); err != nil {
		return nil, err
	}
	n := &persistence.Notification{UserID: r.SenderID, Type: persistence.NotifyFriendAccepted, SenderID: r.ReceiverID}
	if err := persistence.InsertNotification(ctx, tx, n); err != nil {
		return nil, err
	}
	return n, nil
}

// Accept accepts a request the caller received. id is the request's id (or,
// leniently, the sender's user id). Accepting twice answers the same.
func (a *Friends) Accept(ctx context.Context, p Principal, id uuid.UUID) (FriendRequestResult, error) {
	var notice *persistence.Notification
	res, err := a.answer(ctx, p, id, func(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest) error {
		if r.ReceiverID != p.UserID {
			return errOnlyReceiver
		}
		switch r.Status {
		case persistence.RequestAccepted:
			return nil
		case persistence.RequestPending:
		default:
			return errRequestNotPending
		}
		var err error
		notice, err = a.accept(ctx, tx, r)
		return err
	})
	if err != nil {
		return FriendRequestResult{}, err
	}
	if notice != nil {
		a.pushPersonal(ctx, res.senderID, protocol.EventFriendAccept, res.receiver, notice)
		a.pairChanged(ctx, res.senderID, p.UserID)
	}
	return FriendRequestResult{FriendRequest: res.view, Message: "Friend request accepted"}, nil
}

// Decline turns down a request the caller received; its notification goes.
func (a *Friends) Decline(ctx context.Context, p Principal, id uuid.UUID) (FriendRequestResult, error) {
	res, err := a.answer(ctx, p, id, func(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest) error {
		if r.ReceiverID != p.UserID {
			return errOnlyReceiver
		}
		return a.close(ctx, tx, r, persistence.RequestDeclined)
	})
	if err != nil {
		return FriendRequestResult{}, err
	}
	a.pushRemoved(ctx, res.senderID, res.receiver, res.view.ID, RemovedDeclined)
	return FriendRequestResult{FriendRequest: res.view, Message: "Friend request declined"}, nil
}

// Cancel withdraws a request the caller sent; the receiver's notification
// of it goes. id is the request's id (or, leniently, the receiver's id).
func (a *Friends) Cancel(ctx context.Context, p Principal, id uuid.UUID) (FriendRequestResult, error) {
	res, err := a.answer(ctx, p, id, func(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest) error {
		if r.SenderID != p.UserID {
			return errOnlySender
		}
		return a.close(ctx, tx, r, persistence.RequestCancelled)
	})
	if err != nil {
		return FriendRequestResult{}, err
	}
	a.pushRemoved(ctx, res.receiver.ID, res.sender, res.view.ID, RemovedCancelled)
	return FriendRequestResult{FriendRequest: res.view, Message: "Friend request cancelled"}, nil
}

// close ends a pending request with status; repeating the same ending is a
// no-op, any other ending of a closed request is a conflict.
func (a *Friends) close(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest, status string) error {
	switch r.Status {
	case status:
		return nil
	case persistence.RequestPending:
	default:
		return errRequestNotPending
	}
	if err := persistence.SetRequestStatus(ctx, tx, r, status); err != nil {
		return err
	}
	return persistence.DeleteFriendRequestNotifications(ctx, tx, r.ReceiverID, r.SenderID)
}

type answered struct {
	view     FriendRequestView
	senderID uuid.UUID
	sender   *persistence.User
	receiver *persistence.User
}

// answer finds the request id names, locks its pair and then the request,
// and runs fn on it in one transaction.
func (a *Friends) answer(ctx context.Context, p Principal, id uuid.UUID,
	fn func(ctx context.Context, tx bun.Tx, r *persistence.FriendRequest) error) (answered, error) {
	var out answered
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, err := a.find(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if err := persistence.LockFriendPair(ctx, tx, r.SenderID, r.ReceiverID); err != nil {
			return err
		}
		if r, err = persistence.LockFriendRequest(ctx, tx, r.ID); err != nil {
			return err
		}
		if err := fn(ctx, tx, r); err != nil {
			return err
		}
		sender, err := persistence.UserByID(ctx, tx, r.SenderID)
		if err != nil {
			return err
		}
		receiver, err := persistence.UserByID(ctx, tx, r.ReceiverID)
		if err != nil {
			return err
		}
		out = answered{view: newRequestView(r, sender, receiver), senderID: r.SenderID, sender: sender, receiver: receiver}
		return nil
	})
	if isNotFound(err) {
		var de *domain.Error
		if errors.As(err, &de) && de.Message != "" {
			return answered{}, err
		}
		return answered{}, errRequestNotFound
	}
	return out, err
}

// find is the request with this id or, failing that, the pending request
// between the caller and the user with this id. It takes no lock: answer
// locks the pair first, then the request, the same order everywhere.
func (a *Friends) find(ctx context.Context, tx bun.Tx, p Principal, id uuid.UUID) (*persistence.FriendRequest, error) {
	r := new(persistence.FriendRequest)
	err := tx.NewSelect().Model(r).Where("fr.id = ?", id).Scan(ctx)
	switch {
	case err == nil:
		return r, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("app: find friend request: %w", err)
	}
	rel, err := persistence.RelationOf(ctx, tx, p.UserID, id)
	if err != nil {
		return nil, err
	}
	switch {
	case rel.ReceivedID != uuid.Nil:
		r.ID = rel.ReceivedID
	case rel.SentID != uuid.Nil:
		r.ID = rel.SentID
	default:
		return nil, errRequestNotFound
	}
	if err := tx.NewSelect().Model(r).WherePK().Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errRequestNotFound
		}
		return nil, fmt.Errorf("app: find friend request: %w", err)
	}
	return r, nil
}

// Unfriend ends the caller's friendship with user id.
func (a *Friends) Unfriend(ctx context.Context, p Principal, id uuid.UUID) (UnfriendResult, error) {
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.LockFriendPair(ctx, tx, p.UserID, id); err != nil {
			return err
		}
		ok, err := persistence.RemoveFriendship(ctx, tx, p.UserID, id)
		if err != nil {
			return err
		}
		if !ok {
			return errNotFriends
		}
		return nil
	})
	if err != nil {
		return UnfriendResult{}, err
	}
	if me, err := persistence.UserByID(ctx, a.d.DB, p.UserID); err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", id.String()).Msg("unfriend not pushed")
	} else {
		a.pushRemoved(ctx, id, me, "", RemovedUnfriended)
	}
	a.pairChanged(ctx, p.UserID, id)
	return UnfriendResult{Message: "Friend removed", UserID: id.String()}, nil
}

// pushRemoved tells to, live, that from ended their request or friendship
// (friend:removed), so that to's lists, buttons and suggestions change
// without a reload. After the commit; failures are logged only.
func (a *Friends) pushRemoved(ctx context.Context, to uuid.UUID, from *persistence.User, requestID, reason string) {
	if a.d.Pusher == nil || from == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	ev := FriendRemovedEvent{FromUser: NewUserRef(from), UserID: from.ID.String(), RequestID: requestID, Reason: reason}
	if err := a.d.Pusher.PushToUser(ctx, to, protocol.EventFriendRemoved, ev); err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", to.String()).Str("event", protocol.EventFriendRemoved).Msg("live push failed")
	}
}

// pushPersonal tells to, live, that from did something (event) and sends
// the notification it left with the recipient's unread count. It runs
// after the commit; failures are logged, never returned: the rows are the
// truth and clients re-fetch.
func (a *Friends) pushPersonal(ctx context.Context, to uuid.UUID, event string, from *persistence.User, n *persistence.Notification) {
	if a.d.Pusher == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	if err := a.d.Pusher.PushToUser(ctx, to, event, PersonalEvent{FromUser: NewUserRef(from)}); err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", to.String()).Str("event", event).Msg("live push failed")
	}
	if n == nil {
		return
	}
	unread, err := persistence.UnreadNotificationCount(ctx, a.d.DB, to)
	if err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", to.String()).Msg("unread count for live push")
		return
	}
	if len(n.Actors) == 0 && from != nil {
		n.Actors = []*persistence.User{from}
	}
	ev := NotificationEvent{NotificationView: NewNotificationView(n), UnreadCount: unread}
	if err := a.d.Pusher.PushToUser(ctx, to, protocol.EventNotification, ev); err != nil {
		a.d.Log.Warn().Err(err).Str("user_id", to.String()).Str("event", protocol.EventNotification).Msg("live push failed")
	}
}

// pairChanged tells x and y their direct conversation's state after their
// friendship began or ended (whether one who takes messages from friends
// only still accepts the other's), both at once after the commit.
func (a *Friends) pairChanged(ctx context.Context, x, y uuid.UUID) {
	if a.d.Messages != nil {
		a.d.Messages.PairChanged(ctx, x, y)
	}
}
