package app

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// Defaults of PushSenderOptions.
const (
	defaultPushRetryBase   = 2 * time.Second
	defaultPushRetryMax    = 5 * time.Minute
	defaultPushPoll        = 30 * time.Second
	defaultPushSendTimeout = 10 * time.Second
	// pushTTL is how long a push service keeps a message for a device that
	// is offline: as long as the outbox would have retried it.
	pushTTL = 3600
	// pushDropBatch bounds one clean-up statement.
	pushDropBatch = 500
)

// PushSenderOptions configure a PushSender. Zero durations take defaults.
type PushSenderOptions struct {
	DB  *bun.DB
	Log zerolog.Logger
	// VAPID signs the requests (RFC 8292); Subscriber is the contact the
	// push services see in its token (an e-mail address or https URL).
	VAPID      *ecdh.PrivateKey
	Subscriber string
	// Product is the notification's title.
	Product string
	// Online reports whether the user has a socket open on any node (the
	// live core's Online): such a user got the notification live and is not
	// pushed. An error counts as offline: a duplicate beats a lost push.
	Online func(ctx context.Context, userID uuid.UUID) (bool, error)
	// AllowLoopbackHTTP lets pushes go to loopback addresses (tests); see
	// PushDeps.AllowLoopbackHTTP.
	AllowLoopbackHTTP bool
	// RetryBase is the wait after a push's first failed attempt, doubling
	// up to RetryMax, jittered.
	RetryBase, RetryMax time.Duration
	// Poll is the longest the sender sleeps without looking at the outbox.
	Poll time.Duration
	// SendTimeout bounds one delivery.
	SendTimeout time.Duration
}

// PushStats counts what one sender did since it started.
type PushStats struct {
	// Sent were accepted by the push service; Skipped went unsent because
	// the user was online; Failed are attempts to be retried; Gone are
	// subscriptions the push service said no longer exist (deleted).
	Sent, Skipped, Failed, Gone int64
}

// PushSender delivers the push outbox: a trigger queues one row per new
// notification and subscribed device of its recipient, in the transaction
// that creates the notification, so no use case waits for a push service.
// The sender claims due rows one at a time and, holding the row's lock,
// skips it if the user has a socket open anywhere (they saw it live), or
// sends the notification encrypted to the device (RFC 8291) and deletes the
// row. A 404 or 410 deletes the subscription; other failures retry with
// backoff until the row expires. Every node runs one.
type PushSender struct {
	o                         PushSenderOptions
	client                    *http.Client
	vapidPublic, vapidPrivate string
	outboxLoop

	sent, skipped, failed, gone atomic.Int64
}

// NewPushSender makes a sender; Start runs it.
func NewPushSender(o PushSenderOptions) *PushSender {
	if o.RetryBase <= 0 {
		o.RetryBase = defaultPushRetryBase
	}
	if o.RetryMax <= 0 {
		o.RetryMax = defaultPushRetryMax
	}
	if o.Poll <= 0 {
		o.Poll = defaultPushPoll
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = defaultPushSendTimeout
	}
	transport := &http.Transport{
		DialContext:         pushDialer(o.AllowLoopbackHTTP).DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		// No proxy from the environment: the dial check must see the
		// push service's own address.
		Proxy: nil,
	}
	return &PushSender{
		outboxLoop: newOutboxLoop("push sender", persistence.PushChannel, o.DB, o.Log, o.RetryBase, o.RetryMax, o.Poll),
		o:          o,
		client: &http.Client{
			Transport: transport,
			Timeout:   o.SendTimeout,
			// A redirect would lead the request somewhere the endpoint
			// check never saw.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		vapidPublic:  base64.RawURLEncoding.EncodeToString(o.VAPID.PublicKey().Bytes()),
		vapidPrivate: base64.RawURLEncoding.EncodeToString(o.VAPID.Bytes()),
	}
}

// Start runs the sender and its NOTIFY listener until Stop.
func (s *PushSender) Start() { s.start(s.run) }

// Stop lets a send in flight finish until ctx ends, then abandons it (the
// row stays queued) and returns once the sender and its listener stopped.
func (s *PushSender) Stop(ctx context.Context) { s.stop(ctx, s.run) }

// Stats returns the sender's counters.
func (s *PushSender) Stats() PushStats {
	return PushStats{Sent: s.sent.Load(), Skipped: s.skipped.Load(), Failed: s.failed.Load(), Gone: s.gone.Load()}
}

func (s *PushSender) run() {
	for !s.stopping() {
		s.sleep(s.drain(), true)
	}
}

// drain sends due pushes until none is left and returns how long to sleep.
// A failing push service delays only its own rows (each row backs off on
// its own), so one slow or broken service never holds up the others.
func (s *PushSender) drain() time.Duration {
	ctx := s.hard
	s.dropExpired(ctx)
	for !s.stopping() {
		more, err := s.sendOne(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Error().Err(err).Msg("push sender: outbox")
			}
			return s.backoff(1)
		}
		if !more {
			return s.untilNext(ctx, persistence.NextPushIn)
		}
	}
	return 0
}

