package httpapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io/fs"
	"mime/multipart"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
	"campus/media"
	"campus/persistence"
)

// social is the stack with the profile, friend and notification areas
// wired to real app objects, a media store in a known directory and a
// recording Pusher.
type social struct {
	*stack
	mediaDir string
	pusher   *recordingPusher
}

func newSocial(t *testing.T) *social {
	t.Helper()
	st := newStack(t, stackOptions{})
	s := &social{stack: st, mediaDir: t.TempDir(), pusher: &recordingPusher{}}
	store, err := media.New(s.mediaDir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	st.media = store
	profiles := app.NewProfiles(app.ProfilesDeps{DB: st.db, Media: store, Log: zerolog.Nop()})
	friends := app.NewFriends(app.FriendsDeps{DB: st.db, Pusher: s.pusher, Log: zerolog.Nop()})
	notifications := app.NewNotifications(app.NotificationsDeps{DB: st.db, Log: zerolog.Nop()})
	st.testServer = newTestServer(t, func(d *Deps) {
		// Concurrent requests log at once: the default log buffer is not
		// safe for that, the test writer is.
		d.Log = zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
		d.Sessions = st.sessions
		d.Accounts = st.accounts
		d.Media = store.Handler()
		d.Profiles = profiles
		d.Friends = friends
		d.Notifications = notifications
	})
	return s
}

// recordingPusher keeps every live push, for tests to assert on.
type recordingPusher struct {
	mu     sync.Mutex
	events []pushed
}

type pushed struct {
	to    uuid.UUID
	event string
	data  any
}

func (r *recordingPusher) PushToUser(_ context.Context, to uuid.UUID, event string, data any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, pushed{to, event, data})
	return nil
}

// take returns the pushes so far and forgets them.
func (r *recordingPusher) take() []pushed {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// member is a user made straight in the database, with a token.
type member struct {
	*persistence.User
	token string
	id    string
}

type memberOpt func(*persistence.User)

func withCourse(course, batch string) memberOpt {
	return func(u *persistence.User) { u.Course, u.Batch = course, batch }
}

func asFaculty(dept string) memberOpt {
	return func(u *persistence.User) {
		u.Role, u.Department, u.CollegeID, u.UniversityID, u.Course, u.Batch = "faculty", dept, dept, "", "", ""
	}
}

func unverified() memberOpt { return func(u *persistence.User) { u.EmailVerifiedAt = time.Time{} } }

var memberSeq = struct {
	sync.Mutex
	n int
}{}

// member creates a verified student (unless opts say otherwise).
func (s *social) member(t *testing.T, name string, opts ...memberOpt) member {
	t.Helper()
	memberSeq.Lock()
	memberSeq.n++
	n := memberSeq.n
	memberSeq.Unlock()
	uid := fmt.Sprintf("BWU/BCA/20/%d", n)
	u := &persistence.User{
		ID: persistence.NewID(), Name: name, Email: fmt.Sprintf("user%d@uni.edu", n), PasswordHash: "unused",
		Role: "student", UniversityID: uid, CollegeID: uid, Course: "BCA", Batch: "20", EmailVerifiedAt: time.Now(),
	}
	for _, o := range opts {
		o(u)
	}
	if err := persistence.InsertUser(context.Background(), s.db, u); err != nil {
		t.Fatal(err)
	}
	token, err := s.sessions.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	return member{User: u, token: token, id: u.ID.String()}
}

// must calls and fails unless the status is want; it returns data.
func (s *social) must(t *testing.T, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	status, env := s.call(t, method, path, token, body)
	if status != want {
		t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, env)
	}
	return data(env)
}

