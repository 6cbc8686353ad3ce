package realtime

import (
	"encoding/binary"
	"sync"

	"github.com/fasthttp/websocket"
)

type outKind uint8

const (
	outText outKind = iota
	outPing
	outPong
	outClose
)

// outFrame is one frame waiting in a session's send queue.
type outFrame struct {
	kind outKind
	data []byte
	code int
	// wire, when set, is the text frame data already encoded (header and
	// payload, appendFrame's bytes), shared read-only with other sessions:
	// a session whose queue holds only it writes it as it is.
	wire []byte
}

// wireText is the websocket encoding of a text frame whose payload
// fill appends (size bytes of it): the header and the payload in one
// allocation of the exact size. The hub builds each post:counts frame so,
// once for every session it goes to, and a session writes it without
// copying it into a buffer of its own. It answers the encoding and the
// payload within it.
func wireText(size int, fill func([]byte) []byte) (wire, payload []byte) {
	h := frameHeaderLen(size)
	b := make([]byte, 0, h+size)
	b = appendFrameHeader(b, websocket.TextMessage, size)
	b = fill(b)
	return b, b[h:]
}

// encodeBatch appends a batch of frames as the bytes of one write (a
// server's frames are unmasked: a header and the payload), and reports
// whether it ends with a close frame (nothing follows one). A socket that
// gets a burst then makes one system call rather than one per frame.
func encodeBatch(b []byte, batch []outFrame) ([]byte, bool) {
	for _, f := range batch {
		switch f.kind {
		case outPing:
			b = appendFrame(b, websocket.PingMessage, nil)
		case outPong:
			b = appendFrame(b, websocket.PongMessage, f.data)
		case outClose:
			return appendFrame(b, websocket.CloseMessage, websocket.FormatCloseMessage(f.code, string(f.data))), true
		default:
			if f.wire != nil {
				b = append(b, f.wire...)
				continue
			}
			b = appendFrame(b, websocket.TextMessage, f.data)
		}
	}
	return b, false
}

// batchSize is an upper bound of encodeBatch's output.
func batchSize(batch []outFrame) int {
	n := 0
	for _, f := range batch {
		n += maxFrameHeader + 2 + len(f.data)
	}
	return n
}

// maxFrameHeader is the longest header of an unmasked websocket frame.
const maxFrameHeader = 10

// appendFrame appends one final, unmasked websocket frame of the given type
// (RFC 6455 §5.2).
func appendFrame(b []byte, opcode int, payload []byte) []byte {
	return append(appendFrameHeader(b, opcode, len(payload)), payload...)
}

// appendFrameHeader appends the header of a final, unmasked frame of the
// given type whose payload is n bytes.
func appendFrameHeader(b []byte, opcode int, n int) []byte {
	b = append(b, 0x80|byte(opcode))
	switch {
	case n <= 125:
		return append(b, byte(n))
	case n <= 0xffff:
		return append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		return binary.BigEndian.AppendUint64(b, uint64(n))
	}
}

// wirePayload is the payload of one frame encoded by appendFrame.
func wirePayload(wire []byte) []byte {
	switch wire[1] & 0x7f {
	case 126:
		return wire[4:]
	case 127:
		return wire[maxFrameHeader:]
	}
	return wire[2:]
}

// frameHeaderLen is the length of appendFrameHeader's header for a payload
// of n bytes.
func frameHeaderLen(n int) int {
	switch {
	case n <= 125:
		return 2
	case n <= 0xffff:
		return 4
	default:
		return maxFrameHeader
	}
}

// Write buffers are pooled: an idle socket holds none.
var frameBufs sync.Pool

// maxPooledFrameBuf keeps a rare huge batch from being held in the pool.
const maxPooledFrameBuf = 64 << 10

func getFrameBuf(size int) *[]byte {
	if bp, ok := frameBufs.Get().(*[]byte); ok {
		if cap(*bp) >= size {
			return bp
		}
		frameBufs.Put(bp)
	}
	b := make([]byte, 0, max(size, 4<<10))
	return &b
}

// putFrameBuf returns a buffer to the pool; nil (no buffer) is fine.
func putFrameBuf(bp *[]byte) {
	if bp != nil && cap(*bp) <= maxPooledFrameBuf {
		*bp = (*bp)[:0]
		frameBufs.Put(bp)
	}
}
