package sso

import (
	"context"
	"testing"
	"time"
)

type detachKey struct{}

func TestDetach(t *testing.T) {
	base := context.WithValue(context.Background(), detachKey{}, "the request's")
	t.Run("keeps no values of the parent", func(t *testing.T) {
		ctx, cancel := detach(base)
		defer cancel()
		if v := ctx.Value(detachKey{}); v != nil {
			t.Fatalf("value %v leaked through", v)
		}
	})
	t.Run("is cancelled with the parent", func(t *testing.T) {
		parent, cancelParent := context.WithCancel(base)
		ctx, cancel := detach(parent)
		defer cancel()
		cancelParent()
		<-ctx.Done() // would block forever otherwise (the test's timeout)
		if ctx.Err() != context.Canceled {
			t.Fatalf("err = %v", ctx.Err())
		}
	})
	t.Run("keeps the parent's deadline", func(t *testing.T) {
		d := time.Now().Add(time.Hour)
		parent, cancelParent := context.WithDeadline(base, d)
		defer cancelParent()
		ctx, cancel := detach(parent)
		defer cancel()
		if got, ok := ctx.Deadline(); !ok || !got.Equal(d) {
			t.Fatalf("deadline = %v %v, want %v", got, ok, d)
		}
	})
	t.Run("its cancel ends it and not the parent", func(t *testing.T) {
		ctx, cancel := detach(base)
		cancel()
		if ctx.Err() == nil || base.Err() != nil {
			t.Fatalf("ctx %v, parent %v", ctx.Err(), base.Err())
		}
	})
}
