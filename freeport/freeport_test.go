package freeport

import (
	"net"
	"strconv"
	"testing"
)

func TestGet(t *testing.T) {
	seen := map[int]bool{}
	low := ephemeralLow()
	for range 50 {
		p := Must(t)
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		if low-floor >= 1_000 && (p < floor || p >= low) {
			t.Fatalf("port %d outside [%d, %d)", p, floor, low)
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("port %d not bindable: %v", p, err)
		}
		_ = l.Close()
	}
}
