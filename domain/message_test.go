package domain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"campus/domain"
)

func TestMayMessage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		allow domain.AllowFrom
		rel   domain.Relation
		want  string // "" allowed, else the 403's message
	}{
		{"friends always", domain.AllowFriends, domain.Relation{Friends: true}, ""},
		{"friends only refuses a stranger", domain.AllowFriends, domain.Relation{SameCourse: true, SameDepartment: true},
			domain.MsgOnlyFriendsMessage},
		{"course takes the course", domain.AllowCourse, domain.Relation{SameCourse: true}, ""},
		{"course refuses the department", domain.AllowCourse, domain.Relation{SameDepartment: true}, domain.MsgOnlyCourseMessage},
		{"department takes the department", domain.AllowDepartment, domain.Relation{SameDepartment: true}, ""},
		{"department refuses a stranger", domain.AllowDepartment, domain.Relation{}, domain.MsgOnlyDeptMessage},
		{"everyone takes anyone", domain.AllowEveryone, domain.Relation{}, ""},
		{"a block refuses even friends", domain.AllowEveryone, domain.Relation{Friends: true, Blocked: true}, domain.MsgOnlyFriendsMessage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := domain.MayMessage(tc.allow, tc.rel)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, domain.ErrForbidden) || err.Error() != tc.want {
				t.Fatalf("got %v, want 403 %q", err, tc.want)
			}
		})
	}
}

func TestSameCourseAndDepartment(t *testing.T) {
	if !domain.SameCourse("BCA", "20", "bca", "20") || domain.SameCourse("BCA", "20", "BCA", "21") || domain.SameCourse("", "", "", "") {
		t.Fatal("same course")
	}
	if !domain.SameDepartment("CSE", " cse ") || domain.SameDepartment("", "") {
		t.Fatal("same department")
	}
}

func TestConversationInput(t *testing.T) {
	me, other := uuid.New(), uuid.New()
	many := make([]string, 256)
	for i := range many {
		many[i] = uuid.NewString()
	}
	for _, tc := range []struct {
		name  string
		in    domain.ConversationInput
		field string // "" valid
	}{
		{"direct", domain.ConversationInput{Kind: "direct", UserID: other.String()}, ""},
		{"direct to self", domain.ConversationInput{Kind: "direct", UserID: me.String()}, "userId"},
		{"direct without user", domain.ConversationInput{Kind: "direct"}, "userId"},
		{"direct to a bad id", domain.ConversationInput{Kind: "direct", UserID: "x"}, "userId"},
		{"group", domain.ConversationInput{Kind: "group", Title: " Club ", MemberIDs: []string{other.String()}}, ""},
		{"group without title", domain.ConversationInput{Kind: "group", MemberIDs: []string{other.String()}}, "title"},
		{"group title too long", domain.ConversationInput{Kind: "group", Title: strings.Repeat("x", 81), MemberIDs: []string{other.String()}}, "title"},
		{"group of one", domain.ConversationInput{Kind: "group", Title: "Club", MemberIDs: []string{me.String()}}, "memberIds"},
		{"group of 257", domain.ConversationInput{Kind: "group", Title: "Club", MemberIDs: many}, "memberIds"},
		{"group of 256", domain.ConversationInput{Kind: "group", Title: "Club", MemberIDs: many[:255]}, ""},
		{"group with a bad id", domain.ConversationInput{Kind: "group", Title: "Club", MemberIDs: []string{"x"}}, "memberIds[0]"},
		{"no kind", domain.ConversationInput{}, "kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := tc.in.Validate(me)
			if tc.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				if nc.Kind == domain.ConversationGroup && (nc.Title != strings.TrimSpace(tc.in.Title) || len(nc.Members) == 0) {
					t.Fatalf("%+v", nc)
				}
				return
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindInvalid || de.Fields[0].Field != tc.field {
				t.Fatalf("got %v, want a 400 on %s", err, tc.field)
			}
		})
	}
}

func TestMessageInput(t *testing.T) {
	reply := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		name   string
		in     domain.MessageInput
		field  string
		images int
	}{
		{"plain", domain.MessageInput{ClientID: uuid.NewString(), Body: " hi "}, "", 0},
		{"reply", domain.MessageInput{ClientID: "c_1", Body: "hi", ReplyToSeq: reply(3)}, "", 0},
		{"5000 characters", domain.MessageInput{ClientID: "c", Body: strings.Repeat("é", 5000)}, "", 0},
		{"5001 characters", domain.MessageInput{ClientID: "c", Body: strings.Repeat("é", 5001)}, "body", 0},
		{"blank", domain.MessageInput{ClientID: "c", Body: " \n "}, "body", 0},
		{"nul", domain.MessageInput{ClientID: "c", Body: "a\x00"}, "body", 0},
		{"no client id", domain.MessageInput{Body: "hi"}, "clientId", 0},
		{"client id with a space", domain.MessageInput{ClientID: "a b", Body: "hi"}, "clientId", 0},
		{"client id too long", domain.MessageInput{ClientID: strings.Repeat("a", 65), Body: "hi"}, "clientId", 0},
		{"reply to zero", domain.MessageInput{ClientID: "c", Body: "hi", ReplyToSeq: reply(0)}, "replyToSeq", 0},
		{"images only", domain.MessageInput{ClientID: "c", Body: "  "}, "", 2},
		{"text and four images", domain.MessageInput{ClientID: "c", Body: "look", ImageAlts: []string{"a", "b"}}, "", 4},
		{"five images", domain.MessageInput{ClientID: "c", Body: "look"}, "images", 5},
		{"more descriptions than images", domain.MessageInput{ClientID: "c", ImageAlts: []string{"a", "b"}}, "imageAlts", 1},
		{"description too long", domain.MessageInput{ClientID: "c", ImageAlts: []string{strings.Repeat("a", 1001)}}, "imageAlts", 1},
		{"images with nul text", domain.MessageInput{ClientID: "c", Body: "a\x00"}, "body", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.in.Validate(tc.images)
			if tc.field == "" {
				if err != nil || m.Body != strings.TrimSpace(tc.in.Body) || len(m.Alts) != tc.images {
					t.Fatalf("%+v %v", m, err)
				}
				return
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Fields[0].Field != tc.field {
				t.Fatalf("got %v, want a 400 on %s", err, tc.field)
			}
		})
	}
}

func TestValidateEmoji(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"👍", true}, {"👍🏽", true}, {"👩‍💻", true}, {"🇮🇳", true}, {"1️⃣", true}, {"❤️", true}, {"🏴󠁧󠁢󠁳󠁣󠁴󠁿", true},
		{"", false}, {"a", false}, {"1", false}, {"👍👍", false}, {"é", false}, {"ab", false}, {"👍a", false},
		{"\x00", false}, {"<3", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := domain.ValidateEmoji(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("%q: %v", tc.in, err)
			}
		})
	}
}

func TestParseAllowFrom(t *testing.T) {
	for _, s := range []string{"friends", "course", "department", "everyone"} {
		if a, err := domain.ParseAllowFrom(s); err != nil || string(a) != s {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if _, err := domain.ParseAllowFrom("nobody"); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("nobody: %v", err)
	}
}

// TestImagesOnlyText: what stands for the text of a message of images only
// in a reply's quote, a push and the list.
func TestImagesOnlyText(t *testing.T) {
	for _, tc := range []struct {
		images int
		want   string
	}{{0, ""}, {1, "Photo"}, {2, "2 photos"}, {4, "4 photos"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := domain.ImagesOnlyText(tc.images); got != tc.want {
				t.Fatalf("%d images: %q, want %q", tc.images, got, tc.want)
			}
		})
	}
}
