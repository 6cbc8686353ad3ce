package app

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// Mentions (issue 27): a post's or comment's @handles resolve to people
// when it is stored (persistence.StoreMentions), come back with it so that
// clients link them to profiles, and notify the people named through
// their user grains.

// MentionView is a mention as posts and comments carry it: the person and
// the handle the text names them by (lower-case; the text may have it in
// any case).
type MentionView struct {
	ID     string `json:"id"`
	Handle string `json:"handle"`
}

// mentionViews renders refs; nil for none (the field is then left out).
func mentionViews(refs []persistence.MentionRef) []MentionView {
	if len(refs) == 0 {
		return nil
	}
	out := make([]MentionView, len(refs))
	for i, r := range refs {
		out[i] = MentionView{ID: r.UserID.String(), Handle: r.Handle}
	}
	return out
}

// notifyMentioned asks the user grains of the people a post's text now
// mentions (commentID zero) to notify them, after the commit. A lost
// notification loses nothing else: failures are logged, never answered.
func notifyMentioned(ctx context.Context, grains PostGrains, log zerolog.Logger, author, postID uuid.UUID, users []uuid.UUID) {
	if len(users) == 0 || grains == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
	defer cancel()
	if err := grains.NotifyMentioned(ctx, author, postID, uuid.Nil, users); err != nil {
		log.Warn().Err(err).Str("post_id", postID.String()).Int("users", len(users)).Msg("mention notifications failed")
	}
}

// commentMentions answers the mentions of the comment just stored (a
// query only when its text has an @).
func commentMentions(ctx context.Context, db bun.IDB, c *persistence.Comment) ([]MentionView, error) {
	if !strings.Contains(c.Content, "@") {
		return nil, nil
	}
	refs, err := persistence.CommentMentions(ctx, db, []uuid.UUID{c.ID})
	if err != nil {
		return nil, err
	}
	return mentionViews(refs[c.ID]), nil
}

// SuggestedUserView is one person the mention typeahead offers: who they
// are, the handle to insert, and how they relate to the one typing
// (persistence.Relation…; "" for none), which the list says.
type SuggestedUserView struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Handle       string `json:"handle"`
	Avatar       Image  `json:"avatar"`
	Role         string `json:"role"`
	UniversityID string `json:"universityId"`
	Department   string `json:"department,omitempty"`
	Relation     string `json:"relation"`
}

// SuggestResults answers GET /api/users/suggest: data.users.
type SuggestResults struct {
	Users []SuggestedUserView `json:"users"`
}

// Suggest is the mention typeahead (GET /api/users/suggest?q=&limit=): the
// people p may mention whose handle, or a word of whose name, starts with
// what p typed after the @, friends first, then p's batch, course and
// department, then everyone else (persistence.SuggestUsers); never p or
// anyone with a block between them. At most limit (default 8, max 20).
func (s *Search) Suggest(ctx context.Context, p Principal, q string, limit int) (SuggestResults, error) {
	out := SuggestResults{Users: []SuggestedUserView{}}
	if !domain.ValidText(q) {
		return out, domain.InvalidText("q")
	}
	users, err := persistence.SuggestUsers(ctx, s.d.DB, p.UserID, domain.ParseMentionQuery(q), domain.SuggestLimit(limit))
	if err != nil {
		return out, err
	}
	for i := range users {
		u := &users[i]
		sum := NewUserSummary(&u.User)
		out.Users = append(out.Users, SuggestedUserView{
			ID: sum.ID, Name: sum.Name, Handle: u.Handle, Avatar: sum.Avatar, Role: sum.Role,
			UniversityID: sum.UniversityID, Department: sum.Department, Relation: u.Relation,
		})
	}
	return out, nil
}
