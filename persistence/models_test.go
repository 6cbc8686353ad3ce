package persistence_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/persistence"
	"campus/persistence/testdb"
)

// now is a timestamp Postgres stores exactly (microseconds).
func now() time.Time { return time.Now().Truncate(time.Microsecond) }

func newUser(name string) *persistence.User {
	return &persistence.User{
		ID:           persistence.NewID(),
		Name:         name,
		Email:        strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@example.edu",
		PasswordHash: "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$aGFzaA",
		Role:         "student",
	}
}

func insert(t *testing.T, db bun.IDB, models ...any) {
	t.Helper()
	for _, m := range models {
		if _, err := db.NewInsert().Model(m).Exec(context.Background()); err != nil {
			t.Fatalf("insert %T: %v", m, err)
		}
	}
}

// normalize puts every time.Time field in UTC without a monotonic reading,
// so that equal instants compare equal with reflect.DeepEqual.
func normalize(v any) {
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Type() == reflect.TypeFor[time.Time]() {
			f.Set(reflect.ValueOf(f.Interface().(time.Time).UTC()))
		}
	}
}

// roundTrip inserts in, reads the row back by primary key into a new value
// of the same type, and requires the two to be equal.
func roundTrip[T any](t *testing.T, db *bun.DB, in *T) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.NewInsert().Model(in).Exec(ctx); err != nil {
		t.Fatalf("insert: %v", err)
	}
	out := new(T)
	// Copy the primary key over, then let WherePK find the row.
	for _, f := range db.Table(reflect.TypeFor[T]()).PKs {
		reflect.ValueOf(out).Elem().FieldByIndex(f.Index).Set(reflect.ValueOf(in).Elem().FieldByIndex(f.Index))
	}
	if err := db.NewSelect().Model(out).WherePK().Scan(ctx); err != nil {
		t.Fatalf("select: %v", err)
	}
	normalize(in)
	normalize(out)
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the row:\n in: %+v\nout: %+v", in, out)
	}
}

