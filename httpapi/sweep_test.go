package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/config"
	"campus/persistence"
	"campus/searchindex"
	"campus/sso"
	"campus/sso/ssotest"
)

// The sweep sends hostile input to every route the router has and asserts
// that none answers 5xx and every API answer is the envelope of docs/protocol.md §1.
// It walks router.List(), so a route added without an entry in sweepRoutes
// fails TestSweep until someone says what the route reads.

// sweepRoute is what the sweep needs to know to reach a route's decoding
// with otherwise plausible input.
type sweepRoute struct {
	// params maps each route parameter to a fixture (sweepFixtures.ids)
	// that makes the plausible path name something real.
	params map[string]string
	// body is a plausible JSON body; nil for routes that read none (they
	// still get the whole-body variants).
	body func(fx *sweepFixtures) any
	// form and file are a plausible multipart form: text fields and the
	// file field, for routes that read uploads.
	form map[string]string
	file string
	// raw routes answer something other than the JSON envelope when they
	// succeed (metrics text, media files).
	raw bool
}

const sweepPassword = "Sweep-pass-1234"

var (
	profileBody = func(*sweepFixtures) any {
		return map[string]any{
			"name": "Sweep Person", "bio": "bio", "location": "Kolkata",
			"education": educationBlock(),
			"skills":    skillsList(), "achievements": []any{map[string]any{"title": "Prize", "description": "won", "year": "2023"}},
			"interests": []any{"go", "chess"}, "experience": experienceList(),
		}
	}
	educationBlock = func() any {
		return map[string]any{"degree": "BCA", "institution": "BWU", "years": "2020-2023"}
	}
	skillsList = func() []any {
		return []any{map[string]any{"name": "Go", "proficiency": 70}}
	}
	experienceList = func() []any {
		return []any{map[string]any{"title": "Intern", "organization": "Org", "company": "Co", "location": "Remote",
			"startDate": "2022-01", "endDate": "2022-06", "description": "did things"}}
	}
	withID = func(name string) map[string]string { return map[string]string{"id": name} }
)

// pushSubscriptionBody is a browser's PushSubscription for the test push
// service's address (loopback http is allowed in the sweep's stack).
var pushSubscriptionBody = func(*sweepFixtures) any {
	return map[string]any{"endpoint": "http://127.0.0.1:9/push/sweep", "keys": map[string]any{
		"p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
		"auth":   "BTBZMqHH6r4Tts7J_aSIgg"}}
}

