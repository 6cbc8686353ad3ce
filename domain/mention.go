package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mentions (issue 27): "@bikramsen" in a post or comment names the person
// whose handle is bikramsen. The server resolves the handles when the text is
// stored, links the ones that name someone and notifies those people; a
// handle that names no one stays text.

// Limits of mentions.
const (
	// MaxMentionNotices is how many people one post notifies of a mention,
	// over all its edits, and how many one comment does: a post naming a
	// hundred people (a spam shape) notifies its first ten.
	MaxMentionNotices = 10
	// MaxMentionHandles bounds the distinct handles of one text looked up;
	// the rest stay text.
	MaxMentionHandles = 50
	// Handle lengths.
	minUserHandle, maxUserHandle = 3, 30
	// maxMentionRunes is the longest token after an @ that the client's
	// tokenizer takes (client/src/lib/richText.ts): 1 + 63.
	maxMentionRunes = 64
)

// NormalizeUserHandle is the form a handle is compared in: without the
// surrounding space or a leading '@', lower-case.
func NormalizeUserHandle(s string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "@"))
}

// ValidUserHandle reports whether h (normalized) can be a user's handle:
// 3-30 lower-case letters, digits and '_'.
func ValidUserHandle(h string) bool {
	if len(h) < minUserHandle || len(h) > maxUserHandle {
		return false
	}
	for i := range len(h) {
		if c := h[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// MentionHandles answers the handles text mentions, normalized, each once,
// in the order they first appear, at most MaxMentionHandles. It reads text
// exactly as the client's tokenizer does (client/src/lib/richText.ts), so
// that every mention the server resolves is one the client shows as a
// link: an @ at the start of a word (not after a letter, digit, '_', '@',
// '#', '&' or '/'), then a letter, digit or '_' and up to 63 more of those,
// '.' or '-', without the dots and dashes it ends in; nothing inside a
// link; a #tag is a word of its own. Tokens that cannot be a handle are
// left out.
func MentionHandles(text string) []string {
	var out []string
	seen := map[string]bool{}
	i := 0
	for i < len(text) && len(out) < MaxMentionHandles {
		if n := urlAt(text[i:]); n > 0 {
			i += n
			continue
		}
		// A match starts at the text's start or with the rune before the
		// sign, which it takes with it.
		at := -1
		var sign byte
		if i == 0 && (text[0] == '@' || text[0] == '#') {
			at, sign = 0, text[0]
		} else if r, size := utf8.DecodeRuneInString(text[i:]); !inWordBefore(r) && i+size < len(text) &&
			(text[i+size] == '@' || text[i+size] == '#') {
			at, sign = i+size, text[i+size]
		}
		if at < 0 {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		if sign == '#' {
			n := tagLength(text[at+1:])
			if n == 0 {
				_, size := utf8.DecodeRuneInString(text[i:])
				i += size
				continue
			}
			i = at + 1 + n
			continue
		}
		n := mentionLength(text[at+1:])
		if n == 0 {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		token := strings.TrimRight(text[at+1:at+1+n], ".-")
		i = at + 1 + n
		if h := NormalizeUserHandle(token); ValidUserHandle(h) && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// urlAt is the length of the link text starts with (http://, https:// or
// www. and everything up to a space, '<', '>' or '"'), 0 for none.
func urlAt(s string) int {
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "www.") {
		return 0
	}
	start := 4 // past "www." or "http"
	if s[0] == 'h' {
		start = strings.Index(s, "//") + 2
	}
	n := start
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if unicode.IsSpace(r) || r == '<' || r == '>' || r == '"' {
			break
		}
		n += size
	}
	if n == start {
		return 0 // "www." alone is no link
	}
	return n
}

// inWordBefore reports whether r, just before an @ or #, keeps it from
// starting a mention or tag.
func inWordBefore(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '@' || r == '#' || r == '&' || r == '/'
}

// mentionLength is the length in bytes of the token after an @: a letter,
// digit or '_', then up to 63 letters, digits, '_', '.' or '-'; 0 for none.
func mentionLength(s string) int {
	n, runes := 0, 0
	for n < len(s) && runes < maxMentionRunes {
		r, size := utf8.DecodeRuneInString(s[n:])
		word := unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_'
		if !word && (runes == 0 || (r != '.' && r != '-')) {
			break
		}
		n += size
		runes++
	}
	return n
}

// tagLength is the length in bytes of a #tag's word: 1 to 64 letters,
// digits or '_'; 0 for none.
func tagLength(s string) int {
	n, runes := 0, 0
	for n < len(s) && runes < 64 {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' {
			break
		}
		n += size
		runes++
	}
	return n
}

// MentionCandidate is one person a text mentions, as resolved: whether a
// notification may reach them (Reachable: not the author, not muting the
// author, able to read the post, …) and whether one was already asked for
// (an earlier version of an edited post mentioned them).
type MentionCandidate struct {
	Reachable bool
	Notified  bool
}

// MentionNotices decides whom a text's mentions notify: of cands, in the
// order the text mentions them, each reachable one not notified before,
// until MaxMentionNotices people in all have been notified for the text
// (notifiedBefore of them by its earlier versions).
func MentionNotices(cands []MentionCandidate, notifiedBefore int) []bool {
	out := make([]bool, len(cands))
	left := MaxMentionNotices - notifiedBefore
	for i, c := range cands {
		if left <= 0 {
			break
		}
		if c.Reachable && !c.Notified {
			out[i] = true
			left--
		}
	}
	return out
}

// Typeahead sizes: GET /users/suggest answers 8 people unless asked for
// more, 20 at most.
const (
	SuggestDefault = 8
	SuggestMax     = 20
	// maxSuggestWords and maxSuggestRunes bound what a typeahead query
	// searches with.
	maxSuggestWords = 4
	maxSuggestRunes = 30
)

// SuggestLimit reads the typeahead's ?limit=: zero or negative means the
// default, and the maximum caps it.
func SuggestLimit(n int) int {
	switch {
	case n <= 0:
		return SuggestDefault
	case n > SuggestMax:
		return SuggestMax
	}
	return n
}

// MentionQuery is what the typeahead searches for: a handle starting with
// Handle ("" when the query has characters no handle has), or a name with
// a word starting with each of Words (lower-case letters and digits only).
type MentionQuery struct {
	Handle string
	Words  []string
}

// Empty reports whether q can match no one.
func (q MentionQuery) Empty() bool { return q.Handle == "" && len(q.Words) == 0 }

// ParseMentionQuery reads what someone typed after an @ (the @ itself may
// be there): "bik" finds bikramsen and Bikram Sen, "bikram s" Bikram Sen.
func ParseMentionQuery(s string) MentionQuery {
	var q MentionQuery
	if h := NormalizeUserHandle(s); h != "" && len(h) <= maxUserHandle && ValidUserHandle(h+strings.Repeat("_", max(0, minUserHandle-len(h)))) {
		q.Handle = h
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		if len(q.Words) == maxSuggestWords {
			break
		}
		if utf8.RuneCountInString(w) > maxSuggestRunes {
			w = string([]rune(w)[:maxSuggestRunes])
		}
		q.Words = append(q.Words, w)
	}
	return q
}