// fails calls and checks an error answer: status, message and field.
func (s *social) fails(t *testing.T, want int, method, path, token string, body any, msg, field string) {
	t.Helper()
	status, env := s.call(t, method, path, token, body)
	if status != want || env["status"] != "error" {
		t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, env)
	}
	if msg != "" && env["message"] != msg {
		t.Fatalf("%s %s: message %q, want %q", method, path, env["message"], msg)
	}
	if field != "" && !strings.Contains(fmt.Sprint(env["errors"]), "field:"+field+" ") {
		t.Fatalf("%s %s: errors %v do not name %s", method, path, env["errors"], field)
	}
}

// upload posts one file as a multipart field and decodes the envelope.
func (s *social) upload(t *testing.T, path, token, field, filename string, content []byte) (int, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if field != "" {
		part, err := w.CreateFormFile(field, filename)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(content)
	} else {
		w.WriteField("note", "no file here")
	}
	w.Close()
	a := s.do(t, "POST", path, body.Bytes(), "Content-Type", w.FormDataContentType(), "Authorization", "Bearer "+token)
	return a.status, envelope(t, a.body)
}

// mediaFiles lists the stored files (temporary ones included).
func (s *social) mediaFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(s.mediaDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, filepath.Base(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// outboxRows counts the search outbox entries for a user.
func (s *social) outboxRows(t *testing.T, id uuid.UUID) int {
	t.Helper()
	n, err := s.db.NewSelect().Model((*persistence.OutboxEntry)(nil)).Where("entity = 'user' AND entity_id = ?", id).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bigPNG is a valid PNG of at least minBytes: a small image carrying a
// large private ancillary chunk, as some editors write.
func bigPNG(t *testing.T, minBytes int) []byte {
	t.Helper()
	small := pngImage(t, 16, 16)
	const afterIHDR = 8 + 12 + 13
	payload := make([]byte, minBytes)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	chunk = append(chunk, "prVt"...)
	chunk = append(chunk, payload...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte{}, small[:afterIHDR]...)
	out = append(out, chunk...)
	return append(out, small[afterIHDR:]...)
}

const gpsSecret = "GPS 22.5726N 88.3639E home"

// jpegWithGPS is a JPEG whose EXIF carries a GPS block and a description,
// as a phone writes it.
func jpegWithGPS(t *testing.T) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, 32, 24))
	var j bytes.Buffer
	if err := jpeg.Encode(&j, m, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	bo := binary.LittleEndian
	u16 := func(v uint16) []byte { return bo.AppendUint16(nil, v) }
	u32 := func(v uint32) []byte { return bo.AppendUint32(nil, v) }
	desc := append([]byte(gpsSecret), 0)
	// TIFF header, IFD0 {ImageDescription, GPS IFD pointer}, GPS IFD {LatitudeRef, Latitude}, data.
	const ifd0At = 8
	const ifd0Len = 2 + 12*2 + 4
	const gpsAt = ifd0At + ifd0Len
	const gpsLen = 2 + 12*2 + 4
	const dataAt = gpsAt + gpsLen
	tiff := append([]byte("II"), u16(42)...)
	tiff = append(tiff, u32(ifd0At)...)
	tiff = append(tiff, u16(2)...)
	tiff = append(tiff, u16(0x010E)...)
	tiff = append(tiff, u16(2)...)
	tiff = append(tiff, u32(uint32(len(desc)))...)
	tiff = append(tiff, u32(dataAt)...)
	tiff = append(tiff, u16(0x8825)...)
	tiff = append(tiff, u16(4)...)
	tiff = append(tiff, u32(1)...)
	tiff = append(tiff, u32(gpsAt)...)
	tiff = append(tiff, u32(0)...)
	tiff = append(tiff, u16(2)...)
	tiff = append(tiff, u16(1)...)
	tiff = append(tiff, u16(2)...)
	tiff = append(tiff, u32(2)...)
	tiff = append(tiff, 'N', 0, 0, 0)
	tiff = append(tiff, u16(2)...)
	tiff = append(tiff, u16(5)...)
	tiff = append(tiff, u32(3)...)
	tiff = append(tiff, u32(uint32(dataAt+len(desc)))...)
	tiff = append(tiff, u32(0)...)
	tiff = append(tiff, desc...)
	for _, v := range []uint32{22, 1, 34, 1, 21, 1} {
		tiff = append(tiff, u32(v)...)
	}
	payload := append([]byte("Exif\x00\x00"), tiff...)
	n := len(payload) + 2
	seg := append([]byte{0xFF, 0xE1, byte(n >> 8), byte(n)}, payload...)
	out := append([]byte{}, j.Bytes()[:2]...)
	out = append(out, seg...)
	return append(out, j.Bytes()[2:]...)
}

// hugePNGHeader is a PNG signature and IHDR declaring w×h pixels, then the
// start of an IDAT that never ends: decoding it would need gigabytes.
func hugePNGHeader(w, h int) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(ihdr)))
	chunk = append(chunk, "IHDR"...)
	chunk = append(chunk, ihdr...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	b := append([]byte("\x89PNG\r\n\x1a\n"), chunk...)
	return append(b, 0, 0x10, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x9C)
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestProfileReadAndEdit(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha Rao")
	ben := s.member(t, "Ben Das")

	me := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil)
	for k, want := range map[string]any{"id": asha.id, "name": "Asha Rao", "email": asha.Email, "likesCount": 0.0,
		"isLikedByViewer": false, "postsCount": 0.0, "friendsCount": 0.0, "setupCompleted": false, "location": ""} {
		if me[k] != want {
			t.Fatalf("profile.%s = %v, want %v", k, me[k], want)
		}
	}
	if obj(me["avatar"])["url"] != "" || obj(me["coverPhoto"])["url"] != "" {
		t.Fatalf("missing images must be empty urls: %v %v", me["avatar"], me["coverPhoto"])
	}
	for _, k := range []string{"skills", "achievements", "interests", "experience", "profileLikes"} {
		if l, ok := me[k].([]any); !ok || len(l) != 0 {
			t.Fatalf("%s = %v, want []", k, me[k])
		}
	}

	before := s.outboxRows(t, asha.ID)
	edited := s.must(t, 200, "PATCH", "/api/profile", asha.token, map[string]any{
		"name": " Asha R. ", "bio": "Loves Go", "location": "Kolkata",
		"education":    map[string]any{"degree": "BCA", "institution": "BWU", "years": "2020-2024"},
		"skills":       []any{map[string]any{"name": "Go", "proficiency": "80"}, map[string]any{"name": "SQL"}, map[string]any{"name": "C", "proficiency": 140}},
		"achievements": []any{map[string]any{"title": "Hackathon", "description": "First place", "year": 2023}},
		"interests":    "chess, music,, ",
	})
	if edited["name"] != "Asha R." || edited["bio"] != "Loves Go" || edited["location"] != "Kolkata" {
		t.Fatalf("edit answer %v", edited)
	}
	if got := fmt.Sprint(edited["skills"]); got != "[map[name:Go proficiency:80] map[name:SQL proficiency:50] map[name:C proficiency:100]]" {
		t.Fatalf("skills %s", got)
	}
	if got := fmt.Sprint(edited["interests"]); got != "[chess music]" {
		t.Fatalf("interests %s", got)
	}
	if got := fmt.Sprint(edited["education"]); got != "map[degree:BCA institution:BWU years:2020-2024]" {
		t.Fatalf("education %s", got)
	}
	if got := fmt.Sprint(edited["achievements"]); got != "[map[description:First place title:Hackathon year:2023]]" {
		t.Fatalf("achievements %s", got)
	}
	if s.outboxRows(t, asha.ID) <= before {
		t.Fatal("a name change must queue the user for the search index")
	}

	// Ben sees the same profile without the e-mail address.
	seen := s.must(t, 200, "GET", "/api/profile/"+asha.id, ben.token, nil)
	if _, ok := seen["email"]; ok || seen["name"] != "Asha R." || fmt.Sprint(seen["interests"]) != "[chess music]" {
		t.Fatalf("public profile %v", seen)
	}
	u := obj(s.must(t, 200, "GET", "/api/users/"+asha.id, ben.token, nil)["user"])
	if _, ok := u["email"]; ok || u["name"] != "Asha R." || u["bio"] != "Loves Go" {
		t.Fatalf("GET /users/{id} %v", u)
	}

	// The /users family edits the same data and answers {user}.
	u = obj(s.must(t, 200, "PATCH", "/api/users/me", asha.token, map[string]any{"bio": "", "interests": []string{"art"}})["user"])
	if u["bio"] != "" || u["email"] != asha.Email || u["name"] != "Asha R." {
		t.Fatalf("PATCH /users/me %v", u)
	}
	if p := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil); fmt.Sprint(p["interests"]) != "[art]" || len(list(p["skills"])) != 3 {
		t.Fatalf("PATCH /users/me must leave other fields: %v", p)
	}

	// The PUT calls replace one section each.
	p := s.must(t, 200, "PUT", "/api/profile/skills", asha.token, map[string]any{"skills": []any{map[string]any{"name": "Rust", "proficiency": 10}}})
	if fmt.Sprint(p["skills"]) != "[map[name:Rust proficiency:10]]" || p["bio"] != "" {
		t.Fatalf("PUT skills %v", p["skills"])
	}
	p = s.must(t, 200, "PUT", "/api/profile/education", asha.token, map[string]any{"degree": "MCA", "institution": "BWU", "years": "2024-"})
	if obj(p["education"])["degree"] != "MCA" {
		t.Fatalf("PUT education (bare) %v", p["education"])
	}
	p = s.must(t, 200, "PUT", "/api/profile/education", asha.token, map[string]any{"education": map[string]any{"degree": "PhD"}})
	if obj(p["education"])["degree"] != "PhD" || obj(p["education"])["institution"] != "" {
		t.Fatalf("PUT education (wrapped) %v", p["education"])
	}
	p = s.must(t, 200, "PUT", "/api/profile/experience", asha.token, []any{
		map[string]any{"title": "Intern", "company": "ACME", "startDate": "2023-06", "endDate": "2023-08"},
		map[string]any{"title": "TA", "organization": "BWU"},
	})
	if exp := list(p["experience"]); len(exp) != 2 || obj(exp[0])["organization"] != "ACME" || obj(exp[1])["title"] != "TA" {
		t.Fatalf("PUT experience %v", p["experience"])
	}
	p = s.must(t, 200, "PUT", "/api/profile/experience", asha.token, map[string]any{"experience": []any{map[string]any{"title": "RA"}}})
	if exp := list(p["experience"]); len(exp) != 1 || obj(exp[0])["title"] != "RA" {
		t.Fatalf("PUT experience (wrapped) %v", p["experience"])
	}

	long := func(n int) string { return strings.Repeat("x", n+1) }
	tests := []struct {
		name, method, path string
		body               any
		status             int
		msg, field         string
	}{
		{"blank name", "PATCH", "/api/profile", map[string]any{"name": " "}, 400, domain.MsgNameRequired, "name"},
		{"long name", "PATCH", "/api/users/me", map[string]any{"name": long(100)}, 400, domain.MsgNameTooLong, "name"},
		{"long bio", "PATCH", "/api/profile", map[string]any{"bio": long(500)}, 400, "Bio must be at most 500 characters long", "bio"},
		{"long location", "PATCH", "/api/users/me", map[string]any{"location": long(100)}, 400, "Location must be at most 100 characters long", "location"},
		{"too many skills", "PUT", "/api/profile/skills", map[string]any{"skills": repeat(31, map[string]any{"name": "x"})}, 400, "You can add at most 30 skills", "skills"},
		{"skill proficiency not a number", "PATCH", "/api/profile", map[string]any{"skills": []any{map[string]any{"name": "Go", "proficiency": "high"}}}, 400, domain.MsgProficiencyNotNumber, "skills[0].proficiency"},
		{"long skill", "PUT", "/api/profile/skills", map[string]any{"skills": []any{map[string]any{"name": long(50)}}}, 400, "Skill name must be at most 50 characters long", "skills[0].name"},
		{"too many achievements", "PATCH", "/api/profile", map[string]any{"achievements": repeat(31, map[string]any{"title": "t"})}, 400, "You can add at most 30 achievements", "achievements"},
		{"too many interests", "PATCH", "/api/profile", map[string]any{"interests": distinctWords(31)}, 400, "You can add at most 30 interests", "interests"},
		{"long interest", "PATCH", "/api/profile", map[string]any{"interests": long(50)}, 400, "Each interest must be at most 50 characters long", "interests"},
		{"long degree", "PUT", "/api/profile/education", map[string]any{"degree": long(100)}, 400, "Degree must be at most 100 characters long", "education.degree"},
		{"too many experience entries", "PUT", "/api/profile/experience", repeat(21, map[string]any{"title": "t"}), 400, "You can add at most 20 experience entries", "experience"},
		{"skills section required", "PUT", "/api/profile/skills", map[string]any{"bio": "x"}, 400, "Skills are required", "skills"},
		{"experience section required", "PUT", "/api/profile/experience", map[string]any{}, 400, "Experience is required", "experience"},
		{"wrong type names the field", "PATCH", "/api/profile", map[string]any{"bio": map[string]any{"a": 1}}, 400, "", "bio"},
		{"unknown profile", "GET", "/api/profile/" + uuid.NewString(), nil, 404, "User not found", ""},
		{"malformed id", "GET", "/api/users/not-an-id", nil, 404, "User not found", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.fails(t, tt.status, tt.method, tt.path, asha.token, tt.body, tt.msg, tt.field)
		})
	}
	// Nothing of the refused edits was stored.
	if p := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil); p["name"] != "Asha R." || len(list(p["skills"])) != 1 {
		t.Fatalf("refused edits changed the profile: %v", p)
	}

	t.Run("unverified accounts are invisible", func(t *testing.T) {
		ghost := s.member(t, "Ghost", unverified())
		s.fails(t, 404, "GET", "/api/profile/"+ghost.id, asha.token, nil, "User not found", "")
		s.fails(t, 404, "GET", "/api/users/"+ghost.id, asha.token, nil, "User not found", "")
	})
	t.Run("signed-in only", func(t *testing.T) {
		for _, c := range [][2]string{{"GET", "/api/profile/me"}, {"GET", "/api/profile/" + asha.id}, {"PATCH", "/api/profile"},
			{"GET", "/api/users/" + asha.id}, {"PATCH", "/api/users/me"}, {"POST", "/api/profile/setup"}} {
			if status, _ := s.call(t, c[0], c[1], "", map[string]any{"name": "x"}); status != 401 {
				t.Fatalf("%s %s without token: %d", c[0], c[1], status)
			}
		}
	})
}