// sweepRoutes has one entry per registered route, keyed "METHOD pattern".
var sweepRoutes = map[string]sweepRoute{
	"GET /api/health":     {},
	"GET /api/ready":      {},
	"GET /api/config":     {},
	"GET /metrics":        {raw: true},
	"GET /media/{key:*}":  {params: map[string]string{"key:*": "media"}, raw: true},
	"HEAD /media/{key:*}": {params: map[string]string{"key:*": "media"}, raw: true},
	"GET /api/ws":         {},

	"POST /api/auth/signup": {body: func(fx *sweepFixtures) any {
		n := fx.seq()
		return map[string]any{"name": "Sweep Signup", "email": fmt.Sprintf("signup%d@uni.edu", n),
			"password": sweepPassword, "confirmPassword": sweepPassword, "role": "student",
			"universityId": fmt.Sprintf("BWU/BCA/20/%d", n), "program": "BCA", "batch": "20",
			"department": "CSE", "collegeId": fmt.Sprintf("BWU/BCA/20/%d", n)}
	}},
	"POST /api/auth/verify-otp": {body: func(fx *sweepFixtures) any {
		return map[string]any{"email": fx.me.Email, "otp": "123456"}
	}},
	"POST /api/auth/resend-otp": {body: func(fx *sweepFixtures) any { return map[string]any{"email": fx.me.Email} }},
	"POST /api/auth/login": {body: func(fx *sweepFixtures) any {
		return map[string]any{"email": fx.me.Email, "universityId": fx.me.UniversityID, "password": sweepPassword, "role": "student"}
	}},
	"POST /api/auth/forgot-password": {body: func(fx *sweepFixtures) any {
		return map[string]any{"email": fx.me.Email, "universityId": fx.me.UniversityID, "role": "student"}
	}},
	"POST /api/auth/reset-password": {body: func(fx *sweepFixtures) any {
		return map[string]any{"email": fx.me.Email, "universityId": fx.me.UniversityID, "role": "student", "otp": "123456",
			"newPassword": "Another-pass-99", "confirmPassword": "Another-pass-99"}
	}},
	"POST /api/auth/logout": {},
	// The first-page cookie, set for the caller's token or dropped.
	"POST /api/auth/first-page":   {},
	"DELETE /api/auth/first-page": {},
	// University sign-in: the protocol callbacks answer redirects (raw),
	// the metadata XML.
	"POST /api/auth/sso/start": {body: func(*sweepFixtures) any {
		return map[string]any{"provider": "oidc", "returnTo": "/feed", "link": false, "password": sweepPassword}
	}},
	"GET /api/auth/sso/oidc/callback": {raw: true},
	"POST /api/auth/sso/saml/acs":     {raw: true},
	"GET /api/auth/sso/saml/metadata": {raw: true},
	"POST /api/auth/sso/exchange":     {body: func(*sweepFixtures) any { return map[string]any{"ticket": strings.Repeat("t", 43)} }},
	"POST /api/auth/sso/link/send-code": {body: func(*sweepFixtures) any {
		return map[string]any{"ticket": strings.Repeat("t", 43)}
	}},
	"POST /api/auth/sso/link": {body: func(*sweepFixtures) any {
		return map[string]any{"ticket": strings.Repeat("t", 43), "password": sweepPassword, "otp": "123456"}
	}},
	"GET /api/users/me/sign-ins":         {},
	"DELETE /api/users/me/sign-ins/{id}": {params: withID("post")},
	"GET /api/users/me":                  {},
	"POST /api/users/send-email-change-otp": {body: func(fx *sweepFixtures) any {
		return map[string]any{"newEmail": fmt.Sprintf("new%d@uni.edu", fx.seq())}
	}},
	"POST /api/users/verify-email-change-otp": {body: func(fx *sweepFixtures) any {
		return map[string]any{"otp": "123456", "newEmail": fmt.Sprintf("new%d@uni.edu", fx.seq())}
	}},
	"POST /api/users/send-password-change-otp": {body: func(*sweepFixtures) any {
		return map[string]any{"currentPassword": sweepPassword, "newPassword": "Another-pass-99", "confirmPassword": "Another-pass-99"}
	}},
	"POST /api/users/verify-password-change-otp": {body: func(*sweepFixtures) any {
		return map[string]any{"otp": "123456", "newPassword": "Another-pass-99", "confirmPassword": "Another-pass-99"}
	}},
	"POST /api/users/send-delete-account-otp":   {},
	"POST /api/users/verify-delete-account-otp": {body: func(*sweepFixtures) any { return map[string]any{"otp": "123456"} }},

	"PATCH /api/users/me":         {body: profileBody},
	"GET /api/users/{id}":         {params: withID("peer")},
	"POST /api/users/avatar":      {file: "avatar"},
	"POST /api/users/cover-photo": {file: "coverPhoto"},
	"GET /api/profile/me":         {},
	"GET /api/profile/{id}":       {params: withID("peer")},
	"PATCH /api/profile":          {body: profileBody},
	"POST /api/profile/avatar":    {file: "avatar"},
	"POST /api/profile/cover":     {file: "coverPhoto"},
	"PUT /api/profile/education": {body: func(*sweepFixtures) any {
		return map[string]any{"education": educationBlock()}
	}},
	"PUT /api/profile/experience": {body: func(*sweepFixtures) any { return map[string]any{"experience": experienceList()} }},
	"PUT /api/profile/skills":     {body: func(*sweepFixtures) any { return map[string]any{"skills": skillsList()} }},
	"POST /api/profile/setup": {body: func(*sweepFixtures) any {
		return map[string]any{"name": "Sweep Setup", "role": "student", "bio": "hello",
			"avatar": map[string]any{"url": "/media/ab/x.png", "publicId": "ab/x.png"}, "coverPhoto": "/media/cd/y.png"}
	}},
	"POST /api/profile/{id}/like":   {params: withID("peer")},
	"POST /api/profile/{id}/unlike": {params: withID("peer")},

	"GET /api/friends/friends-list":           {},
	"GET /api/friends/user-friends/{id}":      {params: withID("peer")},
	"GET /api/friends/pending-requests":       {},
	"GET /api/friends/sent-requests":          {},
	"GET /api/friends/suggestions":            {},
	"POST /api/friends/send-request":          {body: func(fx *sweepFixtures) any { return map[string]any{"receiverId": fx.ids["other"]} }},
	"PATCH /api/friends/accept-request/{id}":  {params: withID("request")},
	"PATCH /api/friends/decline-request/{id}": {params: withID("request")},
	"DELETE /api/friends/cancel-request/{id}": {params: withID("request")},
	"DELETE /api/friends/unfriend/{id}":       {params: withID("peer")},
	"GET /api/friends/check/{id}":             {params: withID("peer")},

	"GET /api/notifications": {},
	"PATCH /api/notifications/mark-as-read": {body: func(fx *sweepFixtures) any {
		return map[string]any{"notificationIds": []any{fx.ids["notification"]}, "notificationId": fx.ids["notification"]}
	}},
	"PATCH /api/notifications/mark-all-as-read": {},
	"DELETE /api/notifications/{id}":            {params: withID("notification")},

	"GET /api/push/key":              {},
	"POST /api/push/subscriptions":   {body: pushSubscriptionBody},
	"DELETE /api/push/subscriptions": {body: pushSubscriptionBody},

	"POST /api/posts": {
		body: func(*sweepFixtures) any { return map[string]any{"content": "hello campus", "visibility": "public"} },
		form: map[string]string{"content": "hello campus", "visibility": "public"}, file: "images",
	},
	"GET /api/posts/feed":                   {},
	"GET /api/posts/user/{id}":              {params: withID("me")},
	"GET /api/posts/{id}":                   {params: withID("post")},
	"PUT /api/posts/{id}":                   {params: withID("post"), body: func(*sweepFixtures) any { return map[string]any{"content": "edited"} }},
	"DELETE /api/posts/{id}":                {params: withID("post")},
	"GET /api/posts/{id}/comments":          {params: withID("post")},
	"POST /api/posts/{id}/comments":         {params: withID("post"), body: func(*sweepFixtures) any { return map[string]any{"content": "nice"} }},
	"DELETE /api/posts/{id}/comments/{cid}": {params: map[string]string{"id": "post", "cid": "comment"}},
	"POST /api/posts/{id}/like":             {params: withID("post")},
	"DELETE /api/posts/{id}/like":           {params: withID("post")},
	"PATCH /api/posts/{id}/like":            {params: withID("post")},
	"PUT /api/posts/{id}/bookmark":          {params: withID("post")},
	"DELETE /api/posts/{id}/bookmark":       {params: withID("post")},
	"GET /api/me/bookmarks":                 {},
	"POST /api/posts/{id}/repost":           {params: withID("post"), body: func(*sweepFixtures) any { return map[string]any{"comment": "look"} }},
	"DELETE /api/posts/{id}/repost":         {params: withID("post")},

	"GET /api/search":        {},
	"GET /api/users/search":  {},
	"GET /api/users/suggest": {},

	"GET /api/tags/{tag}":       {params: map[string]string{"tag": "tag"}},
	"GET /api/tags/{tag}/posts": {params: map[string]string{"tag": "tag"}},
	"GET /api/trending":         {},

	"GET /api/safety/blocks":         {},
	"POST /api/safety/blocks/{id}":   {params: withID("other")},
	"DELETE /api/safety/blocks/{id}": {params: withID("other")},
	"GET /api/safety/mutes":          {},
	"POST /api/safety/mutes/{id}":    {params: withID("peer")},
	"DELETE /api/safety/mutes/{id}":  {params: withID("peer")},
	"POST /api/reports": {body: func(fx *sweepFixtures) any {
		return map[string]any{"itemType": "profile", "itemId": fx.ids["peer"], "reason": "other", "details": "rude"}
	}},
	"GET /api/safety/capabilities": {},
	"GET /api/moderation/queue":    {},
	"POST /api/moderation/items/{type}/{id}/dismiss": {params: map[string]string{"type": "itemType", "id": "post"},
		body: moderationBody},
	"POST /api/moderation/items/{type}/{id}/remove": {params: map[string]string{"type": "itemType", "id": "post"},
		body: moderationBody},
	"POST /api/moderation/users/{id}/suspend":   {params: withID("other"), body: moderationBody},
	"POST /api/moderation/users/{id}/unsuspend": {params: withID("other"), body: moderationBody},
	"GET /api/admin/moderators":                 {},
	"POST /api/admin/moderators/{id}":           {params: withID("peer"), body: moderationBody},
	"DELETE /api/admin/moderators/{id}":         {params: withID("peer"), body: moderationBody},
	"GET /api/admin/audit":                      {},
	"GET /api/admin/users":                      {},
	"GET /api/admin/users/{id}":                 {params: withID("peer")},
	"POST /api/admin/users/{id}/suspend":        {params: withID("other"), body: moderationBody},
	"POST /api/admin/users/{id}/unsuspend":      {params: withID("other"), body: moderationBody},
	"POST /api/admin/users/{id}/reset-sessions": {params: withID("other")},
	"POST /api/admin/users/{id}/roles": {params: withID("peer"), body: func(*sweepFixtures) any {
		return map[string]any{"role": "moderator", "reason": "helps out"}
	}},
	"DELETE /api/admin/users/{id}/roles/{role}": {params: map[string]string{"id": "peer", "role": "role"}, body: moderationBody},
	"GET /api/admin/groups":                     {},
	"GET /api/admin/system":                     {},

	"POST /api/groups": {body: func(fx *sweepFixtures) any {
		return map[string]any{"name": "Sweep Club", "handle": fmt.Sprintf("sweep-new-%d", fx.seq()), "description": "d",
			"kind": "event", "visibility": "closed", "startsAt": "2026-12-01T10:00:00Z", "endsAt": "2026-12-01T12:00:00Z",
			"course": map[string]any{"program": "BCA", "batch": "21"}}
	}},
	"GET /api/groups":                                     {},
	"GET /api/groups/mine":                                {},
	"GET /api/groups/suggestions":                         {},
	"GET /api/groups/{handle}":                            {params: withHandle},
	"PATCH /api/groups/{handle}":                          {params: withHandle, body: groupPatchBody},
	"POST /api/groups/{handle}/avatar":                    {params: withHandle, file: "image"},
	"POST /api/groups/{handle}/cover":                     {params: withHandle, file: "image"},
	"DELETE /api/groups/{handle}":                         {params: withHandle},
	"POST /api/groups/{handle}/join":                      {params: withHandle},
	"POST /api/groups/{handle}/leave":                     {params: withHandle},
	"DELETE /api/groups/{handle}/request":                 {params: withHandle},
	"GET /api/groups/{handle}/members":                    {params: withHandle},
	"GET /api/groups/{handle}/requests":                   {params: withHandle},
	"POST /api/groups/{handle}/requests/{userId}/approve": {params: withHandleUser},
	"POST /api/groups/{handle}/requests/{userId}/decline": {params: withHandleUser},
	"POST /api/groups/{handle}/invitations": {params: withHandle, body: func(fx *sweepFixtures) any {
		return map[string]any{"userId": fx.ids["other"]}
	}},
	"POST /api/groups/{handle}/invitation/decline": {params: withHandle},
	"PATCH /api/groups/{handle}/members/{userId}": {params: withHandleUser, body: func(*sweepFixtures) any {
		return map[string]any{"role": "admin"}
	}},
	"DELETE /api/groups/{handle}/members/{userId}": {params: withHandleUser},
	"POST /api/groups/{handle}/transfer": {params: withHandle, body: func(fx *sweepFixtures) any {
		return map[string]any{"userId": fx.ids["peer"]}
	}},
	"PUT /api/groups/{handle}/follow": {params: withHandle, body: func(*sweepFixtures) any { return map[string]any{"closely": true} }},
	"PUT /api/groups/{handle}/chat":   {params: withHandle, body: func(*sweepFixtures) any { return map[string]any{"enabled": true} }},
	"PUT /api/groups/{handle}/pin": {params: withHandle, body: func(fx *sweepFixtures) any {
		return map[string]any{"postId": fx.ids["groupPost"]}
	}},
	"GET /api/groups/{handle}/posts": {params: withHandle},
	"GET /api/groups/{handle}/live":  {params: withHandle},

	"GET /api/conversations": {},
	"POST /api/conversations": {body: func(fx *sweepFixtures) any {
		return map[string]any{"kind": "group", "title": "Sweep chat", "memberIds": []any{fx.ids["peer"]}, "userId": fx.ids["peer"]}
	}},
	"GET /api/conversations/{id}": {params: withConversation},
	"PATCH /api/conversations/{id}": {params: withConversation, body: func(*sweepFixtures) any {
		return map[string]any{"title": "Sweep chat 2", "muted": true}
	}},
	"POST /api/conversations/{id}/members": {params: withConversation, body: func(fx *sweepFixtures) any {
		return map[string]any{"userIds": []any{fx.ids["peer"]}}
	}},
	"DELETE /api/conversations/{id}/members/{userId}": {params: map[string]string{"id": "conversation", "userId": "peer"}},
	"GET /api/conversations/{id}/messages":            {params: withConversation},
	"POST /api/conversations/{id}/messages": {params: withConversation, body: func(fx *sweepFixtures) any {
		return map[string]any{"clientId": fmt.Sprintf("sweep-%d", fx.seq()), "body": "hello", "replyToSeq": 1}
	}, form: map[string]string{"clientId": "sweep-form", "body": "hello", "replyToSeq": "1"}, file: "images[]"},
	"PATCH /api/conversations/{id}/messages/{seq}": {params: withMessage, body: func(*sweepFixtures) any {
		return map[string]any{"body": "edited"}
	}},
	"DELETE /api/conversations/{id}/messages/{seq}": {params: withMessage},
	"PUT /api/conversations/{id}/messages/{seq}/reaction": {params: withMessage, body: func(*sweepFixtures) any {
		return map[string]any{"emoji": "👍"}
	}},
	"DELETE /api/conversations/{id}/messages/{seq}/reaction": {params: withMessage},
	"POST /api/conversations/{id}/messages/{seq}/report": {params: withMessage, body: func(*sweepFixtures) any {
		return map[string]any{"reason": "other", "details": "rude"}
	}},
	"POST /api/conversations/{id}/read": {params: withConversation, body: func(*sweepFixtures) any {
		return map[string]any{"seq": 1}
	}},
	"GET /api/users/me/message-settings": {},
	"PUT /api/users/me/message-settings": {body: func(*sweepFixtures) any { return map[string]any{"allowFrom": "everyone"} }},
}

