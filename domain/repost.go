package domain

import (
	"strings"
	"unicode/utf8"
)

// Messages of bookmarks and reposts (ours: the spec has none).
const (
	MsgRepostOwn     = "You can't repost your own post."
	MsgRepostGroup   = "Only public posts can be reposted; posts in groups stay with their group."
	MsgRepostTooLong = "Repost comment must be at most 2000 characters long."
)

// RepostInput is the body of POST /posts/{id}/repost: an optional comment,
// text as a post's (the same limit, the same rich text).
type RepostInput struct {
	Comment string `json:"comment"`
}

// Validate answers the comment, trimmed; "" is a repost without one.
func (in RepostInput) Validate() (string, error) {
	c := strings.TrimSpace(in.Comment)
	if !ValidText(c) {
		return "", InvalidField("comment", MsgBadText)
	}
	if utf8.RuneCountInString(c) > MaxPostLength {
		return "", InvalidField("comment", MsgRepostTooLong)
	}
	return c, nil
}

// CanRepost says whether a reader may repost a post they can see (blocks
// and removal are checked before): only public posts, which are the posts
// outside groups (a group's posts are addressed to it, and a public group
// may turn closed or secret later), and never one's own.
func CanRepost(ownPost, inGroup bool) error {
	if inGroup {
		return Forbidden(MsgRepostGroup)
	}
	if ownPost {
		return Forbidden(MsgRepostOwn)
	}
	return nil
}