func repeat(n int, v any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func distinctWords(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("interest%d", i)
	}
	return strings.Join(words, ",")
}

func TestProfileLikes(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	cara := s.member(t, "Cara")
	path := "/api/profile/" + asha.id

	steps := []struct {
		who    member
		action string
		liked  bool
		count  float64
	}{
		{ben, "like", true, 1},
		{ben, "like", true, 1}, // idempotent
		{cara, "like", true, 2},
		{ben, "unlike", false, 1},
		{ben, "unlike", false, 1}, // idempotent
	}
	for i, st := range steps {
		d := s.must(t, 200, "POST", path+"/"+st.action, st.who.token, nil)
		if d["isLiked"] != st.liked || d["likesCount"] != st.count {
			t.Fatalf("step %d %s %s: %v", i, st.who.Name, st.action, d)
		}
	}
	viewed := s.must(t, 200, "GET", path, cara.token, nil)
	if viewed["likesCount"] != 1.0 || viewed["isLikedByViewer"] != true || fmt.Sprint(viewed["profileLikes"]) != "["+cara.id+"]" {
		t.Fatalf("profile after likes: %v", viewed)
	}
	if viewed := s.must(t, 200, "GET", path, ben.token, nil); viewed["isLikedByViewer"] != false {
		t.Fatalf("Ben unliked: %v", viewed)
	}

	s.fails(t, 400, "POST", path+"/like", asha.token, nil, "You cannot like your own profile", "")
	s.fails(t, 400, "POST", path+"/unlike", asha.token, nil, "You cannot like your own profile", "")
	s.fails(t, 404, "POST", "/api/profile/"+uuid.NewString()+"/like", ben.token, nil, "User not found", "")
	if status, _ := s.call(t, "POST", path+"/like", "", nil); status != 401 {
		t.Fatalf("like without token: %d", status)
	}

	// Many likers at once, each liking twice: the counter equals the rows.
	var likers []member
	for i := range 12 {
		likers = append(likers, s.member(t, fmt.Sprintf("Fan %d", i)))
	}
	var wg sync.WaitGroup
	for _, m := range likers {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if status, env := s.call(t, "POST", path+"/like", m.token, nil); status != 200 {
					t.Errorf("concurrent like: %d %v", status, env)
				}
			}()
		}
	}
	wg.Wait()
	var rows, counter int
	if err := s.db.QueryRowContext(context.Background(),
		"SELECT (SELECT count(*) FROM profile_likes WHERE user_id = ?), (SELECT likes_count FROM profiles WHERE user_id = ?)",
		asha.ID, asha.ID).Scan(&rows, &counter); err != nil {
		t.Fatal(err)
	}
	if rows != 13 || counter != 13 {
		t.Fatalf("after concurrent likes: %d rows, counter %d; want 13 and 13", rows, counter)
	}
}

