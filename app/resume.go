package app

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"campus/persistence"
	"campus/protocol"
)

// MaxResume is the most notifications one resume replays; a client away
// for longer re-reads its notifications over REST (docs/protocol.md §2.6: REST is the
// truth), as it does after every reconnect.
const MaxResume = 100

// Resume answers what a reconnecting socket missed (docs/protocol.md §2.6): the
// user's notifications changed at or after since, the newest updatedAt the
// client saw, oldest first, as `notification` frames that carry the unread
// count. The notification rows are the personal events that matter; the
// counts of watched posts the client re-fetches itself.
func (r *Realtime) Resume(ctx context.Context, userID uuid.UUID, since time.Time) ([][]byte, error) {
	ns, err := persistence.NotificationsSince(ctx, r.db, userID, since, MaxResume)
	if err != nil {
		return nil, fmt.Errorf("app: resume: %w", err)
	}
	if len(ns) == 0 {
		return nil, nil
	}
	unread, err := persistence.UnreadNotificationCount(ctx, r.db, userID)
	if err != nil {
		return nil, fmt.Errorf("app: resume: %w", err)
	}
	frames := make([][]byte, 0, len(ns))
	for _, n := range ns {
		f, err := protocol.Frame(protocol.EventNotification, NotificationEvent{NotificationView: NewNotificationView(n), UnreadCount: unread})
		if err != nil {
			return nil, fmt.Errorf("app: resume: %w", err)
		}
		frames = append(frames, f)
	}
	return frames, nil
}
