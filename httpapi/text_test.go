package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"testing"
	"time"

	"campus/domain"
	"campus/persistence"
)

func TestBadJSONText(t *testing.T) {
	tests := []struct {
		name, in string
		bad      bool
		field    string
	}{
		{"plain", `{"name":"Asha","n":1}`, false, ""},
		{"unicode", `{"name":"ünï ✓ 😀","e":"\u00e9"}`, false, ""},
		{"escaped backslash before u0000 is text", `{"name":"a\\u0000"}`, false, ""},
		{"other escapes", `{"name":"\n\t\u0001\"\\"}`, false, ""},
		{"lone surrogate is decoded, not refused", `{"name":"\ud800"}`, false, ""},
		{"NUL", `{"name":"a\u0000b"}`, true, "name"},
		{"NUL after escaped quote", `{"name":"\"\u0000"}`, true, "name"},
		{"second field", `{"email":"a@b.c","name":"\u0000"}`, true, "name"},
		{"nested", `{"education":{"degree":"\u0000"}}`, true, "education.degree"},
		{"after a nested object", `{"education":{"degree":"x"},"bio":"\u0000"}`, true, "bio"},
		{"in an array", `{"interests":["go","\u0000"]}`, true, "interests[1]"},
		{"in an object in an array", `{"skills":[{"name":"go"},{"name":"\u0000"}]}`, true, "skills[1].name"},
		{"array after an object in it", `{"skills":[{"name":"go"},"\u0000"]}`, true, "skills[1]"},
		{"in a key", `{"na\u0000me":"x"}`, true, ""},
		{"top level", `"\u0000"`, true, ""},
		{"top level array", `[1,"\u0000"]`, true, "[1]"},
		{"bare list of objects", `[{"title":"x"},{"title":"\u0000"}]`, true, "[1].title"},
		{"bad key inside", `{"a":{"b\u0000":1}}`, true, "a"},
		{"commas in strings", `{"a":[",,","\u0000"]}`, true, "a[1]"},
		{"invalid UTF-8", "{\"name\":\"a\xffb\"}", true, "name"},
		{"truncated UTF-8 at the end", "{\"name\":\"a\xe2\x82", true, "name"},
		{"raw NUL", "{\"name\":\"a\x00b\"}", true, "name"},
		{"escaped key", `{"n\u0061me":"\u0000"}`, true, "name"},
		{"brackets in strings", `{"a":"{[","b":"\u0000"}`, true, "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			field, bad := badJSONText([]byte(tt.in))
			if bad != tt.bad || field != tt.field {
				t.Fatalf("badJSONText(%q) = %q, %v; want %q, %v", tt.in, field, bad, tt.field, tt.bad)
			}
		})
	}
}

// TestNULInAccountFlows: a NUL (or bytes that are not UTF-8) in any text of
// the account flows is a 400 naming the field, never a failed query. Each
// of these answered 500 before decodeJSON refused such text.
func TestNULInAccountFlows(t *testing.T) {
	st := newStack(t, stackOptions{})
	token, _ := st.signedUp(t, "Asha Rao", "asha@uni.edu", "BWU/BCA/20/123", goodPassword)
	student := func(k, v string) map[string]any {
		b := map[string]any{"name": "Ravi", "email": "ravi@uni.edu", "password": goodPassword, "role": "student",
			"universityId": "BWU/BCA/20/7", "program": "BCA", "batch": "20"}
		b[k] = v
		return b
	}
	faculty := func(k, v string) map[string]any {
		b := map[string]any{"name": "Dr Sen", "email": "sen@uni.edu", "password": goodPassword, "role": "faculty",
			"department": "Physics"}
		b[k] = v
		return b
	}
	tests := []struct {
		name, path, token string
		body              map[string]any
		field             string
	}{
		{"signup name", "/api/auth/signup", "", student("name", "Ra\x00vi"), "name"},
		{"signup program", "/api/auth/signup", "", student("program", "B\x00CA"), "program"},
		{"signup batch", "/api/auth/signup", "", student("batch", "2\x000"), "batch"},
		{"signup university id", "/api/auth/signup", "", student("universityId", "BWU/BCA/20/7\x00"), "universityId"},
		{"signup email", "/api/auth/signup", "", student("email", "ravi\x00@uni.edu"), "email"},
		{"signup department", "/api/auth/signup", "", faculty("department", "Phy\x00sics"), "department"},
		{"signup college id", "/api/auth/signup", "", map[string]any{"name": "Dr Sen", "email": "sen@uni.edu",
			"password": goodPassword, "role": "faculty", "collegeId": "Phy\x00sics"}, "collegeId"},
		{"signup name not UTF-8", "/api/auth/signup", "", student("name", "Ra"+markBadUTF8+"vi"), "name"},
		{"login email", "/api/auth/login", "", map[string]any{"email": "asha\x00@uni.edu", "password": goodPassword, "role": "student"}, "email"},
		{"login university id", "/api/auth/login", "", map[string]any{"universityId": "BWU/BCA/20/123\x00", "password": goodPassword, "role": "student"}, "universityId"},
		{"verify", "/api/auth/verify-otp", "", map[string]any{"email": "asha@uni.edu\x00", "otp": "123456"}, "email"},
		{"resend", "/api/auth/resend-otp", "", map[string]any{"email": "\x00"}, "email"},
		{"forgot", "/api/auth/forgot-password", "", map[string]any{"universityId": "BWU/\x00", "role": "student"}, "universityId"},
		{"reset email", "/api/auth/reset-password", "", map[string]any{"email": "asha\x00@uni.edu", "role": "student",
			"otp": "123456", "newPassword": "Another-pass-99"}, "email"},
		{"reset university id", "/api/auth/reset-password", "", map[string]any{"universityId": "BWU/BCA/20/123\x00", "role": "student",
			"otp": "123456", "newPassword": "Another-pass-99"}, "universityId"},
		{"email change", "/api/users/send-email-change-otp", token, map[string]any{"newEmail": "new\x00@uni.edu"}, "newEmail"},
		{"email change verify", "/api/users/verify-email-change-otp", token, map[string]any{"otp": "123456", "newEmail": "new\x00@uni.edu"}, "newEmail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := encodeSweepBody(t, tt.body) // markBadUTF8 goes out as bytes that are not UTF-8
			headers := []string{"Content-Type", "application/json"}
			if tt.token != "" {
				headers = append(headers, "Authorization", "Bearer "+tt.token)
			}
			a := st.do(t, "POST", tt.path, body, headers...)
			env := envelope(t, a.body)
			if a.status != 400 || env["message"] != domain.MsgBadText {
				t.Fatalf("%d %v, want 400 %q", a.status, env, domain.MsgBadText)
			}
			fields, _ := env["errors"].([]any)
			if len(fields) != 1 || fields[0].(map[string]any)["field"] != tt.field {
				t.Fatalf("errors %v, want field %q", env["errors"], tt.field)
			}
		})
	}
	if n, err := st.db.NewSelect().TableExpr("users").Count(context.Background()); err != nil || n != 1 {
		t.Fatalf("%d users after refused signups (%v), want 1", n, err)
	}
}