var (
	withConversation = map[string]string{"id": "conversation"}
	withMessage      = map[string]string{"id": "conversation", "seq": "seq"}
)

var (
	withHandle     = map[string]string{"handle": "group"}
	withHandleUser = map[string]string{"handle": "group", "userId": "peer"}
)

// groupPatchBody is a plausible edit of the sweep's event group.
func groupPatchBody(*sweepFixtures) any {
	return map[string]any{"name": "Sweep Club 2", "description": "edited", "visibility": "public",
		"startsAt": "2026-12-02T10:00:00Z", "endsAt": "2026-12-02T12:00:00Z"}
}

// moderationBody is a plausible moderation action: why, and a week.
func moderationBody(*sweepFixtures) any {
	return map[string]any{"reason": "breaks the rules", "days": 7}
}

// sweepStack is a live stack with every area of routes wired.
type sweepStack struct {
	*liveStack
	hash string // argon2id of sweepPassword, shared by every sweep user
	n    atomic.Int64
	idx  *searchindex.Index // not tailing: CatchUp applies the outbox
}

func newSweepStack(t *testing.T) *sweepStack {
	t.Helper()
	sw := &sweepStack{}
	sw.liveStack = newLiveStack(t, liveOptions{mutate: func(st *liveStack, d *Deps) {
		idx, err := searchindex.Open(context.Background(), searchindex.Options{
			Dir: filepath.Join(t.TempDir(), "search"), DB: st.db, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = idx.Close() })
		sw.idx = idx
		d.Profiles = app.NewProfiles(app.ProfilesDeps{DB: st.db, Media: st.media, Notifier: st.live, Log: d.Log})
		d.Friends = app.NewFriends(app.FriendsDeps{DB: st.db, Log: d.Log, Pusher: st.live})
		d.Notifications = app.NewNotifications(app.NotificationsDeps{DB: st.db, Log: d.Log})
		d.Search = app.NewSearch(app.SearchDeps{DB: st.db, Index: idx})
		d.Tags = app.NewTags(app.TagsDeps{DB: st.db, Log: d.Log})
		// Post gates cached as serve.go has them, so the safety tests hold
		// them to blocks and removals.
		gates := app.NewGates(st.db, st.sessions)
		d.Realtime = app.NewRealtime(st.db, st.sessions, gates)
		d.Posts = app.NewPosts(app.PostsDeps{DB: st.db, Media: st.media, Grains: st.live, Fanout: st.live, Pusher: st.live, Gates: gates,
			Log: d.Log})
		d.Messages = app.NewMessages(app.MessagesDeps{DB: st.db, Grains: st.live, Fanout: st.live,
			TypingLimit: app.NewTypingLimiter(), Log: d.Log})
		d.Safety = app.NewSafety(app.SafetyDeps{DB: st.db, Gates: gates, Messages: d.Messages, Log: d.Log})
		d.Moderation = app.NewModeration(app.ModerationDeps{DB: st.db, Sessions: st.sessions, Pusher: st.live,
			Grains: st.live, Counts: st.live, Gates: gates, Mail: st.mail, Product: "Campus",
			Support: "support@campus.test", Log: d.Log})
		d.Groups = app.NewGroups(app.GroupsDeps{DB: st.db, Media: st.media, Pusher: st.live, Index: idx, Chats: d.Messages,
			Log: d.Log})
		keys, err := app.LoadKeys(context.Background(), st.db, filepath.Join(t.TempDir(), "secret"))
		if err != nil {
			t.Fatal(err)
		}
		d.Push = app.NewPush(app.PushDeps{DB: st.db, VAPID: keys.VAPID, AllowLoopbackHTTP: true})
		d.Admin = app.NewAdmin(app.AdminDeps{DB: st.db, Sessions: st.sessions, Moderation: d.Moderation, Log: d.Log})
		d.SSO = sweepSSO(t, st.db, d)
	}})
	hash, err := app.NewHasher(1).Hash(context.Background(), sweepPassword)
	if err != nil {
		t.Fatal(err)
	}
	sw.hash = hash
	return sw
}

