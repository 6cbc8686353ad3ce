package protocol_test

import (
	"encoding/json"
	"testing"

	"campus/protocol"
)

// TestCountsFrame decodes what the encoder builds, the way a client does:
// the hand-written bytes must be the JSON the protocol promises.
func TestCountsFrame(t *testing.T) {
	type entry struct {
		PostID        string `json:"postId"`
		LikesCount    int64  `json:"likesCount"`
		CommentsCount int64  `json:"commentsCount"`
		RepostsCount  int64  `json:"repostsCount"`
		CountsVersion int64  `json:"countsVersion"`
	}
	tests := []struct {
		name    string
		entries []entry
	}{
		{"none", nil},
		{"one", []entry{{"0b7e2d1c-6c43-4a8e-9d0e-3f3c5a1b2c3d", 3, 1, 2, 4}}},
		{"two", []entry{
			{"0b7e2d1c-6c43-4a8e-9d0e-3f3c5a1b2c3d", 0, 0, 0, 0},
			{"5f0c9a7e-1d2b-4c3a-8e9f-0a1b2c3d4e5f", 120000, 7, 3, 120010},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := make([][]byte, len(tt.entries))
			for i, e := range tt.entries {
				raw[i] = protocol.AppendCountEntry(nil, e.PostID, e.LikesCount, e.CommentsCount, e.RepostsCount, e.CountsVersion)
			}
			f := protocol.CountsFrame(len(raw), func(i int) []byte { return raw[i] })
			if cap(f) != len(f) {
				t.Errorf("frame of %d bytes allocated %d", len(f), cap(f))
			}
			var got struct {
				Event string `json:"event"`
				Data  struct {
					Posts []entry `json:"posts"`
				} `json:"data"`
			}
			if err := json.Unmarshal(f, &got); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if got.Event != protocol.EventPostCounts || len(got.Data.Posts) != len(tt.entries) {
				t.Fatalf("decoded %+v from %s", got, f)
			}
			for i, e := range tt.entries {
				if got.Data.Posts[i] != e {
					t.Errorf("entry %d = %+v, want %+v", i, got.Data.Posts[i], e)
				}
			}
		})
	}
}

// TestCountEntryWithoutReposts: counts from a node that predates reposts
// leave repostsCount out, so that clients keep the count they show.
func TestCountEntryWithoutReposts(t *testing.T) {
	var got map[string]any
	if err := json.Unmarshal(protocol.AppendCountEntry(nil, "p", 1, 2, -1, 3), &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["repostsCount"]; ok || got["likesCount"] != float64(1) || got["countsVersion"] != float64(3) {
		t.Fatalf("entry %v: want likes and version, no repostsCount", got)
	}
}

func TestFrame(t *testing.T) {
	tests := []struct {
		name  string
		event string
		data  any
		want  string
	}{
		{"nil data is an empty object", protocol.EventTestResponse, nil, `{"event":"test:response","data":{}}`},
		{"post deleted", protocol.EventPostDeleted, protocol.PostDeleted{PostID: "x"}, `{"event":"post:deleted","data":{"postId":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := protocol.Frame(tt.event, tt.data)
			if err != nil || string(got) != tt.want {
				t.Fatalf("Frame = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
	if _, err := protocol.Frame("x", func() {}); err == nil {
		t.Error("a value JSON cannot encode made a frame")
	}
}

func TestEchoed(t *testing.T) {
	for _, e := range []string{protocol.EventAuth, protocol.EventPostLike, protocol.EventFriendRequest} {
		if !protocol.Echoed(e) {
			t.Errorf("%s is not accepted from a client", e)
		}
	}
	for _, e := range []string{protocol.EventPostCounts, protocol.EventNotification, protocol.EventWatch, "nope"} {
		if protocol.Echoed(e) {
			t.Errorf("%s is accepted without effect from a client", e)
		}
	}
}
