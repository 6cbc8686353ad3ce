package domain

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search constants (docs/product.md §9, docs/protocol.md §1.6).
const (
	// SearchSnippetRunes is where a post or comment snippet is cut; the
	// cut text gets SearchEllipsis appended.
	SearchSnippetRunes = 60
	SearchEllipsis     = "..."
	// SearchDefaultLimit and SearchMaxLimit bound ?limit= of the search calls.
	SearchDefaultLimit = 20
	SearchMaxLimit     = 50
	// SearchMaxQueryRunes caps how much of a query is looked at.
	SearchMaxQueryRunes = 200
)

// SearchKind is the type of a search result (docs/product.md §3 "Search result").
type SearchKind string

// The kinds, in the order docs/product.md §9 lists them after the exact
// matches: people and groups first, as Instagram puts accounts first, then
// tags, then what was written.
const (
	SearchUser    SearchKind = "user"
	SearchGroup   SearchKind = "group"
	SearchTag     SearchKind = "tag"
	SearchPost    SearchKind = "post"
	SearchComment SearchKind = "comment"
)

// Rank is the kind's place in the result order: users, groups, tags, posts,
// comments.
func (k SearchKind) Rank() int {
	switch k {
	case SearchUser:
		return 0
	case SearchGroup:
		return 1
	case SearchTag:
		return 2
	case SearchPost:
		return 3
	case SearchComment:
		return 4
	}
	return 5
}

// SearchLimit reads ?limit=: zero or negative means the default, and the
// maximum caps it.
func SearchLimit(n int) int {
	if n <= 0 {
		return SearchDefaultLimit
	}
	return min(n, SearchMaxLimit)
}

// CollapseSpace trims s and turns every run of white space (new lines
// included) into one space.
func CollapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// SearchSnippet is the one-line title of a post or comment result: the
// content with its white space collapsed, cut at 60 characters plus "..."
// when longer.
func SearchSnippet(content string) string {
	s := CollapseSpace(content)
	if utf8.RuneCountInString(s) <= SearchSnippetRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == SearchSnippetRunes {
			return strings.TrimRightFunc(s[:i], unicode.IsSpace) + SearchEllipsis
		}
		n++
	}
	return s
}

// ExactKey is the form in which a title, subtitle or query is compared for
// an exact match: white space collapsed, case folded.
func ExactKey(s string) string {
	return strings.ToLower(CollapseSpace(s))
}

// IsExactMatch reports whether a result's title or subtitle equals the
// query, ignoring case and surrounding or repeated white space (docs/product.md §9).
func IsExactMatch(query, title, subtitle string) bool {
	q := ExactKey(query)
	if q == "" {
		return false
	}
	return ExactKey(title) == q || ExactKey(subtitle) == q
}

// UserSearchSubtitle is a user result's subtitle: the university ID of a
// student, "Faculty · {department}" for faculty.
func UserSearchSubtitle(role Role, universityID, department string) string {
	if role == RoleFaculty {
		if department == "" {
			return "Faculty"
		}
		return "Faculty · " + department
	}
	if universityID == "" {
		return "Student"
	}
	return universityID
}

// CommentSearchSubtitle is a comment result's subtitle.
func CommentSearchSubtitle(postAuthor string) string {
	return "Comment on " + postAuthor + "'s post"
}

// SearchRanking is what orders a result: exact matches first, then users,
// posts and comments, and within each group the higher relevance first.
type SearchRanking struct {
	Kind  SearchKind
	Exact bool
	Score float64
}

// CompareSearch orders two results as docs/product.md §9 says; ties keep their order
// when used with a stable sort.
func CompareSearch(a, b SearchRanking) int {
	if a.Exact != b.Exact {
		if a.Exact {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(a.Kind.Rank(), b.Kind.Rank()); c != 0 {
		return c
	}
	return cmp.Compare(b.Score, a.Score)
}

// GroupSearchSubtitle is a group result's subtitle: its kind, visibility
// and members, "Club · Public · 12 members".
func GroupSearchSubtitle(kind, visibility string, members int) string {
	k := map[string]string{GroupKindCourse: "Course", GroupKindClub: "Club", GroupKindDepartment: "Department",
		GroupKindEvent: "Event"}[kind]
	if k == "" {
		k = "Group"
	}
	v := map[string]string{GroupPublic: "Public", GroupClosed: "Closed", GroupSecret: "Secret"}[visibility]
	unit := " members"
	if members == 1 {
		unit = " member"
	}
	if v == "" {
		return k + " · " + Thousands(members) + unit
	}
	return k + " · " + v + " · " + Thousands(members) + unit
}

// IsExactGroupMatch reports whether q names the group exactly: its name,
// or its handle with or without '@'.
func IsExactGroupMatch(q, name, handle string) bool {
	k := ExactKey(q)
	return k != "" && (k == ExactKey(name) || k == handle || k == "@"+handle)
}