func TestProfileUploads(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	tests := []struct {
		name, path, field string
	}{
		{"profile avatar", "/api/profile/avatar", "avatar"},
		{"profile cover", "/api/profile/cover", "coverPhoto"},
		{"users avatar", "/api/users/avatar", "avatar"},
		{"users cover", "/api/users/cover-photo", "coverPhoto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A PNG named .jpg is stored as the PNG it is.
			status, env := s.upload(t, tt.path, asha.token, tt.field, "photo.jpg", pngImage(t, 40, 30))
			if status != 200 {
				t.Fatalf("upload: %d %v", status, env)
			}
			img := obj(data(env)[tt.field])
			key, _ := img["publicId"].(string)
			if !strings.HasSuffix(key, ".png") || img["url"] != "/media/"+key {
				t.Fatalf("answer %v", data(env))
			}
			if tt.field == "coverPhoto" && data(env)["coverPhotoUrl"] != img["url"] {
				t.Fatalf("coverPhotoUrl %v", data(env)["coverPhotoUrl"])
			}
			if got := obj(obj(data(env)["user"])[tt.field]); got["url"] != img["url"] {
				t.Fatalf("user %s = %v", tt.field, got)
			}
			served := s.do(t, "GET", img["url"].(string), nil)
			if served.status != 200 || served.header["Content-Type"] != "image/png" {
				t.Fatalf("served %d %v", served.status, served.header)
			}
			me := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil)
			if obj(me[tt.field])["publicId"] != key {
				t.Fatalf("profile %s = %v, want %s", tt.field, me[tt.field], key)
			}

			// Replacing it deletes the old file once the new one is in.
			status, env = s.upload(t, tt.path, asha.token, tt.field, "again.png", pngImage(t, 20, 20))
			if status != 200 {
				t.Fatalf("second upload: %d %v", status, env)
			}
			newKey := obj(data(env)[tt.field])["publicId"].(string)
			if s.do(t, "GET", "/media/"+key, nil).status != 404 {
				t.Fatal("the replaced file is still served")
			}
			if s.do(t, "GET", "/media/"+newKey, nil).status != 200 {
				t.Fatal("the new file is not served")
			}
		})
	}
	// Two images are current now: an avatar and a cover.
	if files := s.mediaFiles(t); len(files) != 2 {
		t.Fatalf("media files %v, want the current avatar and cover only", files)
	}
	avatarBefore := s.outboxRows(t, asha.ID)

	refusals := []struct {
		name, path, field, filename string
		content                     []byte
		status                      int
		msg                         string
	}{
		{"text named .png", "/api/profile/avatar", "avatar", "evil.png", []byte("#!/bin/sh\necho not an image\n"), 415, "Please select only image files. Videos are not supported."},
		{"6 MB image", "/api/profile/cover", "coverPhoto", "big.png", bigPNG(t, 6<<20), 413, "File size must be less than 5MB."},
		{"20000x20000 header", "/api/users/avatar", "avatar", "bomb.png", hugePNGHeader(20000, 20000), 413, ""},
		{"no file", "/api/profile/avatar", "", "", nil, 400, "Please select an image file"},
		{"wrong field", "/api/users/cover-photo", "avatar", "photo.png", pngImage(t, 4, 4), 400, "Please select an image file"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			// That a bomb's header is refused without decoding its pixels is
			// media's TestSaveRefuses (by bytes allocated, not seconds).
			status, env := s.upload(t, tt.path, asha.token, tt.field, tt.filename, tt.content)
			if status != tt.status || (tt.msg != "" && env["message"] != tt.msg) {
				t.Fatalf("status %d %v, want %d %q", status, env, tt.status, tt.msg)
			}
		})
	}
	if files := s.mediaFiles(t); len(files) != 2 {
		t.Fatalf("refused uploads left files: %v", files)
	}
	if s.outboxRows(t, asha.ID) != avatarBefore {
		t.Fatal("refused uploads changed the user")
	}
	t.Run("not multipart", func(t *testing.T) {
		s.fails(t, 400, "POST", "/api/profile/avatar", asha.token, map[string]any{"avatar": "https://evil.example/x.png"}, "Please select an image file", "avatar")
	})
	t.Run("signed-in only", func(t *testing.T) {
		if status, _ := s.upload(t, "/api/profile/avatar", "", "avatar", "a.png", pngImage(t, 4, 4)); status != 401 {
			t.Fatalf("upload without token: %d", status)
		}
	})

	t.Run("GPS EXIF is stripped", func(t *testing.T) {
		src := jpegWithGPS(t)
		if !bytes.Contains(src, []byte(gpsSecret)) {
			t.Fatal("test image lacks its GPS block")
		}
		status, env := s.upload(t, "/api/profile/avatar", asha.token, "avatar", "me.jpg", src)
		if status != 200 {
			t.Fatalf("upload: %d %v", status, env)
		}
		url := obj(data(env)["avatar"])["url"].(string)
		if !strings.HasSuffix(url, ".jpg") {
			t.Fatalf("url %s", url)
		}
		served := s.do(t, "GET", url, nil)
		if served.status != 200 || served.header["Content-Type"] != "image/jpeg" {
			t.Fatalf("served %d %v", served.status, served.header)
		}
		if bytes.Contains(served.body, []byte(gpsSecret)) || bytes.Contains(served.body, []byte("Exif\x00\x00")) {
			t.Fatal("stored avatar still carries EXIF/GPS")
		}
		if _, err := jpeg.Decode(bytes.NewReader(served.body)); err != nil {
			t.Fatalf("stored avatar is not a JPEG: %v", err)
		}
		if s.outboxRows(t, asha.ID) <= avatarBefore {
			t.Fatal("an avatar change must queue the user for the search index")
		}
	})
}