func TestModelRoundTrip(t *testing.T) {
	db := testdb.New(t)
	at := now()
	author := newUser("Ada Author")
	reader := newUser("Rob Reader")
	insert(t, db, author, reader)
	post := &persistence.Post{ID: persistence.NewID(), UserID: author.ID, Content: "hello", Visibility: "public", CreatedAt: at, UpdatedAt: at}
	insert(t, db, post)
	comment := &persistence.Comment{ID: persistence.NewID(), PostID: post.ID, UserID: reader.ID, Content: "hi", CreatedAt: at, UpdatedAt: at}
	insert(t, db, comment)

	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"user", func(t *testing.T) {
			u := newUser("Full User")
			u.EmailVerifiedAt = at
			u.UniversityID = "BWU/BCA/20/123"
			u.CollegeID, u.Department, u.Course, u.Batch = "BWU/BCA/20/123", "CS", "BCA", "2020"
			u.AvatarURL, u.AvatarKey, u.CoverURL, u.CoverKey = "/media/a.jpg", "a.jpg", "/media/c.jpg", "c.jpg"
			u.Bio, u.Location = "bio", "Kolkata"
			u.TokenVersion, u.OTPFailures = 3, 2
			u.CreatedAt, u.UpdatedAt = at, at
			roundTrip(t, db, u)
		}},
		{"user with nulls", func(t *testing.T) {
			u := newUser("Faculty Member")
			u.Role = "faculty"
			u.CreatedAt, u.UpdatedAt = at, at
			roundTrip(t, db, u)
		}},
		{"profile", func(t *testing.T) {
			roundTrip(t, db, &persistence.Profile{
				UserID:           author.ID,
				Education:        persistence.Education{Degree: "BCA", Institution: "BWU", Years: "2020-2023"},
				Skills:           []persistence.Skill{{Name: "Go", Proficiency: 80}, {Name: "SQL", Proficiency: 50}},
				Achievements:     []persistence.Achievement{{Title: "Hackathon", Description: "won", Year: "2022"}},
				Interests:        []string{"chess", "music"},
				LikesCount:       7,
				SetupCompletedAt: at,
				UpdatedAt:        at,
			})
		}},
		{"experience", func(t *testing.T) {
			roundTrip(t, db, &persistence.Experience{
				ID: persistence.NewID(), UserID: author.ID, Title: "Intern", Organization: "Acme",
				Location: "Remote", StartDate: "2022-06", EndDate: "2022-08", Description: "built things",
				Position: 1, CreatedAt: at, UpdatedAt: at,
			})
		}},
		{"post", func(t *testing.T) {
			roundTrip(t, db, &persistence.Post{
				ID: persistence.NewID(), UserID: author.ID, Content: "a post", Visibility: "public",
				LikesCount: 4, CommentsCount: 2, CreatedAt: at, UpdatedAt: at,
			})
		}},
		{"post image", func(t *testing.T) {
			roundTrip(t, db, &persistence.PostImage{
				ID: persistence.NewID(), PostID: post.ID, Position: 2, StorageKey: "ab/cd.webp",
				URL: "/media/ab/cd.webp", Type: "image", ContentType: "image/webp",
				Width: 640, Height: 480, SizeBytes: 12345, CreatedAt: at,
			})
		}},
		{"post like", func(t *testing.T) {
			roundTrip(t, db, &persistence.PostLike{PostID: post.ID, UserID: reader.ID, CreatedAt: at})
		}},
		{"comment", func(t *testing.T) {
			roundTrip(t, db, &persistence.Comment{
				ID: persistence.NewID(), PostID: post.ID, UserID: author.ID, Content: "thanks", CreatedAt: at, UpdatedAt: at,
			})
		}},
		{"friend request", func(t *testing.T) {
			roundTrip(t, db, &persistence.FriendRequest{
				ID: persistence.NewID(), SenderID: reader.ID, ReceiverID: author.ID,
				Status: persistence.RequestPending, CreatedAt: at, UpdatedAt: at,
			})
		}},
		{"friendship", func(t *testing.T) {
			f := persistence.NewFriendship(reader.ID, author.ID)
			f.CreatedAt = at
			roundTrip(t, db, &f)
		}},
		{"profile like", func(t *testing.T) {
			roundTrip(t, db, &persistence.ProfileLike{UserID: author.ID, LikerID: reader.ID, CreatedAt: at})
		}},
		{"notification", func(t *testing.T) {
			roundTrip(t, db, &persistence.Notification{
				ID: persistence.NewID(), UserID: author.ID, Type: persistence.NotifyComment,
				SenderID: reader.ID, PostID: post.ID, CommentID: comment.ID, IsRead: true, CreatedAt: at,
			})
		}},
		{"notification with nulls", func(t *testing.T) {
			roundTrip(t, db, &persistence.Notification{
				ID: persistence.NewID(), UserID: author.ID, Type: persistence.NotifyOther, CreatedAt: at,
			})
		}},
		{"otp code", func(t *testing.T) {
			roundTrip(t, db, &persistence.OTPCode{
				ID: persistence.NewID(), UserID: author.ID, Email: "new@example.edu",
				Purpose: persistence.PurposeEmailChange, CodeHash: []byte{0, 1, 2, 254, 255}, Attempts: 1,
				ExpiresAt: at.Add(10 * time.Minute), ConsumedAt: at, CreatedAt: at,
			})
		}},
		{"otp code without user", func(t *testing.T) {
			roundTrip(t, db, &persistence.OTPCode{
				ID: persistence.NewID(), Email: "someone@example.edu", Purpose: persistence.PurposeSignup,
				CodeHash: []byte("hash"), ExpiresAt: at, CreatedAt: at,
			})
		}},
		{"outbox entry", func(t *testing.T) {
			roundTrip(t, db, &persistence.OutboxEntry{
				Entity: persistence.EntityPost, EntityID: post.ID, Op: persistence.OpUpsert, CreatedAt: at,
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestDefaults checks what the database fills in for zero fields.
func TestDefaults(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	u := newUser("Defaults")
	insert(t, db, u)
	p := &persistence.Profile{UserID: u.ID} // nil lists, zero education
	post := &persistence.Post{ID: persistence.NewID(), UserID: u.ID, Content: "x"}
	insert(t, db, p, post)
	insert(t, db, &persistence.PostImage{ID: persistence.NewID(), PostID: post.ID, StorageKey: "k", URL: "/media/k"})

	var nulls struct {
		UniversityIDNull bool   `bun:"uni_null"`
		SkillsType       string `bun:"skills_type"`
		InterestsText    string `bun:"interests_text"`
	}
	err := db.NewSelect().
		ColumnExpr("u.university_id IS NULL AS uni_null").
		ColumnExpr("jsonb_typeof(pr.skills) AS skills_type").
		ColumnExpr("pr.interests::text AS interests_text").
		TableExpr("users AS u").
		Join("JOIN profiles AS pr ON pr.user_id = u.id").
		Where("u.id = ?", u.ID).
		Scan(ctx, &nulls)
	if err != nil {
		t.Fatal(err)
	}
	if !nulls.UniversityIDNull || nulls.SkillsType != "array" || nulls.InterestsText != "[]" {
		t.Errorf("stored %+v: want a NULL university id and empty JSON arrays", nulls)
	}

	var got persistence.Post
	if err := db.NewSelect().Model(&got).Where("p.id = ?", post.ID).Relation("Author").Relation("Images").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if got.Visibility != "public" || got.LikesCount != 0 || time.Since(got.CreatedAt) > time.Minute || got.CreatedAt.IsZero() {
		t.Errorf("post defaults: %+v", got)
	}
	if got.Author == nil || got.Author.ID != u.ID {
		t.Errorf("post author relation: %+v", got.Author)
	}
	if len(got.Images) != 1 || got.Images[0].Type != "image" || got.Images[0].Position != 0 {
		t.Errorf("post images relation: %+v", got.Images)
	}

	if _, err := db.NewInsert().Model(&persistence.Post{UserID: u.ID}).Exec(ctx); err == nil {
		t.Error("a post without an ID was stored")
	}
}

func TestNewFriendshipOrdersThePair(t *testing.T) {
	a, b := persistence.NewID(), persistence.NewID() // b was made later, so it sorts higher
	for _, pair := range [][2]uuid.UUID{{a, b}, {b, a}} {
		f := persistence.NewFriendship(pair[0], pair[1])
		if f.UserLow != a || f.UserHigh != b {
			t.Errorf("NewFriendship(%v, %v) = (%v, %v)", pair[0], pair[1], f.UserLow, f.UserHigh)
		}
	}
}

// sqlState is the Postgres error code of err, or "".
func sqlState(err error) string {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return pgErr.Field('C')
	}
	return ""
}

const (
	uniqueViolation = "23505"
	checkViolation  = "23514"
	notNull         = "23502"
)

func TestConstraints(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	a, b := newUser("Alice Able"), newUser("Bob Baker")
	a.UniversityID = "BWU/BCA/20/1"
	insert(t, db, a, b)
	post := &persistence.Post{ID: persistence.NewID(), UserID: a.ID}
	insert(t, db, post)
	insert(t, db, &persistence.FriendRequest{ID: persistence.NewID(), SenderID: a.ID, ReceiverID: b.ID})

	tests := []struct {
		name  string
		model any
		want  string // SQLSTATE, "" for success
	}{
		{"email unique ignoring case", func() any { u := newUser("x"); u.Email = strings.ToUpper(a.Email); return u }(), uniqueViolation},
		{"university id unique ignoring case", func() any { u := newUser("y"); u.UniversityID = "bwu/bca/20/1"; return u }(), uniqueViolation},
		{"many users without university id", newUser("No Uni"), ""},
		{"role", func() any { u := newUser("z"); u.Role = "admin"; return u }(), checkViolation},
		{"friendship order", &persistence.Friendship{UserLow: persistence.NewFriendship(a.ID, b.ID).UserHigh, UserHigh: persistence.NewFriendship(a.ID, b.ID).UserLow}, checkViolation},
		{"friend request to self", &persistence.FriendRequest{ID: persistence.NewID(), SenderID: a.ID, ReceiverID: a.ID}, checkViolation},
		{"second pending request", &persistence.FriendRequest{ID: persistence.NewID(), SenderID: a.ID, ReceiverID: b.ID}, uniqueViolation},
		{"declined request beside a pending one", &persistence.FriendRequest{ID: persistence.NewID(), SenderID: a.ID, ReceiverID: b.ID, Status: persistence.RequestDeclined}, ""},
		{"request status", &persistence.FriendRequest{ID: persistence.NewID(), SenderID: b.ID, ReceiverID: a.ID, Status: "maybe"}, checkViolation},
		{"profile like of self", &persistence.ProfileLike{UserID: a.ID, LikerID: a.ID}, checkViolation},
		{"post too long", &persistence.Post{ID: persistence.NewID(), UserID: a.ID, Content: strings.Repeat("é", 2001)}, checkViolation},
		{"post of 2000 characters", &persistence.Post{ID: persistence.NewID(), UserID: a.ID, Content: strings.Repeat("é", 2000)}, ""},
		{"negative likes", &persistence.Post{ID: persistence.NewID(), UserID: a.ID, LikesCount: -1}, checkViolation},
		{"fourth image", &persistence.PostImage{ID: persistence.NewID(), PostID: post.ID, Position: 3, StorageKey: "k", URL: "u"}, checkViolation},
		{"notification type", &persistence.Notification{ID: persistence.NewID(), UserID: a.ID, Type: "system"}, checkViolation},
		{"otp purpose", &persistence.OTPCode{ID: persistence.NewID(), Email: "e", Purpose: "login", CodeHash: []byte("h"), ExpiresAt: now()}, checkViolation},
		{"outbox entity", &persistence.OutboxEntry{Entity: "profile", EntityID: a.ID, Op: persistence.OpUpsert}, checkViolation},
		{"experience without user", &persistence.Experience{ID: persistence.NewID()}, notNull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.NewInsert().Model(tt.model).Exec(ctx)
			if got := sqlState(err); got != tt.want || (tt.want != "" && err == nil) {
				t.Errorf("insert %T: err = %v, want SQLSTATE %q", tt.model, err, tt.want)
			}
		})
	}
}

func TestLikeNotificationOncePerPost(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	author, liker, other := newUser("Author"), newUser("Liker"), newUser("Other Liker")
	insert(t, db, author, liker, other)
	post := &persistence.Post{ID: persistence.NewID(), UserID: author.ID}
	insert(t, db, post)
	like := func(typ string, sender *persistence.User) *persistence.Notification {
		return &persistence.Notification{ID: persistence.NewID(), UserID: author.ID, Type: typ, SenderID: sender.ID, PostID: post.ID}
	}

	// Likes roll up: one row per recipient and post, whoever liked.
	insert(t, db, like(persistence.NotifyLike, liker))
	for _, sender := range []*persistence.User{liker, other} {
		if _, err := db.NewInsert().Model(like(persistence.NotifyLike, sender)).Exec(ctx); sqlState(err) != uniqueViolation {
			t.Fatalf("second like notification by %s: err = %v, want a unique violation", sender.Name, err)
		}
	}
	// Comments are not limited that way.
	insert(t, db, like(persistence.NotifyComment, liker), like(persistence.NotifyComment, liker))

	n, err := db.NewSelect().Model((*persistence.Notification)(nil)).Where("user_id = ?", author.ID).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("%d notifications, want 1 like and 2 comments", n)
	}
}

func TestDeletingUserRemovesEverythingTheyOwn(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	gone, stays, third := newUser("Gone Girl"), newUser("Stays Put"), newUser("Third Party")
	insert(t, db, gone, stays, third)
	gonePost := &persistence.Post{ID: persistence.NewID(), UserID: gone.ID, Content: "mine"}
	staysPost := &persistence.Post{ID: persistence.NewID(), UserID: stays.ID, Content: "theirs"}
	insert(t, db, gonePost, staysPost)
	goneComment := &persistence.Comment{ID: persistence.NewID(), PostID: staysPost.ID, UserID: gone.ID, Content: "by gone"}
	commentOnGone := &persistence.Comment{ID: persistence.NewID(), PostID: gonePost.ID, UserID: stays.ID, Content: "on gone's post"}
	staysComment := &persistence.Comment{ID: persistence.NewID(), PostID: staysPost.ID, UserID: stays.ID, Content: "kept"}
	friendship := persistence.NewFriendship(gone.ID, stays.ID)
	keptFriendship := persistence.NewFriendship(stays.ID, third.ID)
	insert(t, db,
		&persistence.Profile{UserID: gone.ID}, &persistence.Profile{UserID: stays.ID},
		&persistence.Experience{ID: persistence.NewID(), UserID: gone.ID, Title: "job"},
		&persistence.PostImage{ID: persistence.NewID(), PostID: gonePost.ID, StorageKey: "k", URL: "u"},
		&persistence.PostLike{PostID: gonePost.ID, UserID: stays.ID},
		&persistence.PostLike{PostID: staysPost.ID, UserID: gone.ID},
		&persistence.PostLike{PostID: staysPost.ID, UserID: third.ID},
		goneComment, commentOnGone, staysComment,
		&persistence.FriendRequest{ID: persistence.NewID(), SenderID: gone.ID, ReceiverID: third.ID},
		&persistence.FriendRequest{ID: persistence.NewID(), SenderID: third.ID, ReceiverID: gone.ID, Status: persistence.RequestDeclined},
		&persistence.FriendRequest{ID: persistence.NewID(), SenderID: third.ID, ReceiverID: stays.ID},
		&friendship, &keptFriendship,
		&persistence.ProfileLike{UserID: gone.ID, LikerID: stays.ID},
		&persistence.ProfileLike{UserID: stays.ID, LikerID: gone.ID},
		&persistence.ProfileLike{UserID: stays.ID, LikerID: third.ID},
		&persistence.Notification{ID: persistence.NewID(), UserID: gone.ID, Type: persistence.NotifyOther},
		&persistence.Notification{ID: persistence.NewID(), UserID: stays.ID, Type: persistence.NotifyFriendAccepted, SenderID: gone.ID},
		&persistence.Notification{ID: persistence.NewID(), UserID: gone.ID, Type: persistence.NotifyComment, SenderID: stays.ID, PostID: gonePost.ID, CommentID: commentOnGone.ID},
		&persistence.Notification{ID: persistence.NewID(), UserID: stays.ID, Type: persistence.NotifyLike, SenderID: third.ID, PostID: staysPost.ID},
		&persistence.OTPCode{ID: persistence.NewID(), UserID: gone.ID, Email: gone.Email, Purpose: persistence.PurposeDeleteAccount, CodeHash: []byte("h"), ExpiresAt: now()},
	)

	if _, err := db.NewDelete().Model(gone).WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}

	// What is left must be exactly what involves only the other users.
	counts := []struct {
		table string
		want  int
	}{
		{"users", 2},
		{"profiles", 1},
		{"experience", 0},
		{"posts", 1},
		{"post_images", 0},
		{"post_likes", 1},
		{"comments", 1},
		{"friend_requests", 1},
		{"friendships", 1},
		{"profile_likes", 1},
		{"notifications", 1},
		{"otp_codes", 0},
	}
	for _, c := range counts {
		t.Run(c.table, func(t *testing.T) {
			var n int
			if err := db.NewSelect().TableExpr(c.table).ColumnExpr("count(*)").Scan(ctx, &n); err != nil {
				t.Fatal(err)
			}
			if n != c.want {
				t.Errorf("%s has %d rows after the delete, want %d", c.table, n, c.want)
			}
		})
	}
}

