package app

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// Hand-written JSON for the busiest answers. The feed page is the most
// requested read, and encoding/json's reflection was a fifth of the
// server's CPU for it; a like's answer is the most frequent write. Each
// AppendJSON writes exactly what json.Marshal writes for the same value (the
// HTTP layer uses it when a value has one); json_test.go holds them to that.

// AppendJSON appends p as json.Marshal would. A page read for several
// readers at once carries its posts encoded once for all of them (enc), and
// only each post's reader flags (isLiked, saved, reposted: of the original,
// for a repost) are written per reader.
func (p PostPage) AppendJSON(b []byte) []byte {
	if e := p.enc; e != nil && len(e.cuts) == len(p.Posts)+2 {
		for i := range p.Posts {
			b = append(b, e.buf[e.cuts[i]:e.cuts[i+1]]...)
			b = p.Posts[i].target().appendViewer(b)
		}
		n := len(p.Posts)
		return append(b, e.buf[e.cuts[n]:e.cuts[n+1]]...)
	}
	return p.appendJSON(b)
}

// appendJSON encodes p in full.
func (p PostPage) appendJSON(b []byte) []byte {
	b = append(b, `{"posts":`...)
	if p.Posts == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Posts {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.Posts[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	return p.appendCursor(b)
}

func (p PostPage) appendCursor(b []byte) []byte {
	b = append(b, `,"nextCursor":`...)
	if p.NextCursor == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *p.NextCursor)
	}
	return append(b, '}')
}

// encodedPage is a page's JSON without its posts' reader flags
// (appendViewer): they go between buf[cuts[i]:cuts[i+1]] and the next
// part, one set per post.
type encodedPage struct {
	buf  []byte
	cuts []int
}

// encodePage encodes p once for every reader of it (p.Posts non-nil).
func encodePage(p PostPage) *encodedPage {
	e := &encodedPage{cuts: make([]int, 0, len(p.Posts)+2)}
	b := make([]byte, 0, 1024*(len(p.Posts)+1))
	e.cuts = append(e.cuts, 0)
	b = append(b, `{"posts":[`...)
	for i := range p.Posts {
		if i > 0 {
			b = append(b, ',')
		}
		b = p.Posts[i].appendHead(b)
		e.cuts = append(e.cuts, len(b))
		b = p.Posts[i].appendTail(b)
	}
	b = append(b, ']')
	b = p.appendCursor(b)
	e.buf = b
	e.cuts = append(e.cuts, len(b))
	return e
}

// AppendJSON appends r as json.Marshal would (the answer of every like).
func (r LikeResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"isLiked":`...)
	b = strconv.AppendBool(b, r.IsLiked)
	b = append(b, `,"likesCount":`...)
	b = strconv.AppendInt(b, int64(r.LikesCount), 10)
	if r.CountsVersion != 0 {
		b = append(b, `,"countsVersion":`...)
		b = strconv.AppendInt(b, r.CountsVersion, 10)
	}
	return append(b, '}')
}

// AppendJSON appends v as json.Marshal would.
func (v *PostView) AppendJSON(b []byte) []byte {
	b = v.appendHead(b)
	b = v.target().appendViewer(b)
	return v.appendTail(b)
}

// appendViewer appends the values that differ between readers, from
// isLiked's on: `true,"saved":false,"reposted":false`.
func (v *PostView) appendViewer(b []byte) []byte {
	b = strconv.AppendBool(b, v.IsLiked)
	b = append(b, `,"saved":`...)
	b = strconv.AppendBool(b, v.Saved)
	b = append(b, `,"reposted":`...)
	return strconv.AppendBool(b, v.Reposted)
}

// appendHead appends v's JSON up to the value of isLiked (of the original,
// for a repost), where the values that differ between readers start.
func (v *PostView) appendHead(b []byte) []byte {
	if o := v.RepostOf; o != nil {
		b = v.appendOwnHead(b)
		b = v.appendViewer(b)
		b = v.appendOwnTail(b)
		b = append(b, `,"repostOf":`...)
		return o.appendHead(b)
	}
	return v.appendOwnHead(b)
}

// appendTail appends v's JSON after the reader's values.
func (v *PostView) appendTail(b []byte) []byte {
	if o := v.RepostOf; o != nil {
		b = o.appendTail(b)
		return append(b, '}')
	}
	b = v.appendOwnTail(b)
	return append(b, '}')
}

// appendOwnHead appends v's own fields up to the value of isLiked.
func (v *PostView) appendOwnHead(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, v.ID)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, v.Content)
	b = append(b, `,"images":`...)
	if v.Images == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, im := range v.Images {
			if i > 0 {
				b = append(b, ',')
			}
			b = im.appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"visibility":`...)
	b = appendJSONString(b, v.Visibility)
	b = append(b, `,"likesCount":`...)
	b = strconv.AppendInt(b, int64(v.LikesCount), 10)
	return append(b, `,"isLiked":`...)
}