// TestHostileCursors: a cursor that decodes but names a time Postgres
// cannot hold or a key with NUL in it is a 400 on every list, not a
// failed query.
func TestHostileCursors(t *testing.T) {
	sw := newSweepStack(t)
	fx := sw.fixtures(t)
	id := persistence.NewID().String()
	cursor := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
	at := func(us int64, key string) string {
		return cursor(fmt.Sprintf(`{"t":%d,"k":%q,"i":%q}`, us, key, id))
	}
	cursors := []struct{ name, cursor string }{
		{"year 300000", at(time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), "")},
		{"year 200000", at(time.Date(200000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), "")},
		{"largest time", at(math.MaxInt64, "")},
		{"smallest time", at(math.MinInt64, "name")},
		{"year 0", at(time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), "")},
		{"NUL in key", cursor(`{"k":"a\u0000b","i":"` + id + `"}`)},
		{"NUL key with time", cursor(fmt.Sprintf(`{"t":%d,"k":"\u0000","i":%q}`, time.Now().UnixMicro(), id))},
	}
	lists := []string{
		"/api/posts/feed", "/api/posts/user/" + fx.ids["me"], "/api/posts/" + fx.ids["post"] + "/comments",
		"/api/notifications", "/api/friends/friends-list", "/api/friends/user-friends/" + fx.ids["peer"],
		"/api/friends/pending-requests", "/api/friends/sent-requests",
	}
	for _, list := range lists {
		for _, c := range cursors {
			t.Run(list+"/"+c.name, func(t *testing.T) {
				status, env := sw.call(t, "GET", list+"?cursor="+url.QueryEscape(c.cursor), fx.token, nil)
				if status != 400 || env["message"] != "Invalid cursor" {
					t.Fatalf("%d %v, want 400 Invalid cursor", status, env)
				}
			})
		}
	}
}

// FuzzBadJSONText: whatever badJSONText lets through, the decoder turns
// into text Postgres can store; it never panics on any input.
func FuzzBadJSONText(f *testing.F) {
	for _, seed := range []string{
		`{"name":"a\u0000b"}`, `{"a":["\\u0000",{"b":"\u0000"}]}`, `"\u0000"`, "{\"a\":\"\xff\"}", `{"a":"\"\\"}`,
		`{"k\u0000":1}`, `[{"a":{"b":["c",{"d":"\u0000"}]}}]`, `{"a":"\ud800\u0000"}`, `{"a":`, `"\`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, bad := badJSONText(b)
		var v any
		if bad || json.Unmarshal(b, &v) != nil {
			return
		}
		var check func(any)
		check = func(v any) {
			switch x := v.(type) {
			case string:
				if !domain.ValidText(x) {
					t.Fatalf("badJSONText passed %q, which decodes to %q", b, x)
				}
			case []any:
				for _, e := range x {
					check(e)
				}
			case map[string]any:
				for k, e := range x {
					check(k)
					check(e)
				}
			}
		}
		check(v)
	})
}
