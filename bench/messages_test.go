package main

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// storedTarget answers stored from a fixed list: the check's input, as a
// server would store it.
type storedTarget struct{ convs [][]msgStored }

func (s storedTarget) name() string                                         { return "stored" }
func (s storedTarget) setup(context.Context, int, [][2]int, [][]int) error  { return nil }
func (s storedTarget) listen(context.Context, int, func(msgDelivery)) error { return nil }
func (s storedTarget) send(context.Context, int, int, string, string) (msgAck, error) {
	return msgAck{}, nil
}
func (s storedTarget) stored(_ context.Context, c int) ([]msgStored, error) { return s.convs[c], nil }
func (s storedTarget) close()                                               {}

// TestMessageCheck runs the consistency check on one direct conversation
// between persons 0 and 1 in which person 0 sent m0 (seq 1) and m1 (seq 2),
// both acknowledged, under what the server stored and what reached person 1
// (person 0's own socket got both, in order).
func TestMessageCheck(t *testing.T) {
	type got struct {
		msg  int32
		conn int16
		gap  bool
	}
	s := func(m, seq int) msgStored { return msgStored{clientID: "bt-" + strconv.Itoa(m), seq: int64(seq)} }
	cases := []struct {
		name   string
		stored []msgStored
		acks   []int64 // the answers' seqs
		to1    []got
		want   msgCheck // the counters compared; the rest ignored
	}{
		{name: "every message once and in order", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 2},
			to1:  []got{{0, 0, false}, {1, 0, false}},
			want: msgCheck{expected: 4, held: 4}},
		{name: "a push twice on one connection", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 2},
			to1:  []got{{0, 0, false}, {0, 0, false}, {1, 0, false}},
			want: msgCheck{expected: 4, held: 4, dup: 1}},
		{name: "an older message after a newer one on one connection", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 2},
			to1:  []got{{1, 0, false}, {0, 0, false}},
			want: msgCheck{expected: 4, held: 4, reordered: 1}},
		{name: "a push that never came", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 2},
			to1:  []got{{1, 0, false}},
			want: msgCheck{expected: 4, held: 3, lost: 1}},
		{name: "a reconnect: the gap fill brings m1, the new socket's copy is dropped", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 2},
			to1:  []got{{0, 1, false}, {1, 2, true}, {1, 2, false}},
			want: msgCheck{expected: 4, held: 4, filled: 1, dropped: 1}},
		{name: "acknowledged but not stored", stored: []msgStored{s(0, 1)}, acks: []int64{1, 2},
			to1:  []got{{0, 0, false}},
			want: msgCheck{expected: 2, held: 2, lostStored: 1, phantomGot: 1}},
		{name: "stored twice", stored: []msgStored{s(0, 1), s(0, 2), s(1, 3)}, acks: []int64{1, 3},
			to1:  []got{{0, 0, false}, {1, 0, false}},
			want: msgCheck{expected: 4, held: 4, dupStored: 1}},
		{name: "a seq skipped", stored: []msgStored{s(0, 1), s(1, 3)}, acks: []int64{1, 3},
			to1:  []got{{0, 0, false}, {1, 0, false}},
			want: msgCheck{expected: 4, held: 4, gapConvs: 1}},
		{name: "answered with another seq than stored", stored: []msgStored{s(0, 1), s(1, 2)}, acks: []int64{1, 5},
			to1:  []got{{0, 0, false}, {1, 0, false}},
			want: msgCheck{expected: 4, held: 4, wrongSeq: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wl := &msgWorkload{people: 2, direct: [][2]int{{0, 1}}, members: [][]int{{0, 1}}, convsOf: [][]int{{0}, {0}}}
			r := &msgRun{t: storedTarget{convs: [][]msgStored{tc.stored}}, wl: wl, book: newMsgBook("t"), inbox: make([]msgInbox, 2)}
			for _, seq := range tc.acks {
				_, rec := r.book.add()
				*rec = msgRec{conv: 0, sender: 0, phase: phPaced, acked: true, seq: seq, win: true, send: 1}
			}
			seqOf := map[int32]int64{}
			for _, x := range tc.stored {
				if m := r.book.index(x.clientID); seqOf[m] == 0 {
					seqOf[m] = x.seq
				}
			}
			for i := range tc.acks {
				r.inbox[0].add(msgGot{at: 2, msg: int32(i), seq: seqOf[int32(i)]})
			}
			for _, g := range tc.to1 {
				r.inbox[1].add(msgGot{at: 2 + int64(time.Millisecond), msg: g.msg, seq: seqOf[g.msg], conn: g.conn, gap: g.gap})
			}
			c, err := r.check(context.Background(), phPaced)
			if err != nil {
				t.Fatal(err)
			}
			type counters struct {
				lostStored, dupStored, phantomStored, wrongSeq, gapConvs          int
				expected, held, lost, dup, reordered, phantomGot, dropped, filled int
			}
			of := func(c msgCheck) counters {
				return counters{c.lostStored, c.dupStored, c.phantomStored, c.wrongSeq, c.gapConvs,
					c.expected, c.held, c.lost, c.dup, c.reordered, c.phantomGot, c.dropped, c.filled}
			}
			if of(c) != of(tc.want) {
				t.Errorf("got %+v\nwant %+v", of(c), of(tc.want))
			}
			clean := of(tc.want) == counters{expected: tc.want.expected, held: tc.want.held, filled: tc.want.filled, dropped: tc.want.dropped}
			if ok := c.storedOK() && c.deliveredOK(); ok != clean {
				t.Errorf("ok = %v, want %v", ok, clean)
			}
		})
	}
}
