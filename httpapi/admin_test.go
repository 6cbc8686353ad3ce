package httpapi

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/app"
	"campus/persistence"
)

// TestAdminConsole walks the admins' console on a live node: a member who
// is not an admin gets 403 from every call and changes nothing; an admin
// finds accounts by name and e-mail, gives and takes roles (never their
// own), resets a member's sessions (the socket closes, the token stops
// working), suspends and unsuspends from the console, lists every group
// (secret ones too), and sees the node's heartbeat on the system page.
// Each change is in the audit log.
func TestAdminConsole(t *testing.T) {
	var heartbeat *app.NodeStatus
	st := newLiveStack(t, liveOptions{mutate: func(st *liveStack, d *Deps) {
		d.Moderation = app.NewModeration(app.ModerationDeps{DB: st.db, Sessions: st.sessions, Log: d.Log})
		d.Admin = app.NewAdmin(app.AdminDeps{DB: st.db, Sessions: st.sessions, Moderation: d.Moderation, Log: d.Log})
		heartbeat = app.NewNodeStatus(app.NodeStatusOptions{DB: st.db, Log: zerolog.Nop(), Node: "10.9.8.7:6331",
			Version: "v-test", HTTPAddr: "10.9.8.7:8080", Interval: time.Hour, // one beat, at Start
			Probes: app.NodeProbes{
				Members: func() []string { return []string{"10.9.8.7:6331", "10.9.8.6:6331"} },
				Sockets: func() (int, error) { return 4, nil },
				Queues:  func() (int, int64) { return 2, 3 },
			}})
	}})
	ctx := context.Background()
	admin, adminTok := st.user(t, "Ada Admin")
	if _, err := persistence.GrantCapability(ctx, st.db, admin.ID, "admin", uuid.Nil); err != nil {
		t.Fatal(err)
	}
	member, memberTok := st.user(t, "Meera Member")
	target, targetTok := st.user(t, "Tariq Target")
	secret := &persistence.Group{ID: persistence.NewID(), Handle: "quiet-" + uuid.NewString()[:6], Name: "Quiet Room",
		Kind: "club", Visibility: "secret"}
	if err := persistence.InsertGroup(ctx, st.db, secret, target.ID); err != nil {
		t.Fatal(err)
	}
	heartbeat.Start()
	t.Cleanup(func() { heartbeat.Stop(context.Background()) })

	targetPath := "/api/admin/users/" + target.ID.String()
	routes := []struct{ method, path string }{
		{"GET", "/api/admin/users"},
		{"GET", targetPath},
		{"POST", targetPath + "/suspend"},
		{"POST", targetPath + "/unsuspend"},
		{"POST", targetPath + "/reset-sessions"},
		{"POST", targetPath + "/roles"},
		{"DELETE", targetPath + "/roles/moderator"},
		{"GET", "/api/admin/groups"},
		{"GET", "/api/admin/system"},
	}
	t.Run("a member who is not an admin gets 403 and changes nothing", func(t *testing.T) {
		for _, r := range routes {
			status, env := st.call(t, r.method, r.path, memberTok, map[string]any{"role": "admin", "reason": "x", "days": 1})
			if status != 403 || env["message"] != "Only admins can do this" {
				t.Errorf("%s %s as a member: %d %v", r.method, r.path, status, env)
			}
			if status, _ := st.call(t, r.method, r.path, "", nil); status != 401 {
				t.Errorf("%s %s signed out: %d, want 401", r.method, r.path, status)
			}
		}
		caps, err := persistence.Capabilities(ctx, st.db, member.ID)
		if err != nil || len(caps) != 0 {
			t.Fatalf("member's capabilities %v %v", caps, err)
		}
	})

	userIDs := func(env map[string]any) []string {
		var ids []string
		for _, u := range data(env)["users"].([]any) {
			ids = append(ids, u.(map[string]any)["id"].(string))
		}
		return ids
	}
	t.Run("search accounts by name and by e-mail", func(t *testing.T) {
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"tariq", []string{target.ID.String()}},
			{strings.ToUpper(target.Email[:10]), []string{target.ID.String()}},
			{"meera member", []string{member.ID.String()}},
			{"100%_", nil}, // wildcards are taken literally
		} {
			status, env := st.call(t, "GET", "/api/admin/users?q="+url.QueryEscape(tc.q), adminTok, nil)
			if status != 200 {
				t.Fatalf("q=%q: %d %v", tc.q, status, env)
			}
			if got := userIDs(env); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("q=%q found %v, want %v", tc.q, got, tc.want)
			}
		}
		status, env := st.call(t, "GET", "/api/admin/users?limit=2", adminTok, nil)
		if status != 200 || len(userIDs(env)) != 2 || data(env)["nextCursor"] == nil {
			t.Fatalf("first page of 2: %d %v", status, env)
		}
		status, env = st.call(t, "GET", "/api/admin/users?limit=2&cursor="+url.QueryEscape(data(env)["nextCursor"].(string)), adminTok, nil)
		if status != 200 || len(userIDs(env)) != 1 || data(env)["nextCursor"] != nil {
			t.Fatalf("second page: %d %v", status, env)
		}
		status, env = st.call(t, "GET", "/api/admin/users?q="+strings.Repeat("x", 201), adminTok, nil)
		if status != 400 {
			t.Fatalf("a 201-character search: %d %v", status, env)
		}
		status, env = st.call(t, "GET", targetPath, adminTok, nil)
		u := data(env)
		if status != 200 || u["email"] != target.Email || u["suspended"] != false || u["verified"] != true {
			t.Fatalf("view: %d %v", status, env)
		}
		if status, _ := st.call(t, "GET", "/api/admin/users/"+uuid.NewString(), adminTok, nil); status != 404 {
			t.Fatalf("unknown account: %d", status)
		}
	})

	caps := func(id uuid.UUID) string {
		c, err := persistence.Capabilities(ctx, st.db, id)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(c, ",")
	}
	t.Run("roles", func(t *testing.T) {
		for _, step := range []struct {
			method, path string
			body         map[string]any
			status       int
			message      string
			caps         string
		}{
			{"POST", targetPath + "/roles", map[string]any{"role": "moderator", "reason": "helps"}, 200, "Now a moderator", "moderator"},
			{"POST", targetPath + "/roles", map[string]any{"role": "admin"}, 200, "Now an admin", "admin,moderator"},
			{"POST", targetPath + "/roles", map[string]any{"role": "owner"}, 400, "role must be moderator or admin", "admin,moderator"},
			{"DELETE", targetPath + "/roles/admin", nil, 200, "No longer an admin", "moderator"},
			{"DELETE", targetPath + "/roles/admin", nil, 200, "Was not an admin", "moderator"},
			{"DELETE", targetPath + "/roles/moderator", nil, 200, "No longer a moderator", ""},
			{"DELETE", "/api/admin/users/" + admin.ID.String() + "/roles/admin", nil, 400, "You cannot do this to your own account", ""},
		} {
			status, env := st.call(t, step.method, step.path, adminTok, step.body)
			msg, _ := env["message"].(string)
			if status == 200 {
				msg, _ = data(env)["message"].(string)
			}
			if status != step.status || msg != step.message {
				t.Fatalf("%s %s %v: %d %v, want %d %q", step.method, step.path, step.body, status, env, step.status, step.message)
			}
			if got := caps(target.ID); got != step.caps {
				t.Fatalf("after %s %s: capabilities %q, want %q", step.method, step.path, got, step.caps)
			}
		}
		if got := caps(admin.ID); got != "admin" {
			t.Fatalf("the admin's own capabilities %q", got)
		}
	})

	t.Run("reset sessions signs the member out everywhere", func(t *testing.T) {
		c := st.connect(t, targetTok)
		status, env := st.call(t, "POST", targetPath+"/reset-sessions", adminTok, nil)
		if status != 200 || data(env)["message"] != app.MsgSessionsReset {
			t.Fatalf("reset: %d %v", status, env)
		}
		if code := c.CloseCode(t); code != 1008 {
			t.Fatalf("socket closed with %d, want 1008", code)
		}
		if status, _ := st.call(t, "GET", "/api/users/me", targetTok, nil); status != 401 {
			t.Fatalf("the old token after the reset: %d, want 401", status)
		}
	})

	t.Run("suspend and unsuspend from the console", func(t *testing.T) {
		status, env := st.call(t, "POST", targetPath+"/suspend", adminTok, map[string]any{"reason": "spam", "days": 7})
		if status != 200 || data(env)["user"].(map[string]any)["suspended"] != true {
			t.Fatalf("suspend: %d %v", status, env)
		}
		if u := data(env)["user"].(map[string]any); u["suspendedUntil"] == nil || u["suspensionReason"] != "spam" {
			t.Fatalf("suspended account: %v", u)
		}
		status, env = st.call(t, "POST", targetPath+"/unsuspend", adminTok, map[string]any{"reason": "appeal"})
		if status != 200 || data(env)["user"].(map[string]any)["suspended"] != false {
			t.Fatalf("unsuspend: %d %v", status, env)
		}
		if status, env := st.call(t, "POST", targetPath+"/suspend", adminTok, map[string]any{"days": 7}); status != 400 {
			t.Fatalf("suspend without a reason: %d %v", status, env)
		}
	})

	t.Run("every group, secret ones too", func(t *testing.T) {
		status, env := st.call(t, "GET", "/api/admin/groups?q=quiet", adminTok, nil)
		groups, _ := data(env)["groups"].([]any)
		if status != 200 || len(groups) != 1 {
			t.Fatalf("groups: %d %v", status, env)
		}
		if g := groups[0].(map[string]any); g["handle"] != secret.Handle || g["visibility"] != "secret" || g["members"] != float64(1) {
			t.Fatalf("group %v", g)
		}
	})

	t.Run("the system page shows the node's heartbeat and the database", func(t *testing.T) {
		status, env := st.call(t, "GET", "/api/admin/system", adminTok, nil)
		if status != 200 {
			t.Fatalf("system: %d %v", status, env)
		}
		nodes, _ := data(env)["nodes"].([]any)
		if len(nodes) != 1 {
			t.Fatalf("nodes %v", nodes)
		}
		n := nodes[0].(map[string]any)
		f := n["figures"].(map[string]any)
		if n["node"] != "10.9.8.7:6331" || n["version"] != "v-test" || n["stale"] != false ||
			f["sockets"] != float64(4) || f["writerQueue"] != float64(2) || f["pendingRequests"] != float64(3) ||
			len(f["members"].([]any)) != 2 || f["ready"] != "ok" || f["membership"] != "ok" {
			t.Fatalf("node %v", n)
		}
		// No index in this stack (applied 0): every outbox entry the
		// accounts and the group made is lag.
		if f["indexLag"].(float64) < 4 {
			t.Fatalf("index lag %v with nothing applied", f["indexLag"])
		}
		if pool := f["pool"].(map[string]any); pool["maxOpen"] == float64(0) {
			t.Fatalf("pool %v", pool)
		}
		db := data(env)["database"].(map[string]any)
		if db["maxConnections"].(float64) < 1 || len(db["connections"].(map[string]any)) == 0 {
			t.Fatalf("database %v", db)
		}
		// A cleanly stopped node leaves the page.
		heartbeat.Stop(ctx)
		_, env = st.call(t, "GET", "/api/admin/system", adminTok, nil)
		if nodes, _ := data(env)["nodes"].([]any); len(nodes) != 0 {
			t.Fatalf("nodes after the stop %v", nodes)
		}
	})

	t.Run("the audit log has every change, by the admin", func(t *testing.T) {
		entries, err := persistence.AuditLog(ctx, st.db, persistence.Keyset{}, 50)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range entries {
			if e.ActorID != admin.ID {
				t.Errorf("entry %s by %s", e.Action, e.ActorID)
			}
			actions = append(actions, e.Action)
		}
		want := "unsuspend,suspend,reset_sessions,revoke_moderator,revoke_admin,grant_admin,grant_moderator"
		if got := strings.Join(actions, ","); got != want {
			t.Errorf("audit %s, want %s", got, want)
		}
	})
}
