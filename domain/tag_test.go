package domain

import (
	"slices"
	"strings"
	"testing"
)

func TestExtractTags(t *testing.T) {
	long := strings.Repeat("a", MaxTagRunes)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"none", "no tags here", nil},
		{"one", "Chess tonight #chess", []string{"chess"}},
		{"case folded, first order, distinct", "#Chess and #AI then #chess again #ai", []string{"chess", "ai"}},
		{"start of text and punctuation around", "#exam, (#study) \"#notes\".", []string{"exam", "study", "notes"}},
		{"underscore and digits", "#campus_life #cse2026", []string{"campus_life", "cse2026"}},
		{"digits only is no tag", "class of #2026 and #1", nil},
		{"inside a word is no tag", "C# and a#b and x#y", nil},
		{"mention, entity and path are not tags", "@asha#chess &#35; /#top", nil},
		{"URL fragments are not tags", "see https://example.org/page#news and www.example.org/#x then #real", []string{"real"}},
		{"Unicode letters with marks", "हिन्दी दिवस #हिन्दी #Ünïcode", []string{"हिन्दी", "ünïcode"}},
		{"NFC: decomposed equals composed", "#cafe\u0301 #café", []string{"café"}},
		{"the longest tag", "#" + long, []string{long}},
		{"one rune too long is no tag at all", "#" + long + "b #ok", []string{"ok"}},
		{"a lone hash", "# and ## and #", nil},
		{"tag right after a tag is not one", "#one#two", []string{"one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExtractTags(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("ExtractTags(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}

	t.Run("at most MaxPostTags", func(t *testing.T) {
		var b strings.Builder
		for i := range MaxPostTags + 5 {
			b.WriteString(" #t")
			b.WriteString(strings.Repeat("x", i+1))
		}
		got := ExtractTags(b.String())
		if len(got) != MaxPostTags || got[0] != "tx" {
			t.Errorf("%d tags starting %q, want %d starting \"tx\"", len(got), got[:1], MaxPostTags)
		}
	})
}

func TestNormalizeTag(t *testing.T) {
	tests := []struct{ in, want string }{
		{"chess", "chess"},
		{"#Chess", "chess"},
		{"  #AI_club ", "ai_club"},
		{"2026", ""},
		{"", ""},
		{"#", ""},
		{"two words", ""},
		{"c#", ""},
		{"bad\x00", ""},
		{"\xff", ""},
		{strings.Repeat("é", MaxTagRunes), strings.Repeat("é", MaxTagRunes)},
		{strings.Repeat("é", MaxTagRunes+1), ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := NormalizeTag(tt.in); got != tt.want {
				t.Errorf("NormalizeTag(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTagQueryKey(t *testing.T) {
	tests := []struct{ q, want string }{
		{"chess", "chess"},
		{"#chess", "chess"},
		{"Chess Club", "chessclub"},
		{"#chess club", "chessclub"},
		{"Chitra Iyr", "chitraiyr"},
		{"asha@uni.edu", ""},
		{"   ", ""},
		{"2026", ""},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			if got := TagQueryKey(tt.q); got != tt.want {
				t.Errorf("TagQueryKey(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}