func TestProfileSetup(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	upload := func(m member, path, field string) map[string]any {
		status, env := s.upload(t, path, m.token, field, "x.png", pngImage(t, 8, 8))
		if status != 200 {
			t.Fatalf("upload: %d %v", status, env)
		}
		return obj(data(env)[field])
	}
	avatar := upload(asha, "/api/profile/avatar", "avatar")
	cover := upload(asha, "/api/profile/cover", "coverPhoto")
	bensAvatar := upload(ben, "/api/profile/avatar", "avatar")

	refusals := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"someone else's upload", map[string]any{"name": "A", "avatar": bensAvatar}, "avatar"},
		{"a made-up url", map[string]any{"name": "A", "avatar": map[string]any{"url": "https://evil.example/a.png"}}, "avatar"},
		{"a url string not ours", map[string]any{"name": "A", "coverPhoto": "https://evil.example/c.png"}, "coverPhoto"},
		{"a made-up public id", map[string]any{"name": "A", "coverPhoto": map[string]any{"url": cover["url"], "publicId": "0123456789abcdef0123456789abcdef.png"}}, "coverPhoto"},
		{"avatar passed as cover", map[string]any{"name": "A", "coverPhoto": avatar}, "coverPhoto"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			s.fails(t, 400, "POST", "/api/profile/setup", asha.token, tt.body, domain.MsgNotYourImage, tt.field)
		})
	}
	if p := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil); p["setupCompleted"] != false || p["name"] != "Asha" {
		t.Fatalf("refused setups changed the profile: %v", p)
	}

	d := s.must(t, 200, "POST", "/api/profile/setup", asha.token, map[string]any{
		"name": "Asha Rao", "role": "student", "bio": "Hello!", "avatar": avatar, "coverPhoto": cover,
	})
	if d["name"] != "Asha Rao" || d["bio"] != "Hello!" || obj(d["avatar"])["url"] != avatar["url"] || obj(d["coverPhoto"])["publicId"] != cover["publicId"] {
		t.Fatalf("setup answer %v", d)
	}
	if p := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil); p["setupCompleted"] != true || p["bio"] != "Hello!" || p["role"] != "student" {
		t.Fatalf("after setup: %v", p)
	}

	// Skipping (no name, no images) keeps the signup info; the role never
	// changes through setup.
	fac := s.member(t, "Dr. Sen", asFaculty("Physics"))
	d = s.must(t, 200, "POST", "/api/profile/setup", fac.token, map[string]any{"role": "student"})
	if d["name"] != "Dr. Sen" || obj(d["avatar"])["url"] != "" {
		t.Fatalf("skipped setup %v", d)
	}
	if p := s.must(t, 200, "GET", "/api/profile/me", fac.token, nil); p["role"] != "faculty" || p["setupCompleted"] != true {
		t.Fatalf("after skipped setup: %v", p)
	}
	s.fails(t, 400, "POST", "/api/profile/setup", fac.token, map[string]any{"role": "admin"}, domain.MsgInvalidRole, "role")
	s.fails(t, 400, "POST", "/api/profile/setup", fac.token, map[string]any{"bio": strings.Repeat("b", 501)}, "Bio must be at most 500 characters long", "bio")
}

// The profile bodies join the request-body fuzz target.
func init() {
	bodyDecoders["profile"] = func(c *fasthttp.RequestCtx) error {
		var in domain.ProfileInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	}
	bodyDecoders["profile section"] = func(c *fasthttp.RequestCtx) error {
		var in domain.ProfileInput
		if err := decodeSection(c, &in, &in.Skills); err != nil {
			return err
		}
		if _, err := in.Only(domain.SectionSkills); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	}
	bodyDecoders["profile setup"] = func(c *fasthttp.RequestCtx) error {
		var in domain.ProfileSetupInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	}
}