// pushOutcome is how one delivery ended.
type pushOutcome int

const (
	pushSent pushOutcome = iota
	pushSkipped
	pushRetry
	pushGone
	pushDropped
)

// sendOne claims one due push and delivers it; more is false when nothing
// was due. A notification's push is sent in the transaction holding the
// row's lock; a message push is leased in a short one and sent after it
// commits (sendMessage), so that new messages never wait on a push service.
func (s *PushSender) sendOne(ctx context.Context) (more bool, err error) {
	var out pushOutcome
	var msg *messagePush
	err = s.o.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		q, err := persistence.ClaimPush(ctx, tx)
		if errors.Is(err, domain.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		more = true
		if q.ConversationID != uuid.Nil {
			msg, out, err = s.prepareMessage(ctx, tx, q)
			return err
		}
		log := s.o.Log.With().Str("push_id", q.ID.String()).Str("user_id", q.UserID.String()).
			Int("attempts", q.Attempts+1).Logger()
		var serr error
		out, serr = s.deliver(ctx, tx, q)
		return s.settle(ctx, tx, q, out, serr, log, func() error { return persistence.PushDone(ctx, tx, q.ID) })
	})
	if err != nil {
		return false, fmt.Errorf("app: push outbox: %w", err)
	}
	if msg != nil {
		out, err = s.sendMessage(ctx, msg)
		if err != nil {
			return false, err
		}
	}
	if more {
		switch out {
		case pushSent:
			s.sent.Add(1)
		case pushSkipped:
			s.skipped.Add(1)
		case pushRetry:
			s.failed.Add(1)
		case pushGone:
			s.gone.Add(1)
		}
	}
	return more, nil
}

// settle records how a delivery of q ended: done removes the row of a
// push that went (or never will), a gone subscription is deleted, a failure
// is rescheduled with backoff.
func (s *PushSender) settle(ctx context.Context, db bun.IDB, q *persistence.QueuedPush, out pushOutcome, serr error,
	log zerolog.Logger, done func() error) error {
	switch out {
	case pushSent, pushSkipped, pushDropped:
		if serr != nil {
			log.Warn().Err(serr).Msg("push sender: push refused, dropped")
		}
		return done()
	case pushGone:
		log.Info().Err(serr).Msg("push sender: subscription gone, deleted")
		return persistence.DeletePushSubscriptionByID(ctx, db, q.SubscriptionID)
	default:
		if ctx.Err() != nil {
			return fmt.Errorf("app: send push: %w", serr) // shutting down: the row stays due
		}
		retry := s.backoff(q.Attempts + 1)
		log.Warn().Err(serr).Int64("retry_in_ms", retry.Milliseconds()).Msg("push sender: delivery failed, will retry")
		return persistence.PushFailed(ctx, db, q.ID, retry)
	}
}

// messagePush is a leased message push on its way out.
type messagePush struct {
	q       *persistence.QueuedPush
	payload PushPayload
}

