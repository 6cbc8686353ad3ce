package app

import (
	"context"
	"fmt"
	"testing"
)

// TestSearchFindsHandles: a handle typed in full, with or without its @,
// finds the person first, before the posts that mention them; the user
// search finds them too.
func TestSearchFindsHandles(t *testing.T) {
	f := newSearchFixture(t)
	bikram := f.user("Bikram Sen", "student", "BWU/BCA/20/7", "", "")
	asha := f.user("Asha Rao", "student", "BWU/BCA/20/8", "", "")
	f.post(asha, "great talk @bikramsen")
	f.catchUp()
	s := NewSearch(SearchDeps{DB: f.db, Index: f.idx})
	ctx := context.Background()
	tests := []struct {
		q     string
		first string
	}{
		{"bikramsen", "user:Bikram Sen"},
		{"@bikramsen", "user:Bikram Sen"},
		{"@BikramSen", "user:Bikram Sen"},
		{"bikram", "user:Bikram Sen"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got, err := s.Search(ctx, tt.q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if b := brief(got.Results); len(b) == 0 || b[0] != tt.first {
				t.Fatalf("results %v, want %s first", b, tt.first)
			}
			users, err := s.Users(ctx, tt.q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(users.Users) == 0 || users.Users[0].ID != bikram.String() {
				t.Fatalf("user search %+v", users.Users)
			}
		})
	}
}

func TestMentionMessage(t *testing.T) {
	tests := []struct {
		actors    []string
		count     int
		inComment bool
		want      string
	}{
		{[]string{"Asha"}, 1, false, "Asha mentioned you in a post"},
		{[]string{"Asha"}, 1, true, "Asha mentioned you in a comment"},
		{[]string{"Asha", "Ben"}, 2, true, "Asha and Ben mentioned you"},
		{[]string{"Asha", "Ben", "Chen"}, 3, false, "Asha and 2 others mentioned you"},
		{nil, 1, false, "Someone mentioned you in a post"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.actors, tt.count, tt.inComment), func(t *testing.T) {
			if got := mentionMessage(tt.actors, tt.count, tt.inComment); got != tt.want {
				t.Errorf("mentionMessage = %q, want %q", got, tt.want)
			}
		})
	}
}
