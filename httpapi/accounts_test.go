package httpapi

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/persistence"
)

const goodPassword = "Str0ng!pass"

func TestSignupVerifyLoginMe(t *testing.T) {
	st := newStack(t, stackOptions{})
	start := time.Now().Add(-time.Second)
	status, env := st.call(t, "POST", "/api/auth/signup", "", map[string]any{
		"name": "Asha Rao", "email": "Asha@Uni.edu", "password": goodPassword, "role": "student", "collegeId": "bwu/bca/20/123",
	})
	if status != 201 || data(env)["email"] != "asha@uni.edu" {
		t.Fatalf("signup: %d %v", status, env)
	}
	// Unverified: login answers 403 telling to verify.
	status, env = st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha@uni.edu", "password": goodPassword, "role": "student"})
	if status != 403 || !strings.Contains(env["message"].(string), "verify") {
		t.Fatalf("unverified login: %d %v", status, env)
	}
	code := st.code(t, "asha@uni.edu", start)
	mailBody := latestMail(t, st, "asha@uni.edu")
	for _, want := range []string{code, "10 minutes", "verify your e-mail"} {
		if !strings.Contains(mailBody, want) {
			t.Fatalf("code mail lacks %q", want)
		}
	}
	status, env = st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "asha@uni.edu", "otp": code})
	if status != 200 || data(env)["token"] == "" {
		t.Fatalf("verify: %d %v", status, env)
	}
	user := data(env)["user"].(map[string]any)
	for k, want := range map[string]any{"name": "Asha Rao", "email": "asha@uni.edu", "universityId": "BWU/BCA/20/123",
		"collegeId": "BWU/BCA/20/123", "role": "student", "course": "BCA", "batch": "20"} {
		if user[k] != want {
			t.Fatalf("user.%s = %v, want %v (%v)", k, user[k], want, user)
		}
	}
	if _, leaked := user["passwordHash"]; leaked || strings.Contains(fmt.Sprint(env), "argon2") {
		t.Fatal("password hash leaked")
	}
	if av, ok := user["avatar"].(map[string]any); !ok || av["url"] != "" {
		t.Fatalf("avatar should be {url:''}: %v", user["avatar"])
	}

	tests := []struct {
		name   string
		body   map[string]any
		status int
		msg    string
	}{
		{"by email", map[string]any{"email": "asha@uni.edu", "password": goodPassword, "role": "student"}, 200, ""},
		{"by university id", map[string]any{"universityId": "BWU/BCA/20/123", "password": goodPassword}, 200, ""},
		{"id typed in email field", map[string]any{"email": "bwu/bca/20/123", "password": goodPassword}, 200, ""},
		{"wrong password", map[string]any{"email": "asha@uni.edu", "password": "nope-nope", "role": "student"}, 401, "Incorrect credentials"},
		{"unknown account", map[string]any{"email": "ghost@uni.edu", "password": goodPassword, "role": "student"}, 401, "Incorrect credentials"},
		{"role must match", map[string]any{"email": "asha@uni.edu", "password": goodPassword, "role": "faculty"}, 403, "registered as Student"},
		{"missing identifier", map[string]any{"password": goodPassword}, 400, "Email or university ID is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env := st.call(t, "POST", "/api/auth/login", "", tt.body)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %v", status, tt.status, env)
			}
			if tt.status == 200 {
				d := data(env)
				if d["token"] == "" || d["user"].(map[string]any)["id"] == "" {
					t.Fatalf("login answer %v", d)
				}
				st2, me := st.call(t, "GET", "/api/users/me", d["token"].(string), nil)
				if st2 != 200 || data(me)["user"].(map[string]any)["email"] != "asha@uni.edu" {
					t.Fatalf("me: %d %v", st2, me)
				}
				return
			}
			if !strings.Contains(env["message"].(string), tt.msg) {
				t.Fatalf("message %q lacks %q", env["message"], tt.msg)
			}
		})
	}
	if status, _ := st.call(t, "GET", "/api/users/me", "", nil); status != 401 {
		t.Fatalf("me without token: %d", status)
	}
	if status, _ := st.call(t, "GET", "/api/users/me", "not.a.token", nil); status != 401 {
		t.Fatalf("me with garbage token: %d", status)
	}
}

