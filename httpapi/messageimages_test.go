package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"campus/httpapi/wstest"
	"campus/persistence"
)

// messageMultipart is a send's multipart form: the text fields, the files in
// order under images[] and their descriptions under imageAlts.
func messageMultipart(t *testing.T, fields map[string]string, files [][]byte, alts []string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range files {
		fw, err := w.CreateFormFile("images[]", fmt.Sprintf("photo%d.jpg", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range alts {
		if err := w.WriteField("imageAlts", a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

// messageImages is the images of a Message in an answer or a frame.
func messageImages(m map[string]any) []map[string]any {
	var out []map[string]any
	ims, _ := m["images"].([]any)
	for _, im := range ims {
		out = append(out, obj(im))
	}
	return out
}

// TestMessageImages sends images through the posts' media pipeline: they
// come back (and reach the other member live) in the form posts answer
// theirs; a message may be images only but not empty; what is refused, and
// a retried client id, leave no row and no file behind; unsending deletes
// the rows and then the files.
func TestMessageImages(t *testing.T) {
	st := newMessagesStack(t)
	ctx := context.Background()
	asha, ashaTok := st.user(t, "Img Asha")
	bikram, bikramTok := st.user(t, "Img Bikram")
	if _, err := persistence.AddFriendship(ctx, st.db, asha.ID, bikram.ID); err != nil {
		t.Fatal(err)
	}
	conv := st.conversation(t, ashaTok, map[string]any{"kind": "direct", "userId": bikram.ID.String()}, 201)["id"].(string)
	bSock := st.connect(t, bikramTok)
	path := "/api/conversations/" + conv + "/messages"
	wide, small := photo(t, 1600, 1200), photo(t, 200, 100)
	send := func(t *testing.T, fields map[string]string, files [][]byte, alts []string) (int, map[string]any) {
		t.Helper()
		body, ct := messageMultipart(t, fields, files, alts)
		return st.request(t, "POST", path, ashaTok, body, ct)
	}
	imageRows := func(t *testing.T) int {
		t.Helper()
		n, err := st.db.NewSelect().Model((*persistence.MessageImage)(nil)).Where("conversation_id = ?", conv).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}

	var first map[string]any // the message with two images
	t.Run("text and two images: the posts' image form, live too", func(t *testing.T) {
		status, env := send(t, map[string]string{"clientId": "img-1", "body": " the quad "}, [][]byte{wide, small},
			[]string{"A wide view of the quad"})
		if status != 201 {
			t.Fatalf("send: %d %v", status, env)
		}
		first = data(env)
		ims := messageImages(first)
		if first["body"] != "the quad" || len(ims) != 2 {
			t.Fatalf("message %v", first)
		}
		want := []struct {
			alt           string
			width, height float64
			variants      int
		}{{"A wide view of the quad", 1600, 1200, 4}, {"", 200, 100, 1}}
		for i, im := range ims {
			w := want[i]
			vs, _ := im["variants"].([]any)
			if im["alt"] != w.alt || im["width"] != w.width || im["height"] != w.height || im["type"] != "image" || len(vs) != w.variants {
				t.Errorf("image %d: %v, want %+v", i, im, w)
			}
			thumb := im["url"]
			if len(vs) > 0 {
				thumb = obj(vs[0])["url"]
			}
			if im["thumbUrl"] != thumb {
				t.Errorf("image %d: thumbUrl %v, want %v", i, im["thumbUrl"], thumb)
			}
			if status, b := st.get(t, im["url"].(string)); status != 200 || !bytes.HasPrefix(b, []byte{0xFF, 0xD8}) {
				t.Errorf("GET %s: %d", im["url"], status)
			}
		}
		frames := until(t, bSock, "the message with images", newMessage(conv, "the quad"))
		live := obj(frames[len(frames)-1].Data["message"])
		if got := messageImages(live); len(got) != 2 || got[0]["url"] != ims[0]["url"] || got[1]["url"] != ims[1]["url"] {
			t.Fatalf("message:new images %v, want %v", got, ims)
		}
		status, env = st.call(t, "GET", path, bikramTok, nil)
		msgs, _ := data(env)["messages"].([]any)
		if status != 200 || len(msgs) != 1 || len(messageImages(obj(msgs[0]))) != 2 {
			t.Fatalf("history: %d %v", status, env)
		}
	})

	t.Run("images only", func(t *testing.T) {
		status, env := send(t, map[string]string{"clientId": "img-2"}, [][]byte{small}, nil)
		if status != 201 || data(env)["body"] != "" || len(messageImages(data(env))) != 1 {
			t.Fatalf("send: %d %v", status, env)
		}
	})

	// A reply's quote of a message of images only says what it is, as the
	// list and a push do ('' would read as unsent).
	t.Run("a reply quotes images only as Photo", func(t *testing.T) {
		status, env := send(t, map[string]string{"clientId": "img-3"}, [][]byte{small, small}, nil)
		if status != 201 {
			t.Fatalf("send: %d %v", status, env)
		}
		two := data(env)["seq"]
		for _, tc := range []struct {
			name  string
			seq   any
			quote string
		}{{"one image", float64(2), "Photo"}, {"two images", two, "2 photos"}, {"text and images", first["seq"], "the quad"}} {
			t.Run(tc.name, func(t *testing.T) {
				status, env := st.call(t, "POST", path, bikramTok, map[string]any{"clientId": uuid.NewString(), "body": "nice",
					"replyToSeq": tc.seq})
				if status != 201 {
					t.Fatalf("reply: %d %v", status, env)
				}
				if r := obj(data(env)["replyTo"]); r["snippet"] != tc.quote || r["seq"] != tc.seq {
					t.Fatalf("replyTo %v, want the snippet %q", r, tc.quote)
				}
			})
		}
	})

	t.Run("a retried client id stores no image twice", func(t *testing.T) {
		files, rows := len(st.storedFiles(t)), imageRows(t)
		status, env := send(t, map[string]string{"clientId": "img-1", "body": "the quad"}, [][]byte{wide, small}, nil)
		if status != 200 || data(env)["seq"] != first["seq"] || messageImages(data(env))[0]["url"] != messageImages(first)[0]["url"] {
			t.Fatalf("retry: %d %v, want the original", status, env)
		}
		if f, r := len(st.storedFiles(t)), imageRows(t); f != files || r != rows {
			t.Fatalf("after the retry %d files and %d rows, want %d and %d", f, r, files, rows)
		}
	})

	refusals := []struct {
		name   string
		fields map[string]string
		files  [][]byte
		alts   []string
		status int
		field  string
	}{
		{"neither text nor images", map[string]string{"clientId": uuid.NewString(), "body": "  "}, nil, nil, 400, "body"},
		{"five images", map[string]string{"clientId": uuid.NewString()}, [][]byte{small, small, small, small, small}, nil, 400, "images"},
		{"a file that is not an image, after a good one", map[string]string{"clientId": uuid.NewString(), "body": "x"},
			[][]byte{small, []byte("not an image at all")}, nil, 0, ""},
		{"more descriptions than images", map[string]string{"clientId": uuid.NewString()}, [][]byte{small}, []string{"a", "b"}, 400, "imageAlts"},
		{"a reply that is not a number", map[string]string{"clientId": uuid.NewString(), "body": "x", "replyToSeq": "two"},
			[][]byte{small}, nil, 400, "replyToSeq"},
		{"no client id", map[string]string{"body": "x"}, [][]byte{small}, nil, 400, "clientId"},
	}
	for _, tc := range refusals {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			files, rows, msgs := len(st.storedFiles(t)), imageRows(t), st.rows(t, conv)
			status, env := send(t, tc.fields, tc.files, tc.alts)
			if status < 400 || status >= 500 || (tc.status != 0 && status != tc.status) {
				t.Fatalf("%d %v, want a refusal %d", status, env, tc.status)
			}
			if tc.field != "" && !bytes.Contains([]byte(fmt.Sprint(env["errors"])), []byte(tc.field)) {
				t.Fatalf("errors %v do not name %s", env, tc.field)
			}
			if f, r, m := len(st.storedFiles(t)), imageRows(t), st.rows(t, conv); f != files || r != rows || m != msgs {
				t.Fatalf("left %d files, %d image rows, %d messages; want %d, %d, %d", f, r, m, files, rows, msgs)
			}
		})
	}

	t.Run("unsend deletes its images' rows and files", func(t *testing.T) {
		files, rows := len(st.storedFiles(t)), imageRows(t)
		urls := []string{}
		for _, im := range messageImages(first) {
			urls = append(urls, im["url"].(string))
			for _, v := range im["variants"].([]any) {
				urls = append(urls, obj(v)["url"].(string))
			}
		}
		status, env := st.call(t, "DELETE", fmt.Sprintf("%s/%v", path, first["seq"]), ashaTok, nil)
		if status != 200 || data(env)["unsent"] != true || len(messageImages(data(env))) != 0 {
			t.Fatalf("unsend: %d %v", status, env)
		}
		if r := imageRows(t); r != rows-2 {
			t.Fatalf("%d image rows, want %d", r, rows-2)
		}
		if f := len(st.storedFiles(t)); f != files-len(urls) {
			t.Fatalf("%d files, want %d (the %d files of the two images gone)", f, files-len(urls), len(urls))
		}
		for _, u := range urls {
			if status, _ := st.get(t, u); status != 404 {
				t.Errorf("GET %s after unsend: %d", u, status)
			}
		}
	})
}

// TestMessageSendAnswerIsTheStoredMessage: a send's answer is built from
// what the send stored, without reading it back; it must be exactly the
// message as every read shows it (the history page, the push), for text,
// images and a reply (which is read back for its quote).
func TestMessageSendAnswerIsTheStoredMessage(t *testing.T) {
	st := newMessagesStack(t)
	ctx := context.Background()
	asha, ashaTok := st.user(t, "Answer Asha")
	bikram, bikramTok := st.user(t, "Answer Bikram")
	if _, err := persistence.AddFriendship(ctx, st.db, asha.ID, bikram.ID); err != nil {
		t.Fatal(err)
	}
	conv := st.conversation(t, ashaTok, map[string]any{"kind": "direct", "userId": bikram.ID.String()}, 201)["id"].(string)
	bSock := st.connect(t, bikramTok)
	path := "/api/conversations/" + conv + "/messages"
	tests := []struct {
		name   string
		fields map[string]string
		files  [][]byte
		alts   []string
	}{
		{"text", map[string]string{"clientId": "ans-1", "body": "hello **there** @nobody #tag https://example.edu"}, nil, nil},
		{"text and images", map[string]string{"clientId": "ans-2", "body": "the quad"},
			[][]byte{photo(t, 1600, 1200), photo(t, 200, 100)}, []string{"A wide view"}},
		{"images only", map[string]string{"clientId": "ans-3"}, [][]byte{photo(t, 300, 200)}, nil},
		{"a reply", map[string]string{"clientId": "ans-4", "body": "yes", "replyToSeq": "1"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, ct := messageMultipart(t, tt.fields, tt.files, tt.alts)
			status, env := st.request(t, "POST", path, ashaTok, body, ct)
			if status != 201 {
				t.Fatalf("send: %d %v", status, env)
			}
			answer := data(env)
			seq := answer["seq"].(float64)
			status, env = st.call(t, "GET", fmt.Sprintf("%s?afterSeq=%d", path, int(seq)-1), ashaTok, nil)
			msgs, _ := data(env)["messages"].([]any)
			if status != 200 || len(msgs) == 0 {
				t.Fatalf("history: %d %v", status, env)
			}
			if stored := obj(msgs[0]); !reflect.DeepEqual(answer, stored) {
				t.Fatalf("the answer\n%v\nis not the stored message\n%v", answer, stored)
			}
			frames := until(t, bSock, "the push", func(f wstest.Frame) bool {
				m, _ := f.Data["message"].(map[string]any)
				return f.Event == "message:new" && m["seq"] == seq
			})
			if pushed := obj(frames[len(frames)-1].Data["message"]); !reflect.DeepEqual(answer, pushed) {
				t.Fatalf("the answer\n%v\nis not the pushed message\n%v", answer, pushed)
			}
		})
	}
}