// prepareMessage decides, holding q's lock, whether the member gets a push
// for q's conversation: not when they are online, left, muted it or read
// everything (the row goes). Otherwise the payload is composed from the
// conversation now and the row leased, to be sent once tx commits.
func (s *PushSender) prepareMessage(ctx context.Context, tx bun.Tx, q *persistence.QueuedPush) (*messagePush, pushOutcome, error) {
	if s.online(ctx, q.UserID) {
		return nil, pushSkipped, persistence.PushDone(ctx, tx, q.ID)
	}
	f, err := persistence.MessagePushFactsOf(ctx, tx, q.ConversationID, q.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, pushSkipped, persistence.PushDone(ctx, tx, q.ID)
	}
	if err != nil {
		return nil, pushRetry, err
	}
	if f.Skip {
		return nil, pushSkipped, persistence.PushDone(ctx, tx, q.ID)
	}
	if err := persistence.LeaseMessagePush(ctx, tx, q.ID, q.WantedSeq, 2*s.o.SendTimeout); err != nil {
		return nil, pushRetry, err
	}
	return &messagePush{q: q, payload: messagePayload(q.ConversationID, f)}, pushSent, nil
}

// sendMessage sends a leased message push and settles its row: a message
// that came meanwhile makes the row due again (MessagePushDone).
func (s *PushSender) sendMessage(ctx context.Context, m *messagePush) (pushOutcome, error) {
	q := m.q
	log := s.o.Log.With().Str("push_id", q.ID.String()).Str("user_id", q.UserID.String()).
		Str("conversation_id", q.ConversationID.String()).Int("attempts", q.Attempts+1).Logger()
	out, serr := pushDropped, error(nil)
	body, err := json.Marshal(m.payload)
	if err != nil {
		serr = fmt.Errorf("app: push payload: %w", err)
	} else {
		out, serr = s.post(ctx, q, body, strings.ReplaceAll(q.ConversationID.String(), "-", ""))
	}
	if out == pushRetry && ctx.Err() != nil {
		// Shutting down: the lease runs out and another sender takes it.
		return out, nil
	}
	err = s.settle(ctx, s.o.DB, q, out, serr, log, func() error {
		return persistence.MessagePushDone(ctx, s.o.DB, q.ID, q.WantedSeq)
	})
	if err != nil {
		return out, fmt.Errorf("app: push outbox: %w", err)
	}
	return out, nil
}

// maxPushSnippet bounds the message text a push carries: the lock screen
// shows it, so no more than a glimpse leaves the server.
const maxPushSnippet = 80

// messagePayload is what the device shows for f: the person (direct) or the
// group's name as the title; one message's snippet, or how many came.
func messagePayload(conv uuid.UUID, f *persistence.MessagePushFacts) PushPayload {
	title, body := f.SenderName, ""
	if f.Kind != domain.ConversationDirect {
		title = f.Title
	}
	switch {
	case f.Unread > 1 && f.Senders == 1:
		body = fmt.Sprintf("%d new messages from %s", f.Unread, f.SenderName)
	case f.Unread > 1:
		body = fmt.Sprintf("%d new messages", f.Unread)
	default:
		body = pushSnippet(f.Body, f.Images)
		if f.Kind != domain.ConversationDirect {
			body = f.SenderName + ": " + body
		}
	}
	return PushPayload{ID: conv.String(), Type: "message", Title: title, Body: body, URL: "/messages/" + conv.String()}
}

// pushSnippet is a message's text on one line, cut to maxPushSnippet
// characters; a message of images only is "Photo" (or "2 photos"), as its
// reply quote and the conversation list show it.
func pushSnippet(body string, images int) string {
	text := strings.Join(strings.Fields(body), " ")
	if text == "" {
		return domain.ImagesOnlyText(images)
	}
	if r := []rune(text); len(r) > maxPushSnippet {
		text = strings.TrimRight(string(r[:maxPushSnippet-1]), " ") + "…"
	}
	return text
}

// online asks whether the user has a socket open anywhere; an error counts
// as offline (a duplicate beats a lost push).
func (s *PushSender) online(ctx context.Context, user uuid.UUID) bool {
	if s.o.Online == nil {
		return false
	}
	on, err := s.o.Online(ctx, user)
	if err != nil {
		s.o.Log.Warn().Err(err).Str("user_id", user.String()).Msg("push sender: presence unknown, pushing")
	}
	return on
}