func latestMail(t *testing.T, st *stack, addr string) string {
	t.Helper()
	path, err := mailLatest(st.mailDir, addr)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSignupErrors(t *testing.T) {
	st := newStack(t, stackOptions{})
	st.signedUp(t, "Asha", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)
	tests := []struct {
		name   string
		body   map[string]any
		status int
		msg    string
	}{
		{"all fields", map[string]any{"email": "x@uni.edu", "password": goodPassword}, 400, "All fields are required"},
		{"passwords differ", map[string]any{"name": "X", "email": "x@uni.edu", "password": goodPassword, "confirmPassword": "other", "role": "student", "collegeId": "BWU/BCA/20/1"}, 400, "Passwords do not match"},
		{"bad email", map[string]any{"name": "X", "email": "x-at-uni", "password": goodPassword, "role": "student", "collegeId": "BWU/BCA/20/1"}, 400, "Please enter a valid email address"},
		{"short password", map[string]any{"name": "X", "email": "x@uni.edu", "password": "short", "role": "student", "collegeId": "BWU/BCA/20/1"}, 400, "Password must be at least 8 characters long"},
		{"bad id", map[string]any{"name": "X", "email": "x@uni.edu", "password": goodPassword, "role": "student", "collegeId": "123"}, 400, "Invalid university ID format. Example: BWU/BCA/20/123"},
		{"blank id", map[string]any{"name": "X", "email": "x@uni.edu", "password": goodPassword, "role": "student", "collegeId": " "}, 400, "University ID is required"},
		{"faculty department", map[string]any{"name": "X", "email": "x@uni.edu", "password": goodPassword, "role": "faculty", "collegeId": ""}, 400, "Department is required"},
		{"student fields", map[string]any{"name": "X", "email": "x@uni.edu", "password": goodPassword, "role": "student", "universityId": "BWU/BCA/20/9"}, 400, "All fields are required for student registration"},
		{"duplicate email", map[string]any{"name": "X", "email": "ASHA@uni.edu", "password": goodPassword, "role": "student", "collegeId": "BWU/BCA/20/777"}, 409, "email already exists"},
		{"duplicate university id", map[string]any{"name": "X", "email": "new@uni.edu", "password": goodPassword, "role": "student", "collegeId": "bwu/bca/20/123"}, 409, "University ID already exists"},
		{"not json", nil, 400, "All fields are required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env := st.call(t, "POST", "/api/auth/signup", "", tt.body)
			if status != tt.status || !strings.Contains(env["message"].(string), tt.msg) {
				t.Fatalf("got %d %v, want %d %q", status, env["message"], tt.status, tt.msg)
			}
		})
	}
	t.Run("faculty signup", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/auth/signup", "", map[string]any{"name": "Dr Sen", "email": "sen@uni.edu", "password": goodPassword, "role": "faculty", "collegeId": "Physics"})
		if status != 201 {
			t.Fatalf("%d %v", status, env)
		}
	})
	t.Run("resend within cooldown is 429 with retryAfter", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/auth/resend-otp", "", map[string]any{"email": "sen@uni.edu"})
		if status != 429 || env["retryAfter"] == nil {
			t.Fatalf("%d %v", status, env)
		}
	})
	t.Run("resend for unknown address looks the same as success", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/auth/resend-otp", "", map[string]any{"email": "nobody@uni.edu"})
		if status != 200 || data(env)["message"] != "A new OTP has been sent to your email." {
			t.Fatalf("%d %v", status, env)
		}
	})
}

