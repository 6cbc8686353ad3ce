package actors

import (
	"strconv"
	"testing"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
)

// TestDepartures: a grain call learns from the topology events that the
// member it sent to left (and only then), and a node back on the same
// address counts as a member again.
func TestDepartures(t *testing.T) {
	member := func(port int32) *cluster.Member {
		return &cluster.Member{Id: strconv.Itoa(int(port)), Host: "127.0.0.1", Port: port}
	}
	a, b, c := member(7001), member(7002), member(7003)
	es := eventstream.NewEventStream()
	d := newDepartures(es)

	closed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	steps := []struct {
		name       string
		topology   *cluster.ClusterTopology
		signalled  bool
		gone, here []*cluster.Member
	}{
		{"before any topology nothing is gone", nil, false, nil, []*cluster.Member{a, b, c}},
		{"members joining signal nothing",
			&cluster.ClusterTopology{Members: []*cluster.Member{a, b, c}, Joined: []*cluster.Member{a, b, c}},
			false, nil, []*cluster.Member{a, b, c}},
		{"a member leaving signals and is gone",
			&cluster.ClusterTopology{Members: []*cluster.Member{a, b}, Left: []*cluster.Member{c}},
			true, []*cluster.Member{c}, []*cluster.Member{a, b}},
		{"a node back on the same address is a member again",
			&cluster.ClusterTopology{Members: []*cluster.Member{a, b, {Id: "new", Host: "127.0.0.1", Port: 7003}}},
			false, nil, []*cluster.Member{a, b, c}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			wait := d.wait()
			if st.topology != nil {
				es.Publish(st.topology)
			}
			if got := closed(wait); got != st.signalled {
				t.Fatalf("signalled %v, want %v", got, st.signalled)
			}
			for _, m := range st.gone {
				if !d.gone(m.Address()) {
					t.Fatalf("%s not gone", m.Address())
				}
			}
			for _, m := range st.here {
				if d.gone(m.Address()) {
					t.Fatalf("%s gone", m.Address())
				}
			}
		})
	}
}
