package persistence_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/protocol"
)

// member makes a verified user named name (the e-mail made unique).
func member(t *testing.T, db bun.IDB, name string) *persistence.User {
	t.Helper()
	u := newUser(name)
	u.Email = persistence.NewID().String() + "@example.edu"
	u.EmailVerifiedAt = time.Now()
	if err := persistence.InsertUser(context.Background(), db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUserHandles: the database makes every account's handle from its
// name, the next free number after a taken one, and makes it again when an
// unverified sign-up is replaced.
func TestUserHandles(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	tests := []struct {
		name, want string
	}{
		{"Bikram Sen", "bikramsen"},
		{"Bikram Sen", "bikramsen2"},
		{"bikram-sen", "bikramsen3"},
		{"José Núñez", "josenunez"},
		{"Al", "al1"},
		{"Al", "al2"},
		{"X", "x10"},
		{"ранжит", "user"},
		{"ранжит", "user2"},
		{"Chitra Iyer Subramanian Venkataraman", "chitraiyersubramanianve"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" "+tt.want, func(t *testing.T) {
			if u := member(t, db, tt.name); u.Handle != tt.want {
				t.Fatalf("handle %q, want %q", u.Handle, tt.want)
			}
		})
	}

	t.Run("a replaced sign-up takes its new name's", func(t *testing.T) {
		u := newUser("Bikrm Sen")
		if err := persistence.InsertUser(ctx, db, u); err != nil || u.Handle != "bikrmsen" {
			t.Fatalf("insert: %q %v", u.Handle, err)
		}
		u.Name = "Bikram Sen"
		if ok, err := persistence.ReplacePendingUser(ctx, db, u); err != nil || !ok {
			t.Fatalf("replace: %v %v", ok, err)
		}
		got, err := persistence.UserByID(ctx, db, u.ID)
		if err != nil || got.Handle != "bikramsen4" {
			t.Fatalf("after replace: %q %v", got.Handle, err)
		}
	})

	t.Run("sign-ups of one name at once", func(t *testing.T) {
		const n = 4
		handles := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				errs[i] = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
					u := newUser("Meera Iyer")
					u.Email = persistence.NewID().String() + "@example.edu"
					err := persistence.InsertUser(ctx, tx, u)
					handles[i] = u.Handle
					return err
				})
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(handles)
		if fmt.Sprint(handles) != "[meeraiyer meeraiyer2 meeraiyer3 meeraiyer4]" {
			t.Fatalf("handles %v", handles)
		}
	})
}

// mentionWorld is an author and the people around them.
type mentionWorld struct {
	db                             bun.IDB
	author, asha, muter, blocked   *persistence.User
	pending, outsider, ben, chitra *persistence.User
}

func newMentionWorld(t *testing.T) *mentionWorld {
	t.Helper()
	ctx := context.Background()
	db := testdb.New(t)
	w := &mentionWorld{db: db}
	w.author, w.asha, w.muter, w.blocked = member(t, db, "Anil Author"), member(t, db, "Asha Rao"), member(t, db, "Muna Muter"), member(t, db, "Bala Blocked")
	w.outsider, w.ben, w.chitra = member(t, db, "Omar Outsider"), member(t, db, "Ben Das"), member(t, db, "Chitra Iyer")
	w.pending = newUser("Pia Pending")
	insert(t, db, w.pending)
	if _, err := persistence.MuteUser(ctx, db, w.muter.ID, w.author.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.BlockUser(ctx, db, w.blocked.ID, w.author.ID); err != nil {
		t.Fatal(err)
	}
	return w
}

func handlesOf(refs []persistence.MentionRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Handle
	}
	return out
}

