package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tags (issue 27 item 2): a #tag in a post's text names a topic. What
// counts as a tag is decided here and mirrored by the client's rich text
// (lib/richText.ts), so that every #tag shown as a link leads to a page
// that lists the post.

// Limits of tags.
const (
	// MaxTagRunes is the longest tag: a longer run after '#' is not a tag
	// at all (rather than cut), so a link never names a tag the post is
	// not listed under.
	MaxTagRunes = 50
	// MaxPostTags is how many distinct tags of one post are stored (the
	// first ones in its text), as Instagram caps them at 30.
	MaxPostTags = 30
)

// MsgTagInvalid answers a tag that cannot be one.
const MsgTagInvalid = "A tag is 1-50 letters, digits or underscores, with at least one letter."

// isTagRune: a tag is a run of letters, combining marks (the vowel signs of
// Indic scripts), digits and underscores.
func isTagRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// tagMayFollow reports whether a '#' after r starts a tag: at the start of
// the text or after anything that is not part of a word, a mention, an
// HTML entity or a path ("C#", "a#b", "&#35;" and "/#top" are not tags).
func tagMayFollow(r rune) bool {
	return !isTagRune(r) && r != '@' && r != '#' && r != '&' && r != '/'
}

// NormalizeTag is the form a tag is stored, linked and looked up in: a
// leading '#' dropped, Unicode NFC, lower case. It answers "" when s is
// not a tag (see ValidTag).
func NormalizeTag(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if !ValidText(s) {
		return ""
	}
	s = norm.NFC.String(strings.ToLower(norm.NFC.String(s)))
	if !ValidTag(s) {
		return ""
	}
	return s
}

// ValidTag reports whether s (without '#') is a tag: 1 to MaxTagRunes tag
// runes, at least one of them a letter ("#2025" is a year, not a topic).
func ValidTag(s string) bool {
	n, letter := 0, false
	for _, r := range s {
		if !isTagRune(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
		n++
	}
	return n >= 1 && n <= MaxTagRunes && letter
}

// ExtractTags answers the distinct tags of text, normalized, in the order
// they first appear, at most MaxPostTags. URLs are skipped whole, so the
// fragment of "https://example.org/#news" is not a tag.
func ExtractTags(text string) []string {
	var out []string
	seen := map[string]bool{}
	prev := rune(-1) // the rune before i; -1 at the start
	for i := 0; i < len(text) && len(out) < MaxPostTags; {
		if n := tagURLAt(text[i:]); n > 0 {
			i += n
			prev, _ = utf8.DecodeLastRuneInString(text[:i])
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != '#' || (prev >= 0 && !tagMayFollow(prev)) {
			prev = r
			i += size
			continue
		}
		end := i + size
		for end < len(text) {
			c, sz := utf8.DecodeRuneInString(text[end:])
			if !isTagRune(c) {
				break
			}
			end += sz
		}
		if t := NormalizeTag(text[i+size : end]); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
		if end == i+size {
			prev = r
		} else {
			prev, _ = utf8.DecodeLastRuneInString(text[:end])
		}
		i = end
	}
	return out
}

// tagURLAt answers the length of the URL that starts text (http://,
// https:// or www., as the client links them: up to white space, '<', '>'
// or '"'), or 0.
func tagURLAt(text string) int {
	if !strings.HasPrefix(text, "http://") && !strings.HasPrefix(text, "https://") && !strings.HasPrefix(text, "www.") {
		return 0
	}
	n := strings.IndexFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '<' || r == '>' || r == '"' })
	if n < 0 {
		return len(text)
	}
	return n
}

// TagQueryKey is the tag a search query may name: the query without its
// '#' and its spaces ("chess club" → "chessclub"), normalized; "" when
// that is no tag.
func TagQueryKey(q string) string {
	q = strings.TrimSpace(q)
	if q == "" {
		return ""
	}
	return NormalizeTag(strings.Join(strings.Fields(strings.TrimPrefix(q, "#")), ""))
}

// TagCountCap is the most posts of a tag that are counted for a reader:
// a count that reaches it reads "1,000+ posts".
const TagCountCap = 1000

// TagPostsLabel is how many posts a tag has, as a search result's subtitle
// and a tag page's header say it: "1 post", "12 posts", "1,000+ posts" (n
// counted up to TagCountCap).
func TagPostsLabel(n int) string {
	switch {
	case n >= TagCountCap:
		return Thousands(TagCountCap) + "+ posts"
	case n == 1:
		return "1 post"
	}
	return Thousands(n) + " posts"
}

// IsExactTagMatch reports whether q is the tag itself, '#' and all: typed
// with its '#', a tag ranks with the exact matches; without it, among tags.
func IsExactTagMatch(q, tag string) bool {
	q = strings.TrimSpace(q)
	return strings.HasPrefix(q, "#") && NormalizeTag(q) == tag
}

// TrendPeopleLabel says how many people posted a trending tag lately: "1
// person posting", "12 people posting".
func TrendPeopleLabel(n int) string {
	if n == 1 {
		return "1 person posting"
	}
	return Thousands(n) + " people posting"
}
