package domain

import (
	"slices"
	"strings"
	"testing"
)

func TestSearchSnippet(t *testing.T) {
	sixty := strings.Repeat("a", 60)
	tests := []struct {
		name, in, want string
	}{
		{"short", "Hello campus", "Hello campus"},
		{"exactly 60", sixty, sixty},
		{"61 is cut", sixty + "b", sixty + "..."},
		{"white space collapsed", "  line one\n\n line\ttwo  ", "line one line two"},
		{"runes, not bytes", strings.Repeat("é", 61), strings.Repeat("é", 60) + "..."},
		{"no space before the ellipsis", strings.Repeat("a", 59) + " bcd", strings.Repeat("a", 59) + "..."},
		{"empty", "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SearchSnippet(tt.in); got != tt.want {
				t.Errorf("SearchSnippet(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestIsExactMatch(t *testing.T) {
	tests := []struct {
		query, title, subtitle string
		want                   bool
	}{
		{"asha rao", "Asha Rao", "BWU/BCA/20/123", true},
		{"  ASHA   rao ", "Asha Rao", "", true},
		{"bwu/bca/20/123", "Asha Rao", "BWU/BCA/20/123", true},
		{"faculty · physics", "Dr. Sen", "Faculty · Physics", true},
		{"asha", "Asha Rao", "BWU/BCA/20/123", false},
		{"jose", "José", "", false}, // case-insensitive, not accent-insensitive
		{"", "", "", false},
		{"   ", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := IsExactMatch(tt.query, tt.title, tt.subtitle); got != tt.want {
				t.Errorf("IsExactMatch(%q, %q, %q) = %v", tt.query, tt.title, tt.subtitle, got)
			}
		})
	}
}

func TestUserSearchSubtitle(t *testing.T) {
	tests := []struct {
		role           Role
		uid, dept      string
		want, scenario string
	}{
		{RoleStudent, "BWU/BCA/20/123", "", "BWU/BCA/20/123", "student"},
		{RoleStudent, "", "", "Student", "student without id"},
		{RoleFaculty, "", "Physics", "Faculty · Physics", "faculty"},
		{RoleFaculty, "", "", "Faculty", "faculty without department"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			if got := UserSearchSubtitle(tt.role, tt.uid, tt.dept); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := CommentSearchSubtitle("Asha"); got != "Comment on Asha's post" {
		t.Errorf("CommentSearchSubtitle = %q", got)
	}
}

func TestCompareSearch(t *testing.T) {
	type r = SearchRanking
	in := []r{
		{Kind: SearchComment, Score: 9},
		{Kind: SearchPost, Score: 1},
		{Kind: SearchUser, Score: 0.5},
		{Kind: SearchPost, Score: 3},
		{Kind: SearchComment, Exact: true, Score: 0.1},
		{Kind: SearchUser, Score: 2},
		{Kind: SearchPost, Exact: true, Score: 5},
		{Kind: SearchUser, Exact: true, Score: 0.2},
	}
	want := []r{
		{Kind: SearchUser, Exact: true, Score: 0.2},
		{Kind: SearchPost, Exact: true, Score: 5},
		{Kind: SearchComment, Exact: true, Score: 0.1},
		{Kind: SearchUser, Score: 2},
		{Kind: SearchUser, Score: 0.5},
		{Kind: SearchPost, Score: 3},
		{Kind: SearchPost, Score: 1},
		{Kind: SearchComment, Score: 9},
	}
	got := slices.Clone(in)
	slices.SortStableFunc(got, CompareSearch)
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %v\nwant %v", got, want)
	}
}

func TestSearchLimit(t *testing.T) {
	for in, want := range map[int]int{0: 20, -3: 20, 1: 1, 20: 20, 50: 50, 51: 50, 1000: 50} {
		if got := SearchLimit(in); got != want {
			t.Errorf("SearchLimit(%d) = %d, want %d", in, got, want)
		}
	}
}
