package domain

import (
	"strings"
	"unicode/utf8"
)

// Messages of posts and comments. Those of docs/product.md §5 are written
// exactly as it has them; the rest are ours.
const (
	MsgPostEmpty     = "Please add some content or media to your post."
	MsgTooManyImages = "You can upload a maximum of 3 images."
	MsgPostTooLong   = "Post content must be at most 2000 characters long."
	MsgVisibility    = "Posts are always public: visibility must be \"public\"."
	MsgCommentEmpty  = "Please write something before posting your comment."
	MsgCommentLong   = "Comment must be at most 1000 characters long."
	MsgPostNotFound  = "Post not found"
	MsgCommentGone   = "Comment not found"
	MsgNotYourPost   = "You can only change or delete your own posts."
	MsgNotYourRemark = "You can only delete your own comments or comments on your posts."
	MsgAltTooLong    = "Image description must be at most 1000 characters long."
	MsgTooManyAlts   = "There are more image descriptions than images."
)

// Limits of docs/product.md §5 and §9.
const (
	MaxPostLength    = 2000
	MaxPostImages    = 3
	MaxCommentLength = 1000
	// MaxAltLength bounds an image's description (alt text): enough for a
	// screenshot of text, as Mastodon's 1,500 and Bluesky's 2,000 are.
	MaxAltLength = 1000
	// VisibilityPublic is the only visibility: docs/product.md §3 says posts are always
	// public when created.
	VisibilityPublic = "public"
)

// PostInput is a new post as a client sends it (JSON, or the text fields of
// the multipart form). Images are counted by the caller, which holds them.
type PostInput struct {
	Content    string `json:"content"`
	Visibility string `json:"visibility"`
	// GroupID, when set, posts in that group (members only).
	GroupID string `json:"groupId"`
	// ImageAlts are the images' descriptions in the images' order (the
	// multipart field imageAlts, once per image); fewer than images leaves
	// the rest without one.
	ImageAlts []string `json:"imageAlts"`
}

// Post is a validated new post.
type Post struct {
	Content    string
	Visibility string
	// Alts has one description per image, "" for none.
	Alts []string
}

// Validate checks a new post with images attached: text or at least one
// image, at most 2000 characters, at most 3 images.
func (in PostInput) Validate(images int) (Post, error) {
	if images > MaxPostImages {
		return Post{}, InvalidField("images", MsgTooManyImages)
	}
	content, err := postContent(in.Content, images)
	if err != nil {
		return Post{}, err
	}
	switch strings.ToLower(strings.TrimSpace(in.Visibility)) {
	case "", VisibilityPublic:
	default:
		return Post{}, InvalidField("visibility", MsgVisibility)
	}
	alts, err := imageAlts(in.ImageAlts, images)
	if err != nil {
		return Post{}, err
	}
	return Post{Content: content, Visibility: VisibilityPublic, Alts: alts}, nil
}

// PostEditInput is the body of PUT /posts/{id}.
type PostEditInput struct {
	Content string `json:"content"`
	// ImageAlts, when present, replaces the images' descriptions, in their
	// order; absent (null), they stay as they are.
	ImageAlts *[]string `json:"imageAlts"`
}

// Validate checks new text for a post that keeps its images (with none, the
// text may not be blank) and the new descriptions of those images: nil
// when the edit leaves them alone, else one per image.
func (in PostEditInput) Validate(images int) (string, []string, error) {
	content, err := postContent(in.Content, images)
	if err != nil {
		return "", nil, err
	}
	if in.ImageAlts == nil {
		return content, nil, nil
	}
	alts, err := imageAlts(*in.ImageAlts, images)
	if err != nil {
		return "", nil, err
	}
	return content, alts, nil
}

// imageAlts checks the descriptions of a post's images and answers one per
// image, trimmed, "" where none was given: at most one per image, each at
// most MaxAltLength characters of valid text.
func imageAlts(raw []string, images int) ([]string, error) {
	if len(raw) > images {
		return nil, InvalidField("imageAlts", MsgTooManyAlts)
	}
	out := make([]string, images)
	for i, a := range raw {
		a = strings.TrimSpace(a)
		if !ValidText(a) {
			return nil, InvalidField("imageAlts", MsgBadText)
		}
		if utf8.RuneCountInString(a) > MaxAltLength {
			return nil, InvalidField("imageAlts", MsgAltTooLong)
		}
		out[i] = a
	}
	return out, nil
}

func postContent(raw string, images int) (string, error) {
	content := strings.TrimSpace(raw)
	if !ValidText(content) {
		return "", InvalidField("content", MsgBadText)
	}
	if content == "" && images == 0 {
		return "", InvalidField("content", MsgPostEmpty)
	}
	if utf8.RuneCountInString(content) > MaxPostLength {
		return "", InvalidField("content", MsgPostTooLong)
	}
	return content, nil
}

// CommentInput is the body of POST /posts/{id}/comments.
type CommentInput struct {
	Content string `json:"content"`
}

// Validate answers the comment's trimmed text: 1 to 1000 characters.
func (in CommentInput) Validate() (string, error) {
	content := strings.TrimSpace(in.Content)
	switch {
	case !ValidText(content):
		return "", InvalidField("content", MsgBadText)
	case content == "":
		return "", InvalidField("content", MsgCommentEmpty)
	case utf8.RuneCountInString(content) > MaxCommentLength:
		return "", InvalidField("content", MsgCommentLong)
	}
	return content, nil
}