// sweepFixtures are the real things one route's sweep points at: the
// caller, a peer who sent the caller a friend request (and so a
// notification), a third user, and the caller's post with a comment.
type sweepFixtures struct {
	sw    *sweepStack
	me    *persistence.User
	token string
	ids   map[string]string
}

func (fx *sweepFixtures) seq() int64 { return fx.sw.n.Add(1) }

// member inserts a verified student whose password is sweepPassword.
func (sw *sweepStack) member(t *testing.T, name string) (*persistence.User, string) {
	t.Helper()
	n := sw.n.Add(1)
	uid := fmt.Sprintf("BWU/BCA/21/%d", n)
	u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: sw.hash,
		Email: fmt.Sprintf("sweep%d@uni.edu", n), UniversityID: uid, CollegeID: uid, Course: "BCA", Batch: "21",
		EmailVerifiedAt: time.Now()}
	if err := persistence.InsertUser(context.Background(), sw.db, u); err != nil {
		t.Fatal(err)
	}
	tok, err := sw.sessions.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	return u, tok
}

func (sw *sweepStack) fixtures(t *testing.T) *sweepFixtures {
	t.Helper()
	me, tok := sw.member(t, "Sweep Me")
	peer, peerTok := sw.member(t, "Sweep Peer")
	other, _ := sw.member(t, "Sweep Other")
	fx := &sweepFixtures{sw: sw, me: me, token: tok, ids: map[string]string{
		"me": me.ID.String(), "peer": peer.ID.String(), "other": other.ID.String(), "media": "ab/cdef0123.png",
		"itemType": "post", "role": "moderator",
	}}
	// The caller is an admin, so the moderation routes read their input.
	if _, err := persistence.GrantCapability(context.Background(), sw.db, me.ID, "admin", uuid.Nil); err != nil {
		t.Fatal(err)
	}
	fx.ids["post"] = sw.post(t, tok, "sweep post #sweeptag")
	fx.ids["tag"] = "sweeptag"
	status, env := sw.call(t, "POST", "/api/posts/"+fx.ids["post"]+"/comments", tok, map[string]any{"content": "first"})
	if status != 201 {
		t.Fatalf("comment: %d %v", status, env)
	}
	fx.ids["comment"] = data(env)["comment"].(map[string]any)["id"].(string)
	status, env = sw.call(t, "POST", "/api/friends/send-request", peerTok, map[string]any{"receiverId": fx.ids["me"]})
	if status != 201 {
		t.Fatalf("friend request: %d %v", status, env)
	}
	fx.ids["request"] = data(env)["friendRequest"].(map[string]any)["id"].(string)
	status, env = sw.call(t, "GET", "/api/notifications", tok, nil)
	list, _ := data(env)["notifications"].([]any)
	if status != 200 || len(list) == 0 {
		t.Fatalf("notifications: %d %v", status, env)
	}
	fx.ids["notification"] = list[0].(map[string]any)["id"].(string)
	// The caller owns a closed event group with a post; the peer asked to
	// join it (and so is named by the member routes).
	fx.ids["group"] = fmt.Sprintf("sweep-%d", fx.seq())
	status, env = sw.call(t, "POST", "/api/groups", tok, map[string]any{"name": "Sweep Group", "handle": fx.ids["group"],
		"kind": "event", "visibility": "closed", "startsAt": "2026-12-01T10:00:00Z", "endsAt": "2026-12-01T12:00:00Z"})
	if status != 201 {
		t.Fatalf("group: %d %v", status, env)
	}
	groupID := data(env)["id"].(string)
	status, env = sw.call(t, "POST", "/api/posts", tok, map[string]any{"content": "in the group", "groupId": groupID})
	if status != 201 {
		t.Fatalf("group post: %d %v", status, env)
	}
	fx.ids["groupPost"] = data(env)["post"].(map[string]any)["id"].(string)
	if status, env = sw.call(t, "POST", "/api/groups/"+fx.ids["group"]+"/join", peerTok, nil); status != 200 {
		t.Fatalf("join: %d %v", status, env)
	}
	// A conversation of the caller's with the peer (who takes messages from
	// everyone), holding a message of the peer's.
	if err := persistence.SetAllowFrom(context.Background(), sw.db, peer.ID, "everyone"); err != nil {
		t.Fatal(err)
	}
	status, env = sw.call(t, "POST", "/api/conversations", tok, map[string]any{"kind": "group", "title": "Sweep chat",
		"memberIds": []any{fx.ids["peer"]}})
	if status != 201 {
		t.Fatalf("conversation: %d %v", status, env)
	}
	fx.ids["conversation"] = data(env)["id"].(string)
	status, env = sw.call(t, "POST", "/api/conversations/"+fx.ids["conversation"]+"/messages", peerTok,
		map[string]any{"clientId": "sweep-first", "body": "first"})
	if status != 201 {
		t.Fatalf("message: %d %v", status, env)
	}
	fx.ids["seq"] = "1"
	return fx
}

