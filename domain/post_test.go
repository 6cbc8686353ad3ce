package domain

import (
	"slices"
	"strings"
	"testing"
)

func TestPostInputValidate(t *testing.T) {
	tests := []struct {
		name       string
		in         PostInput
		images     int
		want       string
		msg, field string
	}{
		{name: "text", in: PostInput{Content: "  Hello  ", Visibility: "public"}, want: "Hello"},
		{name: "visibility defaults to public", in: PostInput{Content: "x"}, want: "x"},
		{name: "visibility ignores case", in: PostInput{Content: "x", Visibility: " Public "}, want: "x"},
		{name: "images without text", in: PostInput{Content: " "}, images: 3, want: ""},
		{name: "exactly 2000 characters", in: PostInput{Content: strings.Repeat("ü", 2000)}, want: strings.Repeat("ü", 2000)},
		{name: "nothing", in: PostInput{Content: " \n\t"}, msg: MsgPostEmpty, field: "content"},
		{name: "2001 characters", in: PostInput{Content: strings.Repeat("a", 2001)}, msg: MsgPostTooLong, field: "content"},
		{name: "four images", in: PostInput{Content: "x"}, images: 4, msg: MsgTooManyImages, field: "images"},
		{name: "four images and no text", in: PostInput{}, images: 4, msg: MsgTooManyImages, field: "images"},
		{name: "friends only", in: PostInput{Content: "x", Visibility: "friends"}, msg: MsgVisibility, field: "visibility"},
		{name: "invalid UTF-8", in: PostInput{Content: "a\xffb"}, msg: MsgBadText, field: "content"},
		{name: "NUL", in: PostInput{Content: "a\x00b"}, msg: MsgBadText, field: "content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Validate(tt.images)
			if tt.msg != "" {
				wantInvalid(t, err, tt.msg, tt.field)
				return
			}
			if err != nil || got.Content != tt.want || got.Visibility != VisibilityPublic {
				t.Fatalf("got %+v, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestPostEditValidate(t *testing.T) {
	if _, _, err := (PostEditInput{Content: ""}).Validate(0); err == nil {
		t.Fatal("a post without images needs text")
	}
	if got, alts, err := (PostEditInput{Content: " "}).Validate(1); err != nil || got != "" || alts != nil {
		t.Fatalf("a post with an image may lose its text: %q %q %v", got, alts, err)
	}
	wantInvalid(t, func() error { _, _, err := (PostEditInput{Content: strings.Repeat("a", 2001)}).Validate(1); return err }(),
		MsgPostTooLong, "content")
}

// Image descriptions, on a new post and on an edit: at most one per image,
// at most 1000 characters each, trimmed, padded with "" to one per image.
func TestImageAltsValidate(t *testing.T) {
	long := strings.Repeat("é", MaxAltLength)
	tests := []struct {
		name   string
		alts   []string
		images int
		want   []string
		msg    string
	}{
		{name: "none for two images", images: 2, want: []string{"", ""}},
		{name: "one per image, trimmed", alts: []string{" A cat ", "A dog"}, images: 2, want: []string{"A cat", "A dog"}},
		{name: "fewer than images", alts: []string{"A cat"}, images: 3, want: []string{"A cat", "", ""}},
		{name: "exactly 1000 characters", alts: []string{long}, images: 1, want: []string{long}},
		{name: "1001 characters", alts: []string{long + "a"}, images: 1, msg: MsgAltTooLong},
		{name: "more than images", alts: []string{"a", "b"}, images: 1, msg: MsgTooManyAlts},
		{name: "on a post without images", alts: []string{"a"}, images: 0, msg: MsgTooManyAlts},
		{name: "NUL", alts: []string{"a\x00"}, images: 1, msg: MsgBadText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			post, err := PostInput{Content: "x", ImageAlts: tt.alts}.Validate(tt.images)
			alts := tt.alts
			_, edited, editErr := PostEditInput{Content: "x", ImageAlts: &alts}.Validate(tt.images)
			if tt.msg != "" {
				wantInvalid(t, err, tt.msg, "imageAlts")
				wantInvalid(t, editErr, tt.msg, "imageAlts")
				return
			}
			if err != nil || editErr != nil {
				t.Fatalf("errors %v, %v", err, editErr)
			}
			if !slices.Equal(post.Alts, tt.want) || !slices.Equal(edited, tt.want) {
				t.Errorf("alts %q (new), %q (edit), want %q", post.Alts, edited, tt.want)
			}
		})
	}
}

func TestCommentValidate(t *testing.T) {
	tests := []struct {
		name, in, want, msg string
	}{
		{"text", "  Nice  ", "Nice", ""},
		{"1000 characters", strings.Repeat("é", 1000), strings.Repeat("é", 1000), ""},
		{"empty", "   ", "", MsgCommentEmpty},
		{"1001 characters", strings.Repeat("a", 1001), "", MsgCommentLong},
		{"NUL", "\x00", "", MsgBadText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CommentInput{Content: tt.in}.Validate()
			if tt.msg != "" {
				wantInvalid(t, err, tt.msg, "content")
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}