func TestOutboxInsertWakesListeners(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	db := testdb.New(t)
	ln := pgdriver.NewListener(db)
	defer ln.Close()
	if err := ln.Listen(ctx, persistence.OutboxChannel); err != nil {
		t.Fatal(err)
	}
	// AwaitListening proves the LISTEN is in effect before the insert whose
	// NOTIFY we test.
	if err := persistence.AwaitListening(ctx, db, ln, persistence.OutboxChannel, func(string) {}); err != nil {
		t.Fatal(err)
	}

	entries := []persistence.OutboxEntry{
		{Entity: persistence.EntityUser, EntityID: persistence.NewID(), Op: persistence.OpUpsert},
		{Entity: persistence.EntityComment, EntityID: persistence.NewID(), Op: persistence.OpDelete},
	}
	if _, err := db.NewInsert().Model(&entries).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if entries[0].ID == 0 || entries[1].ID <= entries[0].ID {
		t.Errorf("ids not returned in order: %d, %d", entries[0].ID, entries[1].ID)
	}
	channel, _, err := ln.Receive(ctx)
	if err != nil {
		t.Fatalf("no notification after an outbox insert: %v", err)
	}
	if channel != persistence.OutboxChannel {
		t.Errorf("notified on %q, want %q", channel, persistence.OutboxChannel)
	}
}