// refresh issues a new token when a case revoked the caller's (logout).
func (sw *sweepStack) refresh(t *testing.T, fx *sweepFixtures) {
	t.Helper()
	ctx := context.Background()
	if _, err := sw.sessions.Authenticate(ctx, fx.token); err == nil {
		return
	}
	u, err := persistence.UserByID(ctx, sw.db, fx.me.ID)
	if err != nil {
		t.Fatalf("caller gone: %v", err)
	}
	if fx.token, err = sw.sessions.Issue(u); err != nil {
		t.Fatal(err)
	}
}

// sweepCase is one hostile request.
type sweepCase struct {
	name        string
	method, uri string
	body        []byte
	contentType string
	headers     []string // name, value, …; an Authorization here replaces the caller's
}

// Markers for bytes json.Marshal cannot produce: they are swapped into the
// encoded body.
const (
	markBadUTF8   = "@@bad-utf8@@"
	markSurrogate = "@@surrogate@@"
)

func encodeSweepBody(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte(markBadUTF8), []byte("\xff\xfe"))
	return bytes.ReplaceAll(b, []byte(markSurrogate), []byte(`\ud800`))
}

type named struct {
	name string
	v    any
}

// hostileStrings replace each string of a plausible body or form.
var hostileStrings = []named{
	{"nul", "a\x00b"}, {"only nul", "\x00"}, {"bad utf-8", "a" + markBadUTF8 + "b"},
	{"lone surrogate", "a" + markSurrogate + "b"}, {"control", "\x01\x1b[2J\x7f"}, {"bidi", "\u202egnp.exe"},
	{"60k", strings.Repeat("a", 60000)}, {"20k multibyte", strings.Repeat("é", 20000)},
	{"5k", strings.Repeat("x", 5000)}, {"empty", ""}, {"blank", " \t\n "},
}

// hostileValues replace any value of a plausible body with the wrong type
// or a number out of range.
var hostileValues = []named{
	{"number", 12345}, {"negative", -1}, {"float", 1.5}, {"max float", math.MaxFloat64},
	{"huge integer", json.Number("99999999999999999999")}, {"overflowing number", json.Number("1e400")},
	{"negative huge", json.Number("-99999999999999999999")}, {"numeric string", "50"}, {"bool", true},
	{"null", nil}, {"object", map[string]any{"a": "\x00"}}, {"array", []any{"x", "\x00"}}, {"empty array", []any{}},
}

// hostileSegments replace one path parameter.
var hostileSegments = []string{
	"not-a-uuid", "%00", "a%00b", "%FF%FE", "00000000-0000-0000-0000-000000000000", uuid.NewString(),
	uuid.NewString() + "x", "{" + uuid.NewString() + "}", strings.Repeat("a", 3000), "%E2%80%AE", "..", "-1",
	"99999999999999999999", "%20", "null", "%2500", "%C0%AF", "a%2Fb",
}