func (w *mentionWorld) handles(ids []uuid.UUID) []string {
	byID := map[uuid.UUID]string{}
	for _, u := range []*persistence.User{w.author, w.asha, w.muter, w.blocked, w.pending, w.outsider, w.ben, w.chitra} {
		byID[u.ID] = u.Handle
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// TestStoreMentions: the handles a text names resolve to the people the
// author may mention, and notify those a notification may reach.
func TestStoreMentions(t *testing.T) {
	ctx := context.Background()
	w := newMentionWorld(t)
	db := w.db
	group := &persistence.Group{ID: persistence.NewID(), Handle: "robotics", Name: "Robotics", Kind: "club", Visibility: "closed"}
	if err := persistence.InsertGroup(ctx, db, group, w.author.ID); err != nil {
		t.Fatal(err)
	}
	if err := persistence.SetMembership(ctx, db, group.ID, w.asha.ID, domain.StatusMember, "", uuid.Nil); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		text       string
		group      uuid.UUID
		refs       []string
		notified   []string
		postMentio []string // what the post shows (PostByID)
	}{
		{"unknown handles stay text", "hi @nobody and @asharao", uuid.Nil,
			[]string{"asharao"}, []string{"asharao"}, []string{"asharao"}},
		{"self, a mute and a block", "@anilauthor @munamuter @balablocked @piapending", uuid.Nil,
			[]string{"anilauthor", "munamuter"}, nil, []string{"anilauthor", "munamuter"}},
		{"a closed group's post reaches its members", "@asharao @omaroutsider", group.ID,
			[]string{"asharao", "omaroutsider"}, []string{"asharao"}, []string{"asharao", "omaroutsider"}},
		{"handles fold case", "@AshaRao!", uuid.Nil, []string{"asharao"}, []string{"asharao"}, []string{"asharao"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &persistence.Post{ID: persistence.NewID(), UserID: w.author.ID, Content: tt.text, GroupID: tt.group}
			if err := persistence.InsertPost(ctx, db, p, nil); err != nil {
				t.Fatal(err)
			}
			m, err := persistence.StoreMentions(ctx, db, persistence.MentionSource{PostID: p.ID, AuthorID: w.author.ID,
				Handles: domain.MentionHandles(tt.text)})
			if err != nil {
				t.Fatal(err)
			}
			if got := handlesOf(m.Refs); !slices.Equal(got, tt.refs) {
				t.Errorf("refs %v, want %v", got, tt.refs)
			}
			if got := w.handles(m.Notify); !slices.Equal(got, tt.notified) {
				t.Errorf("notified %v, want %v", got, tt.notified)
			}
			row, err := persistence.PostByID(ctx, db, p.ID, w.asha.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := handlesOf(row.Mentions); !slices.Equal(got, tt.postMentio) {
				t.Errorf("post shows %v, want %v", got, tt.postMentio)
			}
		})
	}
}

// TestMentionEdits: an edit notifies only whom it adds, keeps the ones it
// takes out (marked), and the cap counts over the edits.
func TestMentionEdits(t *testing.T) {
	ctx := context.Background()
	w := newMentionWorld(t)
	db := w.db
	var crowd []*persistence.User
	for i := range 12 {
		crowd = append(crowd, member(t, db, fmt.Sprintf("Crowd Member %c", 'a'+i)))
	}
	mention := func(us ...*persistence.User) string {
		var b strings.Builder
		for _, u := range us {
			b.WriteString("@" + u.Handle + " ")
		}
		return b.String()
	}
	p := &persistence.Post{ID: persistence.NewID(), UserID: w.author.ID, Content: ""}
	if err := persistence.InsertPost(ctx, db, p, nil); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		text     string
		notified int // how many the step notifies
		shows    int // how many the post shows
	}{
		{"the first version", mention(w.asha, w.ben), 2, 2},
		{"an edit adds one and takes one out", mention(w.ben, w.chitra), 1, 2},
		{"putting one back notifies no one", mention(w.asha, w.ben, w.chitra), 0, 3},
		{"ten in all over the edits", mention(crowd...), 7, 12},
		{"none left", mention(w.outsider), 0, 1},
		{"no mentions at all", "plain text", 0, 0},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if err := persistence.SetPostContent(ctx, db, p.ID, s.text); err != nil {
				t.Fatal(err)
			}
			m, err := persistence.StoreMentions(ctx, db, persistence.MentionSource{PostID: p.ID, AuthorID: w.author.ID,
				Handles: domain.MentionHandles(s.text), Edit: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Notify) != s.notified {
				t.Errorf("notified %v, want %d", w.handles(m.Notify), s.notified)
			}
			row, err := persistence.PostByID(ctx, db, p.ID, w.author.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(row.Mentions) != s.shows {
				t.Errorf("post shows %v, want %d", handlesOf(row.Mentions), s.shows)
			}
		})
	}
}

// TestCommentMentions: a comment's mentions are stored with it by the post
// batch, and notify the people they name (the post's author too: the post
// grain then tells them of the mention instead of the comment); the comment
// list shows them.
func TestCommentMentions(t *testing.T) {
	ctx := context.Background()
	w := newMentionWorld(t)
	db := w.db
	p := newPost(t, db, w.author, "party tonight", 0)
	c := &persistence.Comment{ID: persistence.NewID(), UserID: w.asha.ID, Content: "@anilauthor bring @bendas and @nobody"}
	plain := &persistence.Comment{ID: persistence.NewID(), UserID: w.ben.ID, Content: "ok"}
	res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: p.ID, Comments: []*persistence.Comment{c, plain}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NewComments) != 2 {
		t.Fatalf("new comments %d", len(res.NewComments))
	}
	if got := handlesOf(c.Mentions); fmt.Sprint(got) != "[anilauthor bendas]" {
		t.Errorf("comment mentions %v", got)
	}
	if got := w.handles(c.MentionNotices); fmt.Sprint(got) != "[anilauthor bendas]" {
		t.Errorf("comment notifies %v", got)
	}
	cs, _, err := persistence.Comments(ctx, db, p.ID, w.chitra.ID, persistence.Keyset{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || fmt.Sprint(handlesOf(cs[0].Mentions)) != "[anilauthor bendas]" || cs[1].Mentions != nil {
		t.Fatalf("listed %+v", cs)
	}
}

// TestMentionNotificationsRollUp: mentions of one person on one post are
// one notification, its count the people who mentioned them there, unread
// again when another does.
func TestMentionNotificationsRollUp(t *testing.T) {
	ctx := context.Background()
	w := newMentionWorld(t)
	db := w.db
	p := newPost(t, db, w.author, "@asharao look", 0)
	store := func(comment uuid.UUID, by *persistence.User) {
		t.Helper()
		m, err := persistence.StoreMentions(ctx, db, persistence.MentionSource{PostID: p.ID, CommentID: comment, AuthorID: by.ID,
			Handles: []string{w.asha.Handle}})
		if err != nil || len(m.Notify) != 1 {
			t.Fatalf("store: %+v %v", m, err)
		}
	}
	notify := func(by *persistence.User, comment uuid.UUID) *persistence.Notification {
		t.Helper()
		res, err := persistence.CreateNotifications(ctx, db, w.asha.ID, []*persistence.Notification{{ID: persistence.NewID(),
			UserID: w.asha.ID, Type: persistence.NotifyMention, SenderID: by.ID, PostID: p.ID, CommentID: comment}})
		if err != nil || len(res.Created) != 1 {
			t.Fatalf("notify: %+v %v", res, err)
		}
		return res.Created[0]
	}
	comment := func(by *persistence.User) uuid.UUID {
		t.Helper()
		c := &persistence.Comment{ID: persistence.NewID(), UserID: by.ID, Content: "see above"}
		if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: p.ID, Comments: []*persistence.Comment{c}}); err != nil {
			t.Fatal(err)
		}
		return c.ID
	}

	store(uuid.Nil, w.author)
	first := notify(w.author, uuid.Nil)
	if first.Type != persistence.NotifyMention || first.ActorCount != 1 || first.CommentID != uuid.Nil ||
		len(first.Actors) != 1 || first.Actors[0].ID != w.author.ID {
		t.Fatalf("first %+v", first)
	}
	if _, err := persistence.MarkAllNotificationsRead(ctx, db, w.asha.ID); err != nil {
		t.Fatal(err)
	}
	c := comment(w.ben)
	store(c, w.ben)
	second := notify(w.ben, c)
	if second.ID != first.ID || second.ActorCount != 2 || second.CommentID != c || second.IsRead ||
		len(second.Actors) != 2 || second.Actors[0].ID != w.ben.ID {
		t.Fatalf("second %+v", second)
	}
	unread, err := persistence.UnreadNotificationCount(ctx, db, w.asha.ID)
	if err != nil || unread != 1 {
		t.Fatalf("unread %d %v", unread, err)
	}
	list, err := persistence.NotificationsOf(ctx, db, w.asha.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("list %d %v", len(list), err)
	}

	// Ben deletes his comment: the post's mention still stands behind the
	// roll-up, which stays, without the comment.
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: p.ID,
		Removals: []persistence.CommentRemoval{{CommentID: c, UserID: w.ben.ID}}}); err != nil {
		t.Fatal(err)
	}
	list, err = persistence.NotificationsOf(ctx, db, w.asha.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 1 || list[0].ID != first.ID || list[0].CommentID != uuid.Nil {
		t.Fatalf("after the comment went %+v %v", list, err)
	}
	// A roll-up only a comment stood behind goes with the comment.
	p2 := newPost(t, db, w.author, "no mention here", 0)
	c2 := &persistence.Comment{ID: persistence.NewID(), UserID: w.ben.ID, Content: "@" + w.asha.Handle + " look"}
	res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: p2.ID, Comments: []*persistence.Comment{c2}})
	if err != nil || len(res.NewComments) != 1 || len(c2.MentionNotices) != 1 {
		t.Fatalf("comment on p2: %+v %v", c2, err)
	}
	if _, err := persistence.CreateNotifications(ctx, db, w.asha.ID, []*persistence.Notification{{ID: persistence.NewID(),
		UserID: w.asha.ID, Type: persistence.NotifyMention, SenderID: w.ben.ID, PostID: p2.ID, CommentID: c2.ID}}); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: p2.ID,
		Removals: []persistence.CommentRemoval{{CommentID: c2.ID, UserID: w.ben.ID}}}); err != nil {
		t.Fatal(err)
	}
	list, err = persistence.NotificationsOf(ctx, db, w.asha.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 1 || list[0].ID != first.ID {
		t.Fatalf("after the only comment went %+v %v", list, err)
	}

	// A block takes the blocked one out of the roll-up.
	if _, err := persistence.BlockUser(ctx, db, w.asha.ID, w.ben.ID); err != nil {
		t.Fatal(err)
	}
	list, err = persistence.NotificationsOf(ctx, db, w.asha.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 1 || len(list[0].Actors) != 1 || list[0].Actors[0].ID != w.author.ID {
		t.Fatalf("after the block %+v %v", list, err)
	}
}

// TestSuggestUsers: the typeahead offers friends first, then the viewer's
// batch, course and department, then everyone else; never the viewer, a
// blocked person or an unfinished sign-up.
func TestSuggestUsers(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	person := func(name, course, batch, department string) *persistence.User {
		t.Helper()
		u := newUser(name)
		u.Email = persistence.NewID().String() + "@example.edu"
		u.EmailVerifiedAt = time.Now()
		u.Course, u.Batch, u.Department = course, batch, department
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		return u
	}
	viewer := person("Bikram Viewer", "BCA", "2022", "CS")
	other := person("Bikram Zed Other", "", "", "")
	dept := person("Bikram Dept", "MCA", "2020", "CS")
	course := person("Bikram Course", "BCA", "2021", "")
	batch := person("Bikram Batch", "BCA", "2022", "")
	friend := person("Zubin Bikram", "", "", "")
	blocked := person("Bikram Blocked", "BCA", "2022", "")
	pending := newUser("Bikram Pending")
	insert(t, db, pending)
	insert(t, db, ptr(persistence.NewFriendship(viewer.ID, friend.ID)))
	if _, err := persistence.BlockUser(ctx, db, viewer.ID, blocked.ID); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		q    string
		want []*persistence.User
		rel  []string
	}{
		{"bik", []*persistence.User{friend, batch, course, dept, other},
			[]string{persistence.RelationFriend, persistence.RelationBatch, persistence.RelationCourse, persistence.RelationDepartment, ""}},
		{"@bikramc", []*persistence.User{course}, []string{persistence.RelationCourse}},
		{"bikram o", []*persistence.User{other}, []string{""}},
		{"zed", []*persistence.User{other}, []string{""}},
		{"bikramblocked", nil, nil},
		{"bikrampending", nil, nil},
		{"bikramviewer", nil, nil},
		{"@", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got, err := persistence.SuggestUsers(ctx, db, viewer.ID, domain.ParseMentionQuery(tt.q), 8)
			if err != nil {
				t.Fatal(err)
			}
			var names, rels, want []string
			for _, u := range got {
				names, rels = append(names, u.Name), append(rels, u.Relation)
			}
			for _, u := range tt.want {
				want = append(want, u.Name)
			}
			if !slices.Equal(names, want) || !slices.Equal(rels, tt.rel) {
				t.Fatalf("suggested %v %q, want %v %q", names, rels, want, tt.rel)
			}
		})
	}
	t.Run("limit", func(t *testing.T) {
		got, err := persistence.SuggestUsers(ctx, db, viewer.ID, domain.ParseMentionQuery("bik"), 2)
		if err != nil || len(got) != 2 || got[0].ID != friend.ID {
			t.Fatalf("%v %v", got, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestSuggestPlanReadsIndexes: a keystroke of the typeahead reads the
// handles' and the names' indexes, never every user.
func TestSuggestPlanReadsIndexes(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	viewer := member(t, db, "Plan Viewer")
	if _, err := db.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, role, email_verified_at)
		SELECT gen_random_uuid(), 'Person ' || g || ' Kumar', 'p' || g || '@example.edu', 'x', 'student', now()
		FROM generate_series(1, 5000) g`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE users"); err != nil {
		t.Fatal(err)
	}
	query, args := persistence.SuggestSQL(viewer.ID, domain.ParseMentionQuery("person12"), 8)
	p := explain(t, db, "EXPLAIN "+query, args...)
	if !strings.Contains(p, "users_handle_key") || !strings.Contains(p, "users_name_words_idx") || strings.Contains(p, "Seq Scan on users") {
		t.Errorf("the typeahead should read the handle and name indexes:\n%s", p)
	}
}

// TestNotificationKindsOnTheWire: the kinds the schema lets a notification
// have are the ones the protocol names, the new mention among them.
func TestNotificationKindsOnTheWire(t *testing.T) {
	db := testdb.New(t)
	var def string
	if err := db.QueryRowContext(context.Background(), `SELECT pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conname = 'notifications_type_check'`).Scan(&def); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(def, -1) {
		kinds = append(kinds, m[1])
	}
	want := slices.Clone(protocol.NotificationKinds)
	slices.Sort(kinds)
	slices.Sort(want)
	if !slices.Equal(kinds, want) || !slices.Contains(kinds, persistence.NotifyMention) {
		t.Fatalf("the schema allows %v, the protocol names %v", kinds, want)
	}
}
