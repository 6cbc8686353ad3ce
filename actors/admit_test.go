package actors

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Post transactions take turns: writeConcurrency at once, the next in the
// order they came, and a waiter gives up with its context.
func TestAdmitWriteTakesTurnsInOrder(t *testing.T) {
	l := New(Config{})
	ctx := context.Background()
	for range writeConcurrency {
		if err := l.admitWrite(ctx); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := l.admitWrite(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a full house admitted a writer: %v", err)
	}

	const waiters = 5
	order := make(chan int, waiters)
	for i := range waiters {
		go func() {
			if err := l.admitWrite(ctx); err == nil {
				order <- i
			}
		}()
		time.Sleep(25 * time.Millisecond) // queue them in order
	}
	for want := range waiters {
		l.doneWrite()
		select {
		case got := <-order:
			if got != want {
				t.Fatalf("writer %d admitted before writer %d", got, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("writer %d never admitted", want)
		}
	}
}