// rawCursor makes a cursor from arbitrary JSON the way the app encodes one.
func rawCursor(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func cursorAt(t int64, key string) string {
	b, _ := json.Marshal(map[string]any{"t": t, "k": key, "i": uuid.NewString()})
	return base64.RawURLEncoding.EncodeToString(b)
}

// hostileQueries are appended to every read route's plausible path; the
// routes that take a body get the first few only (no handler of theirs
// reads the query, and each of their cases may hash a password).
var hostileQueries = func() []named {
	id := uuid.NewString()
	qs := []named{
		{"limit -1", "limit=-1"}, {"cursor not base64", "cursor=!!!"}, {"q NUL", "q=%00"}, {"token NUL", "token=%00"},
		{"limit 0", "limit=0"}, {"limit abc", "limit=abc"}, {"limit 20 digits", "limit=99999999999999999999"},
		{"limit 1e3", "limit=1e3"}, {"limit 2^31", "limit=2147483648"}, {"limit 2^63", "limit=9223372036854775808"},
		{"limit NUL", "limit=%00"}, {"limit empty", "limit="}, {"limit twice", "limit=1&limit=-5"},
		{"cursor NUL", "cursor=%00"}, {"cursor bad UTF-8", "cursor=%FF"}, {"cursor 5k", "cursor=" + strings.Repeat("A", 5000)},
		{"cursor of garbage", "cursor=" + rawCursor("garbage")}, {"cursor of null", "cursor=" + rawCursor("null")},
		{"cursor of {}", "cursor=" + rawCursor("{}")}, {"cursor bad id", "cursor=" + rawCursor(`{"i":"nope"}`)},
		{"cursor nil id", "cursor=" + rawCursor(`{"i":"00000000-0000-0000-0000-000000000000"}`)},
		{"cursor time a string", "cursor=" + rawCursor(`{"t":"x","i":"`+id+`"}`)},
		{"cursor time 1e400", "cursor=" + rawCursor(`{"t":1e400,"i":"`+id+`"}`)},
		{"cursor deep", "cursor=" + rawCursor(strings.Repeat("[", 200))},
		{"cursor padded base64", "cursor=" + base64.StdEncoding.EncodeToString([]byte(`{"i":"`+id+`"}`))},
		{"cursor key NUL", "cursor=" + rawCursor(`{"k":"\u0000","i":"`+id+`"}`)},
		{"cursor key bad UTF-8", "cursor=" + rawCursor(`{"k":"`+"\xff\xfe"+`","i":"`+id+`"}`)},
		{"cursor key 400", "cursor=" + rawCursor(`{"k":"`+strings.Repeat("k", 400)+`","i":"`+id+`"}`)},
		{"q a NUL b", "q=a%00b"}, {"q bad UTF-8", "q=%FF%FE"}, {"q 5k", "q=" + strings.Repeat("q", 5000)}, {"q *", "q=*"},
		{"q quote", "q=%22"}, {"q backslash", "q=%5C"}, {"q query syntax", "q=" + url.QueryEscape(`+-&&||!(){}[]^"~*?:\/`)},
		{"q bidi", "q=%E2%80%AE"}, {"q with limit -1", "q=ab&limit=-1"}, {"q with huge limit", "q=ab&limit=99999999999999999999"},
		{"token garbage", "token=garbage"}, {"token 5k", "token=" + strings.Repeat("t", 5000)},
	}
	for _, at := range []struct {
		name string
		us   int64
	}{
		{"max int64", math.MaxInt64}, {"min int64", math.MinInt64}, {"-1", -1}, {"1", 1},
		{"year 300000", time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()},
		{"year -4713", time.Date(-4713, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()},
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()},
		{"year 200000", time.Date(200000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()},
	} {
		qs = append(qs, named{"cursor time " + at.name, "cursor=" + cursorAt(at.us, "")},
			named{"cursor time " + at.name + " with key", "cursor=" + cursorAt(at.us, "name")})
	}
	for _, k := range []named{{"NUL", "\x00"}, {"a NUL b", "a\x00b"}, {"bad UTF-8", "\xff"}, {"300 é", strings.Repeat("é", 300)}} {
		qs = append(qs, named{"cursor now with key " + k.name, "cursor=" + cursorAt(time.Now().UnixMicro(), k.v.(string))})
	}
	return qs
}()

// queriesForBodies is how many of hostileQueries the routes with a body get.
const queriesForBodies = 4

// hostileHeaders are the headers some layer reads: the token, the request
// id, the proxy chain, the websocket handshake and media revalidation.
var hostileHeaders = []named{
	{"bearer garbage", []string{"Authorization", "Bearer garbage"}},
	{"bearer not UTF-8", []string{"Authorization", "Bearer \xff\xfe"}},
	{"bearer 6k", []string{"Authorization", "Bearer " + strings.Repeat("t", 6000)}},
	{"basic auth", []string{"Authorization", "Basic YTpi"}},
	{"bearer alg none", []string{"Authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."}},
	{"request id 5k", []string{"X-Request-Id", strings.Repeat("r", 5000)}},
	{"request id odd", []string{"X-Request-Id", "../\xff;'\""}},
	{"forwarded garbage", []string{"X-Forwarded-For", "garbage, ::1, 999.1.1.1,,"}},
	{"origin null", []string{"Origin", "null"}},
	{"websocket upgrade garbage", []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "99",
		"Sec-WebSocket-Key", "\xff"}},
	{"if-none-match garbage", []string{"If-None-Match", "\"\xff\", W/, *"}},
	{"charset latin1", []string{"Content-Type", "application/json; charset=latin1"}},
}

// hostileBodies are whole JSON bodies sent to every route that may read one.
var hostileBodies = []named{
	{"empty", ""}, {"null", "null"}, {"array", "[]"}, {"string", `"x"`}, {"number", "1e999"},
	{"truncated", `{"a":`}, {"bad utf-8", "\xff\xfe"}, {"raw nul", "{\"content\":\"a\x00b\"}"},
	{"escaped nul", `{"content":"a\u0000b","name":"\u0000"}`}, {"escaped nul key", `{"\u0000":1}`},
	{"lone surrogate", `{"content":"\ud800"}`}, {"deep arrays", strings.Repeat("[", 100) + strings.Repeat("]", 100)},
	{"deep objects", strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)},
	{"too large", `{"content":"` + strings.Repeat("a", 70<<10) + `"}`}, {"trailing garbage", `{} x`},
	{"duplicate keys", `{"content":"a","content":"\u0000"}`},
}

// cases are the hostile requests for one route.
func (r sweepRoute) cases(t *testing.T, method, pattern string, fx *sweepFixtures) []sweepCase {
	t.Helper()
	path := fillPath(pattern, r.params, fx, "", "")
	var cases []sweepCase
	add := func(name, uri string, body []byte, ct string) {
		cases = append(cases, sweepCase{name: name, method: method, uri: uri, body: body, contentType: ct})
	}
	plausible := func() []byte {
		if r.body == nil {
			return nil
		}
		return encodeSweepBody(t, r.body(fx))
	}
	add("plausible", path, plausible(), "application/json")
	for _, param := range routeParams(pattern) {
		segments := hostileSegments
		if strings.HasSuffix(param, "*") {
			segments = append(segments, "../../etc/passwd", "a/%00/b.png", "%FF.png", strings.Repeat("a/", 500)+"x.png")
		}
		for _, seg := range segments {
			add("path "+param+"="+short(seg), fillPath(pattern, r.params, fx, param, seg), plausible(), "application/json")
		}
	}
	for _, h := range hostileHeaders {
		cases = append(cases, sweepCase{name: "header " + h.name, method: method, uri: path, body: plausible(),
			contentType: "application/json", headers: h.v.([]string)})
	}
	read := method == fasthttp.MethodGet || method == fasthttp.MethodHead
	for i, q := range hostileQueries {
		if !read && i >= queriesForBodies {
			break
		}
		add("query "+q.name, path+"?"+q.v.(string), plausible(), "application/json")
	}
	if read {
		return cases
	}
	for _, b := range hostileBodies {
		add("body "+b.name, path, []byte(b.v.(string)), "application/json")
	}
	add("body as text/plain", path, plausible(), "text/plain")
	add("json as multipart", path, plausible(), "multipart/form-data; boundary=x")
	if r.body != nil {
		root := r.body(fx)
		for _, p := range jsonPaths(root, nil) {
			var vals []named
			switch leaf := valueAt(root, p).(type) {
			case string:
				vals = append(append(vals, hostileStrings...), hostileValues...)
			case []any:
				many := make([]any, 1000)
				for i := range many {
					if len(leaf) > 0 {
						many[i] = leaf[0]
					}
				}
				vals = append(vals, named{"1000 items", many})
				vals = append(vals, hostileValues...)
			default:
				vals = hostileValues
			}
			vals = append(vals, named{"missing", deleteMarker{}})
			for _, v := range vals {
				body := r.body(fx)
				body = setAt(body, p, v.v)
				add(fmt.Sprintf("field %v=%s", p, v.name), path, encodeSweepBody(t, body), "application/json")
			}
		}
	}
	if r.form != nil || r.file != "" {
		cases = append(cases, r.multipartCases(t, method, path)...)
	}
	return cases
}

