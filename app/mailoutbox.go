package app

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/mail"
	"campus/persistence"
)

// Defaults of MailSenderOptions.
const (
	defaultMailRetryBase   = time.Second
	defaultMailRetryMax    = time.Minute
	defaultMailPoll        = 30 * time.Second
	defaultMailSendTimeout = 30 * time.Second
	// mailDropBatch bounds one clean-up statement.
	mailDropBatch = 500
)

// MailSenderOptions configure a MailSender. Zero durations take defaults.
type MailSenderOptions struct {
	DB     *bun.DB
	Mailer mail.Mailer
	Log    zerolog.Logger
	// RetryBase is the wait after the first failed attempt; it doubles with
	// each further failure, up to RetryMax, each wait jittered so that nodes
	// and messages do not retry in step.
	RetryBase, RetryMax time.Duration
	// Poll is the longest the sender sleeps without looking at the outbox,
	// in case a NOTIFY was lost while its listener reconnected.
	Poll time.Duration
	// SendTimeout bounds one delivery.
	SendTimeout time.Duration
}

// MailStats counts what one sender did since it started.
type MailStats struct {
	Sent, Failed, Dropped int64
}

// MailSender delivers the mail outbox (persistence.QueuedMail): the use
// cases write a mail in the same transaction as the code it carries and
// call Wake after the commit; the sender claims due rows one at a time,
// sends each while holding its row lock, and deletes it once the SMTP server
// accepted it. While the server is down it retries with exponential backoff
// and jitter; a mail whose code expired or was replaced is dropped unsent.
// Every node runs one; rows are shared, so any node may send any mail, and
// a NOTIFY from the outbox trigger wakes every node.
type MailSender struct {
	outboxLoop
	o MailSenderOptions

	sent, failed, dropped atomic.Int64
	// failing is set while this node's deliveries fail (the last attempt
	// failed), for the readiness answer's mail state.
	failing atomic.Bool
}

// NewMailSender makes a sender; Start runs it.
func NewMailSender(o MailSenderOptions) *MailSender {
	if o.RetryBase <= 0 {
		o.RetryBase = defaultMailRetryBase
	}
	if o.RetryMax <= 0 {
		o.RetryMax = defaultMailRetryMax
	}
	if o.Poll <= 0 {
		o.Poll = defaultMailPoll
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = defaultMailSendTimeout
	}
	return &MailSender{
		outboxLoop: newOutboxLoop("mail sender", persistence.MailChannel, o.DB, o.Log, o.RetryBase, o.RetryMax, o.Poll),
		o:          o,
	}
}

// Start runs the sender and its NOTIFY listener until Stop.
func (s *MailSender) Start() { s.start(s.run) }

// Stop lets a send in flight finish until ctx ends, then abandons it (its
// row stays locked only until the transaction rolls back, and is sent
// later, by this node or another) and returns once the sender and its
// listener have stopped: the database may be closed after that.
func (s *MailSender) Stop(ctx context.Context) { s.stop(ctx, s.run) }

// Stats returns the sender's counters.
func (s *MailSender) Stats() MailStats {
	return MailStats{Sent: s.sent.Load(), Failed: s.failed.Load(), Dropped: s.dropped.Load()}
}

// ErrMailFailing is the readiness answer's mail state while this node's
// deliveries fail: mail waits in the outbox, retried.
var ErrMailFailing = errors.New("app: mail deliveries are failing; mail waits in the outbox")

// Health answers ErrMailFailing while this node's last delivery attempt
// failed, nil once one succeeds again (and before any attempt).
func (s *MailSender) Health() error {
	if s.failing.Load() {
		return ErrMailFailing
	}
	return nil
}

// run is the sender's loop: drain what is due, then sleep until woken, the
// next retry is due, or the poll interval passes. While deliveries fail,
// wake-ups are ignored until the backoff is over, so a burst of signups
// during an outage does not hammer a server that is down.
func (s *MailSender) run() {
	failures := 0 // consecutive failed deliveries on this node
	for !s.stopping() {
		wait := s.drain(&failures)
		s.sleep(wait, failures == 0)
	}
}

// mailOutcome is what one claim did.
type mailOutcome int

const (
	mailIdle    mailOutcome = iota // nothing due
	mailSent                       // delivered and deleted
	mailFailed                     // rescheduled after a failure that may pass
	mailDropped                    // deleted unsent: undeliverable
)

