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
	b = append(b, 0x80|byte(opcode))
	switch n := len(payload); {
	case n <= 125:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
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

func putFrameBuf(bp *[]byte) {
	if cap(*bp) <= maxPooledFrameBuf {
		*bp = (*bp)[:0]
		frameBufs.Put(bp)
	}
}