// multipartCases are hostile uploads: text fields, files and framing.
func (r sweepRoute) multipartCases(t *testing.T, method, path string) []sweepCase {
	t.Helper()
	var cases []sweepCase
	add := func(name string, fields map[string]string, files []sweepFile) {
		body, ct := sweepMultipart(t, fields, files)
		cases = append(cases, sweepCase{name: "multipart " + name, method: method, uri: path, body: body, contentType: ct})
	}
	form := func(k, v string) map[string]string {
		out := map[string]string{}
		for f, fv := range r.form {
			out[f] = fv
		}
		if k != "" {
			out[k] = v
		}
		return out
	}
	add("plausible", form("", ""), nil)
	for f := range r.form {
		for _, s := range hostileStrings {
			v := strings.ReplaceAll(s.v.(string), markBadUTF8, "\xff\xfe")
			v = strings.ReplaceAll(v, markSurrogate, "\xed\xa0\x80") // CESU-8 surrogate: invalid UTF-8
			add(f+"="+s.name, form(f, v), nil)
		}
	}
	field := r.file
	for _, f := range []sweepFile{
		{field, "a.png", []byte("not an image")}, {field, "a.png", nil}, {field, "a.png", []byte{0}},
		{field, "a.png", []byte("\x89PNG\r\n\x1a\n")}, {field, "a\x00b.png", []byte("GIF89a")},
		{field, "\xff\xfe.png", []byte("GIF89a")}, {field, strings.Repeat("n", 3000) + ".png", []byte("x")},
		{"other", "a.png", []byte("x")},
	} {
		add("file "+short(f.name)+" "+short(string(f.data)), form("", ""), []sweepFile{f})
	}
	many := make([]sweepFile, 8)
	for i := range many {
		many[i] = sweepFile{field, fmt.Sprintf("%d.gif", i), []byte("GIF89a")}
	}
	add("8 files", form("", ""), many)
	plain, ct := sweepMultipart(t, form("", ""), []sweepFile{{field, "a.png", []byte("x")}})
	for _, c := range []sweepCase{
		{name: "no boundary", body: plain, contentType: "multipart/form-data"},
		{name: "wrong boundary", body: plain, contentType: "multipart/form-data; boundary=nope"},
		{name: "truncated", body: plain[:len(plain)/2], contentType: ct},
		{name: "garbage", body: []byte("--x\r\nnot a part\r\n"), contentType: "multipart/form-data; boundary=x"},
		{name: "nul boundary", body: plain, contentType: "multipart/form-data; boundary=\x00"},
	} {
		c.name, c.method, c.uri = "multipart "+c.name, method, path
		cases = append(cases, c)
	}
	return cases
}

type sweepFile struct {
	field, name string
	data        []byte
}

// sweepMultipart writes a form; file names go into the part header raw,
// so they may hold any bytes.
func sweepMultipart(t *testing.T, fields map[string]string, files []sweepFile) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := w.WriteField(k, fields[k]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+f.field+`"; filename="`+f.name+`"`)
		h.Set("Content-Type", "application/octet-stream")
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

var paramPattern = regexp.MustCompile(`\{([^}]+)\}`)

// routeParams are the parameter names of a router pattern ("key:*" for a
// catch-all).
func routeParams(pattern string) []string {
	var out []string
	for _, m := range paramPattern.FindAllStringSubmatch(pattern, -1) {
		out = append(out, m[1])
	}
	return out
}

// fillPath puts fixtures into a pattern's parameters, and seg into the
// parameter named hostile.
func fillPath(pattern string, params map[string]string, fx *sweepFixtures, hostile, seg string) string {
	return paramPattern.ReplaceAllStringFunc(pattern, func(m string) string {
		name := m[1 : len(m)-1]
		if name == hostile {
			return seg
		}
		return fx.ids[params[name]]
	})
}

// deleteMarker as a value removes the key (or array item) instead.
type deleteMarker struct{}

// jsonPaths lists every value's path in a plausible body, containers too.
func jsonPaths(v any, prefix []any) [][]any {
	var out [][]any
	switch c := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := append(append([]any(nil), prefix...), k)
			out = append(out, p)
			out = append(out, jsonPaths(c[k], p)...)
		}
	case []any:
		for i, item := range c {
			p := append(append([]any(nil), prefix...), i)
			out = append(out, p)
			out = append(out, jsonPaths(item, p)...)
		}
	}
	return out
}

func valueAt(v any, p []any) any {
	for _, k := range p {
		switch c := v.(type) {
		case map[string]any:
			v = c[k.(string)]
		case []any:
			v = c[k.(int)]
		}
	}
	return v
}

// setAt replaces the value at p in root (a fresh body) with nv.
func setAt(root any, p []any, nv any) any {
	if len(p) == 0 {
		return nv
	}
	switch c := root.(type) {
	case map[string]any:
		k := p[0].(string)
		if _, del := nv.(deleteMarker); del && len(p) == 1 {
			delete(c, k)
			return c
		}
		c[k] = setAt(c[k], p[1:], nv)
	case []any:
		i := p[0].(int)
		if _, del := nv.(deleteMarker); del && len(p) == 1 {
			return append(c[:i:i], c[i+1:]...)
		}
		c[i] = setAt(c[i], p[1:], nv)
	}
	return root
}

func short(s string) string {
	s = strconv.Quote(s)
	if len(s) > 40 {
		return s[:37] + "…"
	}
	return s
}

// sweepDo sends one case and answers the status, content type and body.
func (sw *sweepStack) sweepDo(t *testing.T, c sweepCase, token string) (int, string, []byte) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.URI().DisablePathNormalizing = true
	req.SetRequestURI("http://" + sw.addr + c.uri)
	req.Header.SetMethod(c.method)
	req.Header.Set("Authorization", "Bearer "+token)
	if c.body != nil || c.contentType != "" {
		req.SetBody(c.body)
		req.Header.SetContentType(c.contentType)
	}
	for i := 0; i+1 < len(c.headers); i += 2 {
		req.Header.Set(c.headers[i], c.headers[i+1])
	}
	if err := sw.client.DoTimeout(req, resp, 30*time.Second); err != nil {
		t.Fatalf("%s %s (%s): %v", c.method, short(c.uri), c.name, err)
	}
	return resp.StatusCode(), string(resp.Header.ContentType()), append([]byte(nil), resp.Body()...)
}