// PushPayload is the JSON a device receives (decrypted by the browser and
// shown by the service worker, client/src/sw.ts).
type PushPayload struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the page a click opens.
	URL string `json:"url"`
}

// deliver sends q's notification unless the user is online or the
// notification is gone. A non-nil error comes with pushRetry, pushGone or
// pushDropped and says why.
func (s *PushSender) deliver(ctx context.Context, tx bun.Tx, q *persistence.QueuedPush) (pushOutcome, error) {
	if s.online(ctx, q.UserID) {
		return pushSkipped, nil
	}
	n, err := persistence.NotificationByID(ctx, tx, q.NotificationID)
	if errors.Is(err, domain.ErrNotFound) {
		return pushSkipped, nil
	}
	if err != nil {
		return pushRetry, err
	}
	if n.IsRead {
		// Read on another device meanwhile.
		return pushSkipped, nil
	}
	body, err := json.Marshal(s.payload(n))
	if err != nil {
		return pushDropped, fmt.Errorf("app: push payload: %w", err)
	}
	return s.post(ctx, q, body, strings.ReplaceAll(q.NotificationID.String(), "-", ""))
}

// post sends body encrypted to q's device; topic lets the push service
// replace an undelivered push of the same topic with this one.
func (s *PushSender) post(ctx context.Context, q *persistence.QueuedPush, body []byte, topic string) (pushOutcome, error) {
	// The SSRF rule again at send time: the flag may have been turned off
	// since the row was stored.
	if err := ValidPushEndpoint(q.Endpoint, s.o.AllowLoopbackHTTP); err != nil {
		return pushGone, err
	}
	sctx, cancel := context.WithTimeout(ctx, s.o.SendTimeout)
	defer cancel()
	res, err := webpush.SendNotificationWithContext(sctx, body, &webpush.Subscription{
		Endpoint: q.Endpoint, Keys: webpush.Keys{P256dh: q.P256dh, Auth: q.Auth},
	}, &webpush.Options{
		HTTPClient:      s.client,
		Subscriber:      s.o.Subscriber,
		TTL:             pushTTL,
		Urgency:         webpush.UrgencyNormal,
		Topic:           topic,
		VAPIDPublicKey:  s.vapidPublic,
		VAPIDPrivateKey: s.vapidPrivate,
	})
	if err != nil {
		if errors.Is(err, errPrivateAddr) {
			// The endpoint's name leads to an address that is not public.
			return pushGone, err
		}
		return pushRetry, fmt.Errorf("app: push: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10))
	switch code := res.StatusCode; {
	case code >= 200 && code < 300:
		return pushSent, nil
	case code == http.StatusNotFound || code == http.StatusGone:
		return pushGone, fmt.Errorf("app: push service answered %d", code)
	case code == http.StatusTooManyRequests || code >= 500:
		return pushRetry, fmt.Errorf("app: push service answered %d", code)
	default:
		// 400, 401, 403, 413: this request will never be accepted.
		return pushDropped, fmt.Errorf("app: push service answered %d", code)
	}
}

// payload is what the device shows for n.
func (s *PushSender) payload(n *persistence.Notification) PushPayload {
	v := NewNotificationView(n)
	url := "/"
	switch {
	case v.Post != nil:
		url = "/post/" + v.Post.ID
	case n.Type == persistence.NotifyFriendRequest || n.Type == persistence.NotifyFriendAccepted:
		url = "/friends"
	}
	return PushPayload{ID: v.ID, Type: v.Type, Title: s.o.Product, Body: v.Message, URL: url}
}

func (s *PushSender) dropExpired(ctx context.Context) {
	for {
		n, err := persistence.DropExpiredPushes(ctx, s.o.DB, pushDropBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Error().Err(err).Msg("push sender: drop expired pushes")
			}
			return
		}
		if n > 0 {
			s.o.Log.Warn().Int("pushes", n).Msg("push sender: dropped pushes that expired unsent")
		}
		if n < pushDropBatch {
			return
		}
	}
}
