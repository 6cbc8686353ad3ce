package app

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The hand-written encoders must write byte for byte what json.Marshal
// writes.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	nasty := []string{
		"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>", "tab\tnew\nline\rcr\bbs\fff",
		"\x00\x01\x1f\x7f", "ünïcødé ✓ 😀", "bad utf8 \xff\xfe end", "line\u2028sep\u2029para", "truncated \xe2\x82",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	randString := func() string {
		if rng.IntN(3) == 0 {
			return nasty[rng.IntN(len(nasty))]
		}
		var sb strings.Builder
		for range rng.IntN(40) {
			sb.WriteRune(rune(rng.IntN(0x3000)))
		}
		return sb.String()
	}
	variants := func() []VariantView {
		if rng.IntN(3) == 0 {
			return nil
		}
		vs := make([]VariantView, rng.IntN(3))
		for i := range vs {
			vs[i] = VariantView{URL: randString(), Width: rng.IntN(5000), Height: rng.IntN(5000)}
		}
		return vs
	}
	summary := func() UserSummary {
		u := UserSummary{ID: randString(), Name: randString(), Role: randString(), UniversityID: randString(),
			Avatar: Image{URL: randString()}}
		if rng.IntN(2) == 0 {
			u.Avatar.PublicID = randString()
		}
		if rng.IntN(2) == 0 {
			u.Department = randString()
		}
		if rng.IntN(2) == 0 {
			u.Avatar.ThumbURL = randString()
			u.Avatar.Variants = variants()
		}
		return u
	}
	base := time.Date(2026, 11, 22, 16, 37, 14, 0, time.UTC)
	for i := range 300 {
		var page PostPage
		if i%7 != 0 {
			page.Posts = []PostView{}
		}
		post := func() PostView {
			author := summary()
			v := PostView{
				ID: randString(), Content: randString(), Visibility: randString(),
				LikesCount: rng.IntN(1 << 20), IsLiked: rng.IntN(2) == 0, CommentsCount: rng.IntN(100),
				Saved: rng.IntN(2) == 0, Reposted: rng.IntN(2) == 0, RepostsCount: rng.IntN(1000),
				Author: author, User: author, UserID: randString(),
				CreatedAt: base.Add(time.Duration(rng.Int64N(1 << 50))).Round(time.Microsecond),
				UpdatedAt: base.Add(time.Duration(rng.Int64N(1 << 40))),
			}
			if rng.IntN(3) > 0 {
				v.Images = make([]PostImageView, rng.IntN(4))
				for k := range v.Images {
					v.Images[k] = PostImageView{URL: randString(), Type: randString(), Width: rng.IntN(12000),
						Height: rng.IntN(12000), Alt: randString(), ThumbURL: randString(), Variants: variants()}
				}
			}
			if rng.IntN(4) == 0 {
				v.CreatedAt = v.CreatedAt.In(time.FixedZone("", 0))
			}
			if rng.IntN(3) == 0 {
				v.Group = &PostGroupView{ID: randString(), Handle: randString(), Name: randString(), Visibility: randString()}
			}
			if rng.IntN(3) == 0 {
				// An empty list is left out as omitempty leaves it.
				v.Mentions = make([]MentionView, rng.IntN(3))
				for k := range v.Mentions {
					v.Mentions[k] = MentionView{ID: randString(), Handle: randString()}
				}
			}
			return v
		}
		for range rng.IntN(4) {
			v := post()
			if rng.IntN(3) == 0 { // a repost wrapping an original
				o := post()
				v.RepostOf = &o
			}
			page.Posts = append(page.Posts, v)
		}
		if rng.IntN(2) == 0 {
			c := randString()
			page.NextCursor = &c
		}
		like := LikeResult{IsLiked: rng.IntN(2) == 0, LikesCount: rng.IntN(1 << 30)}
		if want, _ := json.Marshal(like); string(like.AppendJSON(nil)) != string(want) {
			t.Fatalf("like result: got %s want %s", like.AppendJSON(nil), want)
		}
		want, err := json.Marshal(page)
		if err != nil {
			t.Fatal(err)
		}
		if got := page.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("page %d:\n got %s\nwant %s", i, got, want)
		}
		if page.Posts == nil {
			continue
		}
		// Encoded once for many readers, with each reader's flags filled in.
		shared := page
		shared.enc = encodePage(page)
		shared.Posts = make([]PostView, len(page.Posts))
		copy(shared.Posts, page.Posts)
		for k := range shared.Posts {
			shared.Posts[k] = shared.Posts[k].withViewer(rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0)
		}
		if want, _ = json.Marshal(shared); string(shared.AppendJSON(nil)) != string(want) {
			t.Fatalf("shared page %d:\n got %s\nwant %s", i, shared.AppendJSON(nil), want)
		}
	}
}
