package sso

import "context"

// detach is a context for calls to the identity provider: parent's
// deadline and cancellation, none of its values. net/http may go on
// dialing for its pool after a call has returned, reading the context's
// values then; a handler's context is backed by fasthttp's request, which
// is reused as soon as the handler returns, so those late reads would see
// (and race with) another request. The cancel func must be called.
func detach(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if d, ok := parent.Deadline(); ok {
		var cancelDeadline context.CancelFunc
		ctx, cancelDeadline = context.WithDeadline(ctx, d)
		prev := cancel
		cancel = func() { cancelDeadline(); prev() }
	}
	stop := context.AfterFunc(parent, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}