// appendOwnTail appends v's own fields after the reader's values, without
// the closing brace (a repost's repostOf follows).
func (v *PostView) appendOwnTail(b []byte) []byte {
	b = append(b, `,"commentsCount":`...)
	b = strconv.AppendInt(b, int64(v.CommentsCount), 10)
	b = append(b, `,"repostsCount":`...)
	b = strconv.AppendInt(b, int64(v.RepostsCount), 10)
	b = append(b, `,"countsVersion":`...)
	b = strconv.AppendInt(b, v.CountsVersion, 10)
	b = append(b, `,"author":`...)
	b = v.Author.AppendJSON(b)
	b = append(b, `,"user":`...)
	b = v.User.AppendJSON(b)
	b = append(b, `,"userId":`...)
	b = appendJSONString(b, v.UserID)
	b = append(b, `,"createdAt":`...)
	b = appendJSONTime(b, v.CreatedAt)
	b = append(b, `,"updatedAt":`...)
	b = appendJSONTime(b, v.UpdatedAt)
	b = append(b, `,"group":`...)
	if g := v.Group; g == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"id":`...)
		b = appendJSONString(b, g.ID)
		b = append(b, `,"handle":`...)
		b = appendJSONString(b, g.Handle)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, g.Name)
		b = append(b, `,"visibility":`...)
		b = appendJSONString(b, g.Visibility)
		b = append(b, '}')
	}
	if len(v.Mentions) > 0 {
		b = append(b, `,"mentions":[`...)
		for i, m := range v.Mentions {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendJSONString(b, m.ID)
			b = append(b, `,"handle":`...)
			b = appendJSONString(b, m.Handle)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return b
}

// AppendJSON appends u as json.Marshal would.
func (u *UserSummary) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, u.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, u.Name)
	b = append(b, `,"avatar":{"url":`...)
	b = appendJSONString(b, u.Avatar.URL)
	if u.Avatar.PublicID != "" {
		b = append(b, `,"publicId":`...)
		b = appendJSONString(b, u.Avatar.PublicID)
	}
	if u.Avatar.ThumbURL != "" {
		b = append(b, `,"thumbUrl":`...)
		b = appendJSONString(b, u.Avatar.ThumbURL)
	}
	if len(u.Avatar.Variants) > 0 {
		b = append(b, `,"variants":`...)
		b = appendVariants(b, u.Avatar.Variants)
	}
	b = append(b, `},"role":`...)
	b = appendJSONString(b, u.Role)
	b = append(b, `,"universityId":`...)
	b = appendJSONString(b, u.UniversityID)
	if u.Department != "" {
		b = append(b, `,"department":`...)
		b = appendJSONString(b, u.Department)
	}
	return append(b, '}')
}

// appendJSON appends im as json.Marshal would.
func (im *PostImageView) appendJSON(b []byte) []byte {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, im.URL)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, im.Type)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(im.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(im.Height), 10)
	b = append(b, `,"alt":`...)
	b = appendJSONString(b, im.Alt)
	b = append(b, `,"thumbUrl":`...)
	b = appendJSONString(b, im.ThumbURL)
	b = append(b, `,"variants":`...)
	if im.Variants == nil {
		b = append(b, "null"...)
	} else {
		b = appendVariants(b, im.Variants)
	}
	return append(b, '}')
}

// appendVariants appends vs (not nil) as json.Marshal would.
func appendVariants(b []byte, vs []VariantView) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"url":`...)
		b = appendJSONString(b, v.URL)
		b = append(b, `,"width":`...)
		b = strconv.AppendInt(b, int64(v.Width), 10)
		b = append(b, `,"height":`...)
		b = strconv.AppendInt(b, int64(v.Height), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONTime appends t as time.Time's MarshalJSON does (RFC 3339 with
// as many fractional digits as needed). Times here come from Postgres, well
// inside the years MarshalJSON accepts.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string exactly as encoding/json does
// by default: HTML-safe (<, > and & escaped), invalid UTF-8 replaced by
// U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