// envelopeProblem says what is wrong with an answer, or "".
func envelopeProblem(method string, status int, contentType string, body []byte, raw bool) string {
	if status >= 500 {
		return fmt.Sprintf("status %d", status)
	}
	if method == fasthttp.MethodHead || raw && !strings.HasPrefix(contentType, "application/json") {
		return ""
	}
	var env struct {
		Status  string          `json:"status"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Sprintf("status %d, not a JSON envelope: %.120q", status, body)
	}
	switch {
	case env.Status == "success" && status < 400 && len(env.Data) > 0:
	case env.Status == "error" && status >= 400 && env.Message != nil && *env.Message != "":
	default:
		return fmt.Sprintf("status %d with envelope %.200s", status, body)
	}
	return ""
}

// sweepCoverage compares the router's routes (router.List) with
// sweepRoutes: every registered route as "METHOD pattern", sorted, and the
// ones missing from either side.
func sweepCoverage(routes map[string][]string) (keys, missing, stale []string) {
	registered := map[string]bool{}
	for method, paths := range routes {
		for _, p := range paths {
			k := method + " " + p
			registered[k] = true
			keys = append(keys, k)
			if _, ok := sweepRoutes[k]; !ok {
				missing = append(missing, k)
			}
		}
	}
	for k := range sweepRoutes {
		if !registered[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(keys)
	sort.Strings(missing)
	sort.Strings(stale)
	return keys, missing, stale
}

func TestSweepCoverage(t *testing.T) {
	all := map[string][]string{}
	for k := range sweepRoutes {
		method, path, _ := strings.Cut(k, " ")
		all[method] = append(all[method], path)
	}
	withNew := map[string][]string{}
	for m, ps := range all {
		withNew[m] = append([]string(nil), ps...)
	}
	withNew["PATCH"] = append(withNew["PATCH"], "/api/brand-new/{id}")
	without := map[string][]string{}
	for m, ps := range all {
		for _, p := range ps {
			if m+" "+p != "GET /api/health" {
				without[m] = append(without[m], p)
			}
		}
	}
	tests := []struct {
		name           string
		routes         map[string][]string
		missing, stale []string
	}{
		{"same", all, nil, nil},
		{"a new route", withNew, []string{"PATCH /api/brand-new/{id}"}, nil},
		{"a removed route", without, nil, []string{"GET /api/health"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, missing, stale := sweepCoverage(tt.routes)
			if fmt.Sprint(missing) != fmt.Sprint(tt.missing) || fmt.Sprint(stale) != fmt.Sprint(tt.stale) {
				t.Fatalf("missing %v, stale %v; want %v, %v", missing, stale, tt.missing, tt.stale)
			}
		})
	}
}

// TestSweep sends every hostile variant to every registered route as a
// signed-in user: nothing may answer 5xx, and every API answer is the
// envelope of docs/protocol.md §1.
func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("the sweep sends thousands of requests")
	}
	sw := newSweepStack(t)
	keys, missing, stale := sweepCoverage(sw.srv.router.List())
	for _, k := range missing {
		t.Errorf("route %q has no entry in sweepRoutes: add what it reads so the sweep covers it", k)
	}
	for _, k := range stale {
		t.Errorf("sweepRoutes has %q, which the router does not register", k)
	}
	for _, k := range keys {
		r, ok := sweepRoutes[k]
		if !ok {
			continue
		}
		method, pattern, _ := strings.Cut(k, " ")
		t.Run(k, func(t *testing.T) {
			fx := sw.fixtures(t)
			failures := 0
			for _, c := range r.cases(t, method, pattern, fx) {
				sw.refresh(t, fx)
				status, ct, body := sw.sweepDo(t, c, fx.token)
				if c.name == "plausible" && status == fasthttp.StatusUnauthorized {
					// The sweep would only ever meet the token check.
					t.Fatalf("plausible request refused as signed out: %s", body)
				}
				if p := envelopeProblem(method, status, ct, body, r.raw); p != "" {
					t.Errorf("%s: %s", c.name, p)
					if failures++; failures >= 30 {
						t.Fatal("too many failures")
					}
				}
			}
		})
	}
}

// TestSweepWebsocket sends hostile watch frames over a real socket: each
// gets an error frame and the socket keeps serving.
func TestSweepWebsocket(t *testing.T) {
	sw := newSweepStack(t)
	_, token := sw.member(t, "Sweep Socket")
	c := sw.connect(t, token)
	frames := []struct{ name, frame string }{
		{"NUL id", `{"event":"watch","data":{"postIds":["\u0000"]}}`},
		{"NUL in an id", `{"event":"watch","data":{"postIds":["` + uuid.NewString()[:8] + `\u0000"]}}`},
		{"not UTF-8", "{\"event\":\"watch\",\"data\":{\"postIds\":[\"\xff\xfe\"]}}"},
		{"numbers", `{"event":"watch","data":{"postIds":[1,2.5,-1]}}`},
		{"nulls", `{"event":"watch","data":{"postIds":[null]}}`},
		{"objects", `{"event":"watch","data":{"postIds":[{"id":"x"}]}}`},
		{"ids not a list", `{"event":"watch","data":{"postIds":"` + uuid.NewString() + `"}}`},
		{"long id", `{"event":"watch","data":{"postIds":["` + strings.Repeat("a", 10000) + `"]}}`},
		{"unwatch garbage", `{"event":"unwatch","data":{"postIds":["nope",7]}}`},
		{"data a string", `{"event":"watch","data":"\u0000"}`},
		{"event NUL", `{"event":"\u0000","data":{}}`},
	}
	for _, f := range frames {
		t.Run(f.name, func(t *testing.T) {
			if err := c.WriteMessage(websocket.TextMessage, []byte(f.frame)); err != nil {
				t.Fatal(err)
			}
			if got := c.Next(t, "error"); got.Data["message"] == "" {
				t.Fatalf("error frame without a message: %v", got)
			}
			c.Send(t, "test", map[string]any{})
			c.Next(t, "test:response")
		})
	}
}

// sweepSSO is university sign-in against real test identity providers on
// loopback (the sweep's own server is in memory, at http://campus.test).
func sweepSSO(t *testing.T, db *bun.DB, d *Deps) *app.SSO {
	t.Helper()
	const origin = "http://campus.test"
	op, err := ssotest.StartOP(ssotest.OPOptions{RedirectURIs: []string{origin + app.OIDCCallbackPath}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	idp, err := ssotest.StartIdP("", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(idp.Close)
	certFile, keyFile, err := ssotest.WriteKeyPair(t.TempDir(), "sweep SP")
	if err != nil {
		t.Fatal(err)
	}
	roles := sso.Roles{Student: []string{"student"}, Faculty: []string{"faculty"}}
	sp, err := sso.NewSAML(sso.SAMLConfig{EntityID: origin + config.SAMLMetadataPath, MetadataURL: origin + config.SAMLMetadataPath,
		ACSURL: origin + app.SAMLACSPath, CertFile: certFile, KeyFile: keyFile, IDPMetadataURL: idp.MetadataURL,
		PrincipalAttr: "eduPersonPrincipalName", EmailAttr: "mail", Roles: roles, ClockSkew: 3 * time.Minute,
		Replay: app.ReplayCache(db)})
	if err != nil {
		t.Fatal(err)
	}
	return app.NewSSO(app.SSODeps{DB: db, Accounts: d.Accounts, Origin: origin, Log: d.Log, SAML: sp, SAMLName: "Sweep SAML",
		OIDCName: "Sweep", OIDC: sso.NewOIDC(sso.OIDCConfig{Issuer: op.Issuer, ClientID: op.ClientID, ClientSecret: op.ClientSecret,
			RedirectURL: origin + app.OIDCCallbackPath, Scopes: []string{"openid", "email"}, EmailClaim: "email", Roles: roles})})
}