func TestCodeAttacks(t *testing.T) {
	st := newStack(t, stackOptions{})
	signup := func(t *testing.T, email, uid string) string {
		t.Helper()
		start := time.Now().Add(-time.Second)
		status, env := st.call(t, "POST", "/api/auth/signup", "", map[string]any{"name": "U", "email": email, "password": goodPassword, "role": "student", "collegeId": uid})
		if status != 201 {
			t.Fatalf("signup: %d %v", status, env)
		}
		return st.code(t, email, start)
	}
	wrong := func(code string) string {
		if code == "000000" {
			return "111111"
		}
		return "000000"
	}

	t.Run("sixth try rejected even with the right code", func(t *testing.T) {
		code := signup(t, "guess@uni.edu", "AAA/BBB/21/1")
		for i := 0; i < 5; i++ {
			if status, env := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "guess@uni.edu", "otp": wrong(code)}); status != 400 || env["message"] != "Invalid or expired OTP" {
				t.Fatalf("wrong try %d: %d %v", i, status, env)
			}
		}
		if status, _ := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "guess@uni.edu", "otp": code}); status != 400 {
			t.Fatalf("right code after 5 wrong tries accepted: %d", status)
		}
	})
	t.Run("a code works once", func(t *testing.T) {
		code := signup(t, "once@uni.edu", "AAA/BBB/21/2")
		if status, _ := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "once@uni.edu", "otp": code}); status != 200 {
			t.Fatalf("first use: %d", status)
		}
		if status, _ := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "once@uni.edu", "otp": code}); status != 400 {
			t.Fatalf("reuse accepted: %d", status)
		}
	})
	t.Run("fifty parallel submits of the right code: exactly one wins", func(t *testing.T) {
		code := signup(t, "race@uni.edu", "AAA/BBB/21/3")
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, losses := 0, 0
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _ := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "race@uni.edu", "otp": code})
				mu.Lock()
				defer mu.Unlock()
				if status == 200 {
					wins++
				} else {
					losses++
				}
			}()
		}
		wg.Wait()
		if wins != 1 || losses != 49 {
			t.Fatalf("wins=%d losses=%d, want 1/49", wins, losses)
		}
	})
	t.Run("a signup code cannot reset a password", func(t *testing.T) {
		code := signup(t, "purpose@uni.edu", "AAA/BBB/21/4")
		status, env := st.call(t, "POST", "/api/auth/reset-password", "", map[string]any{"email": "purpose@uni.edu", "otp": code, "newPassword": "N3w!password", "role": "student"})
		if status != 400 || env["message"] != "Invalid or expired OTP" {
			t.Fatalf("cross-purpose code: %d %v", status, env)
		}
		// …and the signup code still works for its own purpose.
		if status, _ := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "purpose@uni.edu", "otp": code}); status != 200 {
			t.Fatalf("signup code spoiled: %d", status)
		}
	})
	t.Run("account lock-out survives resends", func(t *testing.T) {
		code := signup(t, "lock@uni.edu", "AAA/BBB/21/5")
		for i := 0; i < 10; i++ {
			st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "lock@uni.edu", "otp": wrong(code)})
			// Age the newest code so a resend is allowed, as 60 s passing would.
			if _, err := st.db.ExecContext(context.Background(), "UPDATE otp_codes SET created_at = created_at - interval '2 minutes' WHERE email = 'lock@uni.edu'"); err != nil {
				t.Fatal(err)
			}
			if i == 4 {
				before := st.mails(t, "lock@uni.edu")
				if status, env := st.call(t, "POST", "/api/auth/resend-otp", "", map[string]any{"email": "lock@uni.edu"}); status != 200 {
					t.Fatalf("resend: %d %v", status, env)
				}
				code = st.nextCode(t, "lock@uni.edu", before) // mail goes out after the answer
			}
		}
		status, env := st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": "lock@uni.edu", "otp": code})
		if status != 429 {
			t.Fatalf("after 10 wrong codes across a resend: %d %v", status, env)
		}
	})
}

func TestForgotAndReset(t *testing.T) {
	st := newStack(t, stackOptions{})
	oldToken, _ := st.signedUp(t, "Asha", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)

	before := st.mails(t, "asha@uni.edu")
	// Enumeration: known and unknown identifiers answer byte-for-byte alike.
	known := st.do(t, "POST", "/api/auth/forgot-password", []byte(`{"email":"asha@uni.edu","role":"student"}`), "Content-Type", "application/json")
	unknown := st.do(t, "POST", "/api/auth/forgot-password", []byte(`{"email":"ghost@uni.edu","role":"student"}`), "Content-Type", "application/json")
	if known.status != 200 || unknown.status != known.status || string(known.body) != string(unknown.body) {
		t.Fatalf("forgot answers differ: %d %s / %d %s", known.status, known.body, unknown.status, unknown.body)
	}
	code := st.nextCode(t, "asha@uni.edu", before)
	if st.mails(t, "ghost@uni.edu") != 0 {
		t.Fatal("mail sent to an unknown address")
	}

	tests := []struct {
		name   string
		body   map[string]any
		status int
		msg    string
	}{
		{"weak password", map[string]any{"email": "asha@uni.edu", "otp": code, "newPassword": "aaaaaaaa", "role": "student"}, 400, "Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters."},
		{"mismatch", map[string]any{"email": "asha@uni.edu", "otp": code, "newPassword": "N3w!password", "confirmPassword": "x", "role": "student"}, 400, "Passwords don't match"},
		{"bad otp format", map[string]any{"email": "asha@uni.edu", "otp": "12ab", "newPassword": "N3w!password", "role": "student"}, 400, "OTP must be 6 digits"},
		{"wrong role", map[string]any{"email": "asha@uni.edu", "otp": code, "newPassword": "N3w!password", "role": "faculty"}, 400, "Invalid or expired OTP"},
		{"reset", map[string]any{"universityId": "BWU/BCA/20/123", "otp": code, "newPassword": "N3w!password", "role": "student"}, 200, "Password reset successfully"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env := st.call(t, "POST", "/api/auth/reset-password", "", tt.body)
			msg, _ := env["message"].(string)
			if status == 200 {
				msg, _ = data(env)["message"].(string)
			}
			if status != tt.status || !strings.Contains(msg, tt.msg) {
				t.Fatalf("got %d %q, want %d %q", status, msg, tt.status, tt.msg)
			}
		})
	}
	if status, _ := st.call(t, "GET", "/api/users/me", oldToken, nil); status != 401 {
		t.Fatalf("token survived a reset: %d", status)
	}
	if status, _ := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha@uni.edu", "password": "N3w!password"}); status != 200 {
		t.Fatalf("login with new password: %d", status)
	}
	if status, _ := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha@uni.edu", "password": goodPassword}); status != 401 {
		t.Fatalf("old password still works: %d", status)
	}
}

