package realtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/fasthttp/websocket"
)

// maskedFrame encodes one frame as a client sends it: masked.
func maskedFrame(fin bool, op int, payload []byte) []byte {
	b0 := byte(op)
	if fin {
		b0 |= 0x80
	}
	b := []byte{b0}
	switch n := len(payload); {
	case n <= 125:
		b = append(b, 0x80|byte(n))
	case n <= 0xffff:
		b = append(b, 0x80|126, byte(n>>8), byte(n))
	default:
		b = append(b, 0x80|127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	key := []byte{1, 2, 3, 4}
	b = append(b, key...)
	for i, c := range payload {
		b = append(b, c^key[i&3])
	}
	return b
}

func TestFrameParser(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 70_000)
	closePayload := binary.BigEndian.AppendUint16(nil, 1000)
	tests := []struct {
		name  string
		input []byte
		want  []inFrame
		err   error
	}{
		{"text", maskedFrame(true, websocket.TextMessage, []byte(`{"event":"test"}`)),
			[]inFrame{{kind: outText, data: []byte(`{"event":"test"}`)}}, nil},
		{"two frames in one read", append(maskedFrame(true, websocket.TextMessage, []byte("a")), maskedFrame(true, websocket.PingMessage, []byte("p"))...),
			[]inFrame{{kind: outText, data: []byte("a")}, {kind: outPing, data: []byte("p")}}, nil},
		{"fragmented, a pong between", bytes.Join([][]byte{
			maskedFrame(false, websocket.TextMessage, []byte("ab")),
			maskedFrame(true, websocket.PongMessage, nil),
			maskedFrame(true, 0, []byte("cd")),
		}, nil), []inFrame{{kind: outPong}, {kind: outText, data: []byte("abcd")}}, nil},
		{"a large message is cut after MaxFrame+1 bytes", maskedFrame(true, websocket.TextMessage, big),
			[]inFrame{{kind: outText, data: big[:MaxFrame+1]}}, nil},
		{"close with a code", maskedFrame(true, websocket.CloseMessage, closePayload),
			[]inFrame{{kind: outClose, code: 1000}}, nil},
		{"close without a code", maskedFrame(true, websocket.CloseMessage, nil),
			[]inFrame{{kind: outClose, code: websocket.CloseNoStatusReceived}}, nil},
		{"unmasked", []byte{0x81, 0x01, 'a'}, nil, errProtocol},
		{"reserved bits", append([]byte{0xc1}, maskedFrame(true, 1, []byte("a"))[1:]...), nil, errProtocol},
		{"unknown opcode", maskedFrame(true, 3, []byte("a")), nil, errProtocol},
		{"fragmented ping", maskedFrame(false, websocket.PingMessage, nil), nil, errProtocol},
		{"long ping", maskedFrame(true, websocket.PingMessage, bytes.Repeat([]byte("p"), 126)), nil, errProtocol},
		{"continuation without a start", maskedFrame(true, 0, []byte("a")), nil, errProtocol},
		{"over the read limit", maskedFrame(true, websocket.BinaryMessage, make([]byte, readLimit+1))[:20], nil, errTooBig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Byte by byte and all at once: the same frames.
			for _, step := range []int{1, len(tt.input)} {
				var p frameParser
				var got []inFrame
				var err error
				in := append([]byte(nil), tt.input...)
				for i := 0; i < len(in) && err == nil; i += step {
					err = p.feed(in[i:min(i+step, len(in))], func(f inFrame) { got = append(got, f) })
				}
				if !errors.Is(err, tt.err) {
					t.Fatalf("step %d: error %v, want %v", step, err, tt.err)
				}
				if tt.err != nil {
					continue
				}
				if len(got) != len(tt.want) {
					t.Fatalf("step %d: %d frames, want %d", step, len(got), len(tt.want))
				}
				for i, f := range got {
					w := tt.want[i]
					if f.kind != w.kind || f.code != w.code || !bytes.Equal(f.data, w.data) {
						t.Fatalf("step %d, frame %d: %v %d %d bytes, want %v %d %d bytes", step, i, f.kind, f.code, len(f.data), w.kind, w.code, len(w.data))
					}
				}
				if p.pending != nil || p.msg != nil {
					t.Fatalf("step %d: parser holds %d + %d bytes after whole frames", step, len(p.pending), len(p.msg))
				}
			}
		})
	}
}

// FuzzFrameParser feeds arbitrary bytes, in arbitrary pieces, to the client
// frame parser: it never panics, never hands on a message over MaxFrame+1
// bytes, and either fails or holds at most one incomplete frame.
func FuzzFrameParser(f *testing.F) {
	f.Add(maskedFrame(true, websocket.TextMessage, []byte(`{"event":"test"}`)), uint8(3))
	f.Add(maskedFrame(false, websocket.TextMessage, []byte("ab")), uint8(1))
	f.Add([]byte{0x81, 0xff, 0, 0, 0, 0, 0, 0, 0, 9}, uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, step uint8) {
		var p frameParser
		s := max(int(step), 1)
		for i := 0; i < len(in); i += s {
			err := p.feed(in[i:min(i+s, len(in))], func(f inFrame) {
				if len(f.data) > MaxFrame+1 {
					t.Fatalf("message of %d bytes handed on", len(f.data))
				}
			})
			if err != nil {
				return
			}
		}
	})
}