// drain sends due mail until none is left or a delivery fails, and returns
// how long to sleep before looking again.
func (s *MailSender) drain(failures *int) time.Duration {
	ctx := s.hard
	s.dropUseless(ctx)
	for !s.stopping() {
		out, err := s.sendOne(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Error().Err(err).Msg("mail sender: outbox")
			}
			// The database is unreachable or failing: back off as if the
			// SMTP server were.
			*failures++
			return s.backoff(*failures)
		}
		switch out {
		case mailIdle:
			if *failures > 0 {
				// Still failing, and wake-ups ignored: new mail waits no
				// longer than the backoff.
				return min(s.untilNext(ctx, persistence.NextMailIn), s.backoff(*failures))
			}
			return s.untilNext(ctx, persistence.NextMailIn)
		case mailFailed:
			*failures++
			return s.backoff(*failures)
		case mailSent:
			if *failures > 0 {
				// The server is back: what waited out its backoff is due now.
				*failures = 0
				if _, err := persistence.RetryMailNow(ctx, s.o.DB); err != nil && ctx.Err() == nil {
					s.o.Log.Error().Err(err).Msg("mail sender: retry waiting mail")
				}
			}
		}
	}
	return 0
}

// sendOne claims the oldest due mail, sends it and records the result, all
// in one transaction that holds the row's lock throughout: no other sender
// can claim the row meanwhile, and once the transaction commits the row is
// gone (delivered) or scheduled for later (failed).
//
// Delivery is exactly-once except across one window: if this process dies,
// or the commit fails, after the SMTP server accepted the message but before
// the DELETE commits, the lock is released with the row intact and the mail
// is sent again, with the same Message-ID. At-least-once there is the price
// of not sending while no transaction holds the row.
func (s *MailSender) sendOne(ctx context.Context) (mailOutcome, error) {
	out := mailIdle
	err := s.o.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		m, err := persistence.ClaimMail(ctx, tx)
		if errors.Is(err, domain.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		sctx, cancel := context.WithTimeout(ctx, s.o.SendTimeout)
		serr := s.o.Mailer.Send(sctx, mail.Message{
			ID: m.ID.String(), To: m.Recipient, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
		})
		cancel()
		log := s.o.Log.With().Str("mail_id", m.ID.String()).Str("kind", m.Kind).
			Int("attempts", m.Attempts+1).Logger()
		if m.UserID != uuid.Nil {
			log = log.With().Str("user_id", m.UserID.String()).Logger()
		}
		switch {
		case serr == nil:
			out = mailSent
			return persistence.MailDone(ctx, tx, m.ID)
		case ctx.Err() != nil:
			return fmt.Errorf("app: send mail: %w", serr) // shutting down: roll back, the row stays due
		case mail.Permanent(serr):
			// Never logs the message itself: its body holds the code.
			log.Warn().Err(serr).Msg("mail sender: undeliverable, dropped")
			out = mailDropped
			return persistence.MailDone(ctx, tx, m.ID)
		default:
			retry := s.backoff(m.Attempts + 1)
			log.Warn().Err(serr).Int64("retry_in_ms", retry.Milliseconds()).Msg("mail sender: delivery failed, will retry")
			out = mailFailed
			return persistence.MailFailed(ctx, tx, m.ID, retry)
		}
	})
	if err != nil {
		return mailIdle, fmt.Errorf("app: mail outbox: %w", err)
	}
	switch out {
	case mailSent:
		s.failing.Store(false) // before the count: a reader of the count sees it
		s.sent.Add(1)
	case mailFailed:
		s.failing.Store(true)
		s.failed.Add(1)
	case mailDropped:
		s.dropped.Add(1)
	}
	return out, nil
}

// dropUseless deletes mail no longer worth sending: its code expired, was
// used, or was replaced by a newer code (a resend), whose own mail follows.
func (s *MailSender) dropUseless(ctx context.Context) {
	for {
		gone, err := persistence.DropUselessMail(ctx, s.o.DB, mailDropBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Error().Err(err).Msg("mail sender: drop useless mail")
			}
			return
		}
		for _, g := range gone {
			reason := "code retired"
			if g.Expired {
				reason = "expired"
			}
			ev := s.o.Log.Warn().Str("mail_id", g.ID.String()).Str("kind", g.Kind).Int("attempts", g.Attempts).Str("reason", reason)
			if g.UserID != uuid.Nil {
				ev = ev.Str("user_id", g.UserID.String())
			}
			ev.Msg("mail sender: dropped unsent mail")
		}
		s.dropped.Add(int64(len(gone)))
		if len(gone) < mailDropBatch {
			return
		}
	}
}