func TestLogoutRevokes(t *testing.T) {
	st := newStack(t, stackOptions{})
	token, _ := st.signedUp(t, "Asha", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)
	status, env := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha@uni.edu", "password": goodPassword})
	if status != 200 {
		t.Fatal(env)
	}
	second := data(env)["token"].(string)
	if status, _ := st.call(t, "POST", "/api/auth/logout", token, nil); status != 200 {
		t.Fatalf("logout: %d", status)
	}
	for _, tok := range []string{token, second} {
		if status, _ := st.call(t, "GET", "/api/users/me", tok, nil); status != 401 {
			t.Fatalf("token used after logout: %d", status)
		}
	}
}

func TestSettingsFlows(t *testing.T) {
	st := newStack(t, stackOptions{})
	token, _ := st.signedUp(t, "Asha", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)
	st.signedUp(t, "Ravi", "ravi@uni.edu", "BWU/BCA/20/124", goodPassword)

	t.Run("email change", func(t *testing.T) {
		cases := []struct {
			body   map[string]any
			status int
			msg    string
		}{
			{map[string]any{"newEmail": "bad"}, 400, "Please enter a valid email address"},
			{map[string]any{"newEmail": "ASHA@uni.edu"}, 400, "The email address is the same as your current one"},
			{map[string]any{"newEmail": "ravi@uni.edu"}, 409, "email already exists"},
		}
		for _, c := range cases {
			status, env := st.call(t, "POST", "/api/users/send-email-change-otp", token, c.body)
			if status != c.status || !strings.Contains(env["message"].(string), c.msg) {
				t.Fatalf("%v: %d %v", c.body, status, env)
			}
		}
		start := time.Now().Add(-time.Second)
		if status, env := st.call(t, "POST", "/api/users/send-email-change-otp", token, map[string]any{"newEmail": "asha.rao@uni.edu"}); status != 200 {
			t.Fatalf("send: %d %v", status, env)
		}
		code := st.code(t, "asha.rao@uni.edu", start) // the code goes to the NEW address
		if status, env := st.call(t, "POST", "/api/users/verify-email-change-otp", token, map[string]any{"newEmail": "asha.rao@uni.edu", "otp": "12345"}); status != 400 || env["message"] != "Please enter all 6 digits of the OTP." {
			t.Fatalf("short code: %d %v", status, env)
		}
		status, env := st.call(t, "POST", "/api/users/verify-email-change-otp", token, map[string]any{"newEmail": "asha.rao@uni.edu", "otp": code})
		if status != 200 || data(env)["message"] != "Email updated successfully!" || data(env)["user"].(map[string]any)["email"] != "asha.rao@uni.edu" {
			t.Fatalf("verify: %d %v", status, env)
		}
		if status, _ := st.call(t, "GET", "/api/users/me", token, nil); status != 401 {
			t.Fatalf("old token survived e-mail change: %d", status)
		}
		token = data(env)["token"].(string)
		st.waitMail(t, "asha@uni.edu", "was changed") // the old address is told of the change
	})
	t.Run("password change", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/users/send-password-change-otp", token, map[string]any{"currentPassword": "wrong-one", "newPassword": "N3w!password"})
		if status != 400 || env["message"] != "Current password is incorrect. Please try again." {
			t.Fatalf("wrong current: %d %v", status, env)
		}
		before := st.mails(t, "asha.rao@uni.edu")
		if status, env := st.call(t, "POST", "/api/users/send-password-change-otp", token, map[string]any{"currentPassword": goodPassword}); status != 200 {
			t.Fatalf("send: %d %v", status, env)
		}
		code := st.nextCode(t, "asha.rao@uni.edu", before) // not the e-mail change code, still the newest until this arrives
		if status, env := st.call(t, "POST", "/api/users/verify-password-change-otp", token, map[string]any{"otp": code, "newPassword": "N3w!password", "confirmPassword": "other"}); status != 400 || env["message"] != "New passwords do not match" {
			t.Fatalf("mismatch: %d %v", status, env)
		}
		status, env = st.call(t, "POST", "/api/users/verify-password-change-otp", token, map[string]any{"otp": code, "newPassword": "N3w!password"})
		if status != 200 || data(env)["message"] != "Password updated successfully!" {
			t.Fatalf("verify: %d %v", status, env)
		}
		if status, _ := st.call(t, "GET", "/api/users/me", token, nil); status != 401 {
			t.Fatalf("token survived password change: %d", status)
		}
		token = data(env)["token"].(string)
		if status, _ := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha.rao@uni.edu", "password": "N3w!password"}); status != 200 {
			t.Fatalf("login with new password: %d", status)
		}
	})
	t.Run("delete account removes everything", func(t *testing.T) {
		ctx := context.Background()
		me := mustUser(t, st, "asha.rao@uni.edu")
		other := mustUser(t, st, "ravi@uni.edu")
		// Asha's post liked and commented by Ravi; Ravi's post liked and commented by Asha.
		mine := &persistence.Post{ID: persistence.NewID(), UserID: me.ID, Content: "mine", LikesCount: 1, CommentsCount: 1}
		theirs := &persistence.Post{ID: persistence.NewID(), UserID: other.ID, Content: "theirs", LikesCount: 1, CommentsCount: 1}
		for _, m := range []any{mine, theirs,
			&persistence.PostLike{PostID: mine.ID, UserID: other.ID}, &persistence.PostLike{PostID: theirs.ID, UserID: me.ID},
			&persistence.Comment{ID: persistence.NewID(), PostID: mine.ID, UserID: other.ID, Content: "c1"},
			&persistence.Comment{ID: persistence.NewID(), PostID: theirs.ID, UserID: me.ID, Content: "c2"},
		} {
			if _, err := st.db.NewInsert().Model(m).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		before := st.mails(t, "asha.rao@uni.edu")
		if status, env := st.call(t, "POST", "/api/users/send-delete-account-otp", token, nil); status != 200 {
			t.Fatalf("send: %d %v", status, env)
		}
		code := st.nextCode(t, "asha.rao@uni.edu", before)
		if status, env := st.call(t, "POST", "/api/users/verify-delete-account-otp", token, map[string]any{"otp": code}); status != 200 {
			t.Fatalf("delete: %d %v", status, env)
		}
		if status, _ := st.call(t, "GET", "/api/users/me", token, nil); status != 401 {
			t.Fatalf("token survived deletion: %d", status)
		}
		if status, _ := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha.rao@uni.edu", "password": "N3w!password"}); status != 401 {
			t.Fatalf("deleted account can log in: %d", status)
		}
		var p persistence.Post
		if err := st.db.NewSelect().Model(&p).Where("id = ?", theirs.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if p.LikesCount != 0 || p.CommentsCount != 0 {
			t.Fatalf("counters on the other's post not moved: likes=%d comments=%d", p.LikesCount, p.CommentsCount)
		}
		for table, want := range map[string]int{"posts": 1, "post_likes": 0, "comments": 0, "otp_codes": 0} {
			n, err := st.db.NewSelect().TableExpr(table).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if table == "otp_codes" {
				n, _ = st.db.NewSelect().TableExpr(table).Where("user_id = ?", me.ID).Count(ctx)
			}
			if int(n) != want {
				t.Fatalf("%s rows = %d, want %d", table, n, want)
			}
		}
		n, _ := st.db.NewSelect().TableExpr("search_outbox").Where("op = 'delete'").Count(ctx)
		if int(n) != 4 { // the user, their post, and both comments
			t.Fatalf("outbox deletes = %d, want 4", n)
		}
	})
}

func mustUser(t *testing.T, st *stack, email string) *persistence.User {
	t.Helper()
	u, err := persistence.UserByEmail(context.Background(), st.db, email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestLoginBruteForceRateLimited(t *testing.T) {
	st := newStack(t, stackOptions{rateLimits: true})
	st.signedUp(t, "Asha", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)
	limited := false
	for i := 0; i < 15 && !limited; i++ {
		status, env := st.call(t, "POST", "/api/auth/login", "", map[string]any{"email": "asha@uni.edu", "password": fmt.Sprintf("guess-%d", i)})
		switch status {
		case 401:
		case 429:
			limited = env["retryAfter"] != nil
		default:
			t.Fatalf("try %d: %d %v", i, status, env)
		}
	}
	if !limited {
		t.Fatal("15 wrong passwords were never rate limited")
	}
	_ = uuid.Nil
}
