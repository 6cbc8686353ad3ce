package httpapi

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/httpapi/wstest"
	"campus/persistence"
)

// heardBefore reads c's frames until one named event about fence arrives
// and answers whether an event named event about id came before it (or is
// it), and that frame. fence is sent after id's event by the same node, so
// its hub delivers them in order: a socket that got the fence and not id's
// event will never get it.
func heardBefore(t *testing.T, c *wstest.Conn, event, id, fence string) (wstest.Frame, bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got wstest.Frame
	heard := false
	for {
		f, err := c.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for %s of %s: %v", event, fence, err)
		}
		if f.Event == event && f.Data["postId"] == id {
			got, heard = f, true
		}
		if f.Event == event && f.Data["postId"] == fence {
			return got, heard
		}
	}
}

// befriend makes a and b friends straight in the database.
func befriend(t *testing.T, sw *sweepStack, a, b *persistence.User) {
	t.Helper()
	if _, err := persistence.AddFriendship(context.Background(), sw.db, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
}

// feedAudience is an author, a second author every reader is friends with
// (the fence), and readers in every relation to the author, each with a
// socket. The blocker blocked the author and is then befriended again
// straight in the database: the block, not the missing friendship, must
// keep the events away.
type feedAudience struct {
	sw             *sweepStack
	author, fencer *persistence.User
	aTok, fTok     string
	socks          map[string]*wstest.Conn
	users          map[string]*persistence.User
}

func newFeedAudience(t *testing.T) *feedAudience {
	sw := newSweepStack(t)
	fa := &feedAudience{sw: sw, socks: map[string]*wstest.Conn{}, users: map[string]*persistence.User{}}
	fa.author, fa.aTok = sw.member(t, "Feed Author")
	fa.fencer, fa.fTok = sw.member(t, "Feed Fence")
	readers := map[string]*persistence.User{}
	for _, name := range []string{"friend", "muter", "blocker", "blocked", "stranger", "watcher"} {
		u, tok := sw.member(t, "Feed "+name)
		readers[name], fa.users[name] = u, u
		befriend(t, sw, fa.fencer, u)
		fa.socks[name] = sw.connect(t, tok)
	}
	for _, name := range []string{"friend", "muter", "blocker", "blocked"} {
		befriend(t, sw, fa.author, readers[name])
	}
	muter, blocker, blocked := readers["muter"], readers["blocker"], readers["blocked"]
	if _, err := persistence.MuteUser(context.Background(), sw.db, muter.ID, fa.author.ID); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][2]*persistence.User{{blocker, fa.author}, {fa.author, blocked}} {
		if _, err := sw.db.ExecContext(context.Background(),
			"INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (?, ?)", b[0].ID, b[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	befriend(t, sw, fa.fencer, fa.author)
	fa.socks["author's other device"] = sw.connect(t, fa.aTok)
	return fa
}

// TestPostNewReachesFriends: a new post goes out as post:new {postId,
// authorId} to the author's friends and the author's own sockets, and to
// no one who muted the author, stands on either side of a block with them,
// or is not a friend.
func TestPostNewReachesFriends(t *testing.T) {
	fa := newFeedAudience(t)
	post := fa.sw.post(t, fa.aTok, "a new post for my friends")
	fence := fa.sw.post(t, fa.fTok, "the fence's post")
	for _, tc := range []struct {
		reader string
		want   bool
	}{
		{"friend", true},
		{"author's other device", true},
		{"muter", false},
		{"blocker", false},
		{"blocked", false},
		{"stranger", false},
	} {
		t.Run(tc.reader, func(t *testing.T) {
			f, heard := heardBefore(t, fa.socks[tc.reader], "post:new", post, fence)
			if heard != tc.want {
				t.Fatalf("heard of the post: %v, want %v", heard, tc.want)
			}
			if heard && (f.Data["authorId"] != fa.author.ID.String() || len(f.Data) != 2) {
				t.Fatalf("post:new is %v, want only postId and authorId %s", f.Data, fa.author.ID)
			}
		})
	}
}

// TestGroupPostNewReachesMembersOnly: a closed group's new post goes to
// its members, a stranger to the author among them, and to none of the
// author's friends outside it.
func TestGroupPostNewReachesMembersOnly(t *testing.T) {
	fa := newFeedAudience(t)
	status, env := fa.sw.call(t, "POST", "/api/groups", fa.aTok, map[string]any{"name": "Quiet Club",
		"handle": "quiet-club", "kind": "club", "visibility": "closed"})
	if status != 201 {
		t.Fatalf("group: %d %v", status, env)
	}
	groupID := data(env)["id"].(string)
	if _, err := fa.sw.db.ExecContext(context.Background(), `INSERT INTO group_members (group_id, user_id, status, joined_at)
		VALUES (?, ?, 'member', now())`, groupID, fa.users["stranger"].ID); err != nil {
		t.Fatal(err)
	}
	status, env = fa.sw.call(t, "POST", "/api/posts", fa.aTok, map[string]any{"content": "members only", "groupId": groupID})
	if status != 201 {
		t.Fatalf("group post: %d %v", status, env)
	}
	post := data(env)["post"].(map[string]any)["id"].(string)
	fence := fa.sw.post(t, fa.fTok, "the fence's post")
	for _, tc := range []struct {
		reader string
		want   bool
	}{
		{"stranger", true}, // a member
		{"author's other device", true},
		{"friend", false}, // a friend outside the group
		{"watcher", false},
	} {
		t.Run(tc.reader, func(t *testing.T) {
			if _, heard := heardBefore(t, fa.socks[tc.reader], "post:new", post, fence); heard != tc.want {
				t.Fatalf("heard of the group post: %v, want %v", heard, tc.want)
			}
		})
	}
}

// TestPostEditedLive: an edit goes out as post:edited with the new text to
// the post's watchers and to the author's friends whose feeds may show it,
// and not to those who muted or blocked the author or strangers who do not
// watch it.
func TestPostEditedLive(t *testing.T) {
	fa := newFeedAudience(t)
	post := fa.sw.post(t, fa.aTok, "before the edit")
	fence := fa.sw.post(t, fa.fTok, "the fence's post")
	fa.socks["watcher"].Watch(t, post)
	if status, env := fa.sw.call(t, "PUT", "/api/posts/"+post, fa.aTok, map[string]any{"content": "after the edit"}); status != 200 {
		t.Fatalf("edit: %d %v", status, env)
	}
	if status, env := fa.sw.call(t, "PUT", "/api/posts/"+fence, fa.fTok, map[string]any{"content": "fence edited"}); status != 200 {
		t.Fatalf("edit fence: %d %v", status, env)
	}
	for _, tc := range []struct {
		reader string
		want   bool
	}{
		{"watcher", true},
		{"friend", true},
		{"author's other device", true},
		{"muter", false},
		{"blocker", false},
		{"blocked", false},
		{"stranger", false},
	} {
		t.Run(tc.reader, func(t *testing.T) {
			f, heard := heardBefore(t, fa.socks[tc.reader], "post:edited", post, fence)
			if heard != tc.want {
				t.Fatalf("heard of the edit: %v, want %v", heard, tc.want)
			}
			if heard {
				if f.Data["content"] != "after the edit" || f.Data["updatedAt"] == nil || f.Data["images"] == nil {
					t.Fatalf("post:edited is %v", f.Data)
				}
			}
		})
	}
}

// TestFriendRemovedLive: declining a request tells its sender, cancelling
// it tells its receiver, and unfriending tells the other friend, each with
// friend:removed naming who did it and why.
func TestFriendRemovedLive(t *testing.T) {
	sw := newSweepStack(t)
	for _, tc := range []struct {
		name   string
		reason string
		// act ends the relation between the two; it answers who did it
		// (the other one must hear of it).
		act func(t *testing.T, a, b *persistence.User, aTok, bTok string) (actorIsA bool, requestID string)
	}{
		{"decline", "declined", func(t *testing.T, a, b *persistence.User, aTok, bTok string) (bool, string) {
			id := sendRequest(t, sw, aTok, b.ID)
			if status, env := sw.call(t, "PATCH", "/api/friends/decline-request/"+id, bTok, nil); status != 200 {
				t.Fatalf("decline: %d %v", status, env)
			}
			return false, id
		}},
		{"cancel", "cancelled", func(t *testing.T, a, b *persistence.User, aTok, bTok string) (bool, string) {
			id := sendRequest(t, sw, aTok, b.ID)
			if status, env := sw.call(t, "DELETE", "/api/friends/cancel-request/"+id, aTok, nil); status != 200 {
				t.Fatalf("cancel: %d %v", status, env)
			}
			return true, id
		}},
		{"unfriend", "unfriended", func(t *testing.T, a, b *persistence.User, aTok, bTok string) (bool, string) {
			befriend(t, sw, a, b)
			if status, env := sw.call(t, "DELETE", "/api/friends/unfriend/"+b.ID.String(), aTok, nil); status != 200 {
				t.Fatalf("unfriend: %d %v", status, env)
			}
			return true, ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, aTok := sw.member(t, "Removed Asha "+tc.name)
			b, bTok := sw.member(t, "Removed Bikram "+tc.name)
			aSock, bSock := sw.connect(t, aTok), sw.connect(t, bTok)
			actorIsA, requestID := tc.act(t, a, b, aTok, bTok)
			actor, other := b, aSock
			if actorIsA {
				actor, other = a, bSock
			}
			f := other.Next(t, "friend:removed")
			from, _ := f.Data["fromUser"].(map[string]any)
			if f.Data["reason"] != tc.reason || f.Data["userId"] != actor.ID.String() || from["id"] != actor.ID.String() ||
				from["name"] != actor.Name {
				t.Fatalf("friend:removed is %v, want %s by %s", f.Data, tc.reason, actor.ID)
			}
			if requestID != "" && f.Data["requestId"] != requestID {
				t.Fatalf("friend:removed names request %v, want %s", f.Data["requestId"], requestID)
			}
		})
	}
}

// sendRequest sends a friend request from tok's user to receiver and
// answers its id.
func sendRequest(t *testing.T, sw *sweepStack, tok string, receiver uuid.UUID) string {
	t.Helper()
	status, env := sw.call(t, "POST", "/api/friends/send-request", tok, map[string]any{"receiverId": receiver.String()})
	if status != 201 {
		t.Fatalf("send request: %d %v", status, env)
	}
	return data(env)["friendRequest"].(map[string]any)["id"].(string)
}

// TestProfileLikeNotifies: a profile like notifies the profile's owner
// live, rolled up like post likes: one profile_like notification whose text
// names the newest likers and counts everyone who likes the profile; a like
// taken back and given again adds no row and counts no one twice.
func TestProfileLikeNotifies(t *testing.T) {
	sw := newSweepStack(t)
	owner, ownerTok := sw.member(t, "Profile Owner")
	sock := sw.connect(t, ownerTok)
	likers := map[string]string{}
	for _, name := range []string{"Asha", "Bikram", "Chitra"} {
		_, tok := sw.member(t, name)
		likers[name] = tok
	}
	var firstID string
	for i, tc := range []struct {
		name    string
		calls   []string // "like" or "unlike", by liker
		by      string
		message string
		unread  float64
	}{
		{"first like", []string{"like"}, "Asha", "Asha liked your profile", 1},
		{"second liker rolls up", []string{"like"}, "Bikram", "Bikram and Asha liked your profile", 1},
		{"unlike and like again counts once", []string{"unlike", "like"}, "Asha", "Asha and Bikram liked your profile", 1},
		{"third liker", []string{"like"}, "Chitra", "Chitra and 2 others liked your profile", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, call := range tc.calls {
				if status, env := sw.call(t, "POST", "/api/profile/"+owner.ID.String()+"/"+call, likers[tc.by], nil); status != 200 {
					t.Fatalf("%s: %d %v", call, status, env)
				}
			}
			f := sock.Next(t, "notification")
			if f.Data["type"] != "profile_like" || f.Data["message"] != tc.message || f.Data["unreadCount"] != tc.unread {
				t.Fatalf("notification %v, want profile_like %q with %v unread", f.Data, tc.message, tc.unread)
			}
			if i == 0 {
				firstID, _ = f.Data["id"].(string)
			} else if f.Data["id"] != firstID {
				t.Fatalf("roll-up id %v, want the first's %s", f.Data["id"], firstID)
			}
			n, err := sw.db.NewSelect().Table("notifications").Where("user_id = ? AND type = 'profile_like'", owner.ID).
				Count(context.Background())
			if err != nil || n != 1 {
				t.Fatalf("%d profile_like rows (%v), want 1", n, err)
			}
		})
	}
	// Read, then liked again: unread again, once.
	if status, env := sw.call(t, "PATCH", "/api/notifications/mark-all-as-read", ownerTok, nil); status != 200 {
		t.Fatalf("read all: %d %v", status, env)
	}
	if status, env := sw.call(t, "POST", "/api/profile/"+owner.ID.String()+"/like", likers["Bikram"], nil); status != 200 {
		t.Fatalf("like: %d %v", status, env)
	}
	if f := sock.Next(t, "notification"); f.Data["unreadCount"] != float64(1) || f.Data["message"] != "Bikram and 2 others liked your profile" {
		t.Fatalf("after reading: %v", f.Data)
	}
}
