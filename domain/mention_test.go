package domain

import (
	"slices"
	"strings"
	"testing"
)

func TestMentionHandles(t *testing.T) {
	many := make([]string, 0, MaxMentionHandles+5)
	for i := range MaxMentionHandles + 5 {
		many = append(many, "@user"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"none", "no one here", nil},
		{"at the start", "@bikramsen hi", []string{"bikramsen"}},
		{"after a space, case folded", "thanks @BikramSen!", []string{"bikramsen"}},
		{"each once, in order", "@asha and @ben, again @Asha", []string{"asha", "ben"}},
		{"after punctuation", "(@asha) \"@ben\"", []string{"asha", "ben"}},
		{"ending a sentence", "ask @ravi_k.", []string{"ravi_k"}},
		{"dots and dashes inside are no handle", "@ravi.kumar @a-b-c", nil},
		{"an e-mail address is no mention", "mail asha@uni.edu", nil},
		{"not after & or /", "a&@asha b/@ben", nil},
		{"not inside a link", "see https://x.org/@asha and www.y.org/@ben", nil},
		{"a link then a mention", "https://x.org @asha", []string{"asha"}},
		{"too short or too long", "@ab @" + strings.Repeat("a", 31), nil},
		{"not a handle's letters", "@ранжит @josé", nil},
		{"a tag is its own word", "#fest@asha #fest @ben", []string{"ben"}},
		{"the rune before a match is its own", "@asha.@ben", []string{"asha"}},
		{"line breaks separate", "hi\n@asha", []string{"asha"}},
		{"capped", strings.Join(many, " "), nil}, // checked by length below
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MentionHandles(tt.text)
			if tt.name == "capped" {
				if len(got) != MaxMentionHandles {
					t.Fatalf("%d handles, want %d", len(got), MaxMentionHandles)
				}
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("MentionHandles(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestValidUserHandle(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"bikramsen", true},
		{"ravi_k2", true},
		{"abc", true},
		{"ab", false},
		{strings.Repeat("a", 30), true},
		{strings.Repeat("a", 31), false},
		{"Bikram", false},
		{"ravi.k", false},
		{"josé", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ValidUserHandle(tt.in); got != tt.want {
				t.Errorf("ValidUserHandle(%q) = %v", tt.in, got)
			}
		})
	}
	if got := NormalizeUserHandle("  @BikramSen "); got != "bikramsen" {
		t.Errorf("NormalizeUserHandle = %q", got)
	}
}

func TestMentionNotices(t *testing.T) {
	r := MentionCandidate{Reachable: true}
	tests := []struct {
		name   string
		cands  []MentionCandidate
		before int
		want   []bool
	}{
		{"reachable ones", []MentionCandidate{r, {}, r}, 0, []bool{true, false, true}},
		{"not twice", []MentionCandidate{{Reachable: true, Notified: true}, r}, 1, []bool{false, true}},
		{"the first ten", slices.Repeat([]MentionCandidate{r}, 12), 0,
			append(slices.Repeat([]bool{true}, 10), false, false)},
		{"ten over the edits", []MentionCandidate{r, r, r}, 9, []bool{true, false, false}},
		{"none left", []MentionCandidate{r}, 10, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MentionNotices(tt.cands, tt.before); !slices.Equal(got, tt.want) {
				t.Errorf("MentionNotices = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseMentionQuery(t *testing.T) {
	tests := []struct {
		in   string
		want MentionQuery
	}{
		{"bik", MentionQuery{Handle: "bik", Words: []string{"bik"}}},
		{"@Bi", MentionQuery{Handle: "bi", Words: []string{"bi"}}},
		{"bikram s", MentionQuery{Words: []string{"bikram", "s"}}},
		{"ravi_k", MentionQuery{Handle: "ravi_k", Words: []string{"ravi", "k"}}},
		{"José", MentionQuery{Words: []string{"josé"}}},
		{"@", MentionQuery{}},
		{"  ", MentionQuery{}},
		{"a b c d e", MentionQuery{Words: []string{"a", "b", "c", "d"}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := ParseMentionQuery(tt.in)
			if got.Handle != tt.want.Handle || !slices.Equal(got.Words, tt.want.Words) {
				t.Errorf("ParseMentionQuery(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.Empty() != (tt.want.Handle == "" && len(tt.want.Words) == 0) {
				t.Errorf("Empty() = %v", got.Empty())
			}
		})
	}
}
