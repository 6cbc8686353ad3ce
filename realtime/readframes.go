package realtime

import (
	"encoding/binary"
	"errors"
	"unicode/utf8"

	"github.com/fasthttp/websocket"
)

// inFrame is what the peer sent, as the session handles it.
type inFrame struct {
	kind outKind // outText: a whole message (its first MaxFrame+1 bytes); outPing, outPong, outClose
	data []byte
	code int // of a close
}

// errProtocol and errTooBig end a socket whose peer broke RFC 6455 or sent
// a message over readLimit; closeCode says with which code.
var (
	errProtocol = errors.New("realtime: websocket protocol error")
	errTooBig   = errors.New("realtime: websocket message too big")
)

func closeCode(err error) int {
	if errors.Is(err, errTooBig) {
		return websocket.CloseMessageTooBig
	}
	return websocket.CloseProtocolError
}

// frameParser turns the bytes a client sent into frames (RFC 6455 §5): it
// checks the masking, the opcodes and the control frames' rules, joins
// fragmented messages and keeps of a message only its first MaxFrame+1
// bytes (enough for the session to refuse it) while counting all of it
// against readLimit. It holds bytes only while a frame or message is
// incomplete, so an idle socket holds none. Owned by its session.
type frameParser struct {
	pending []byte // an incomplete frame's bytes
	msg     []byte // the message being assembled (capped at MaxFrame+1)
	msgLen  int    // its whole length so far
	inMsg   bool
}

// feed parses b (after what was pending) and calls emit for every complete
// frame; an error means the socket must be closed with closeCode(err).
func (p *frameParser) feed(b []byte, emit func(inFrame)) error {
	fromPending := len(p.pending) > 0
	if fromPending {
		p.pending = append(p.pending, b...)
		b = p.pending
	}
	whole := len(b)
	for {
		n, err := p.frame(b, emit)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		b = b[n:]
	}
	switch {
	case len(b) == 0:
		p.pending = nil
	case !fromPending:
		p.pending = append([]byte(nil), b...)
	case len(b) < whole:
		// Frames were taken from the front: keep the rest, copied once per
		// frame, not once per read (a large frame comes in many reads).
		p.pending = p.pending[:copy(p.pending, b)]
	}
	return nil
}

// frame parses one frame at the start of b: n is 0 if b holds no whole
// frame yet.
func (p *frameParser) frame(b []byte, emit func(inFrame)) (int, error) {
	if len(b) < 2 {
		return 0, nil
	}
	fin, rsv, op := b[0]&0x80 != 0, b[0]&0x70, int(b[0]&0x0f)
	masked, n7 := b[1]&0x80 != 0, int64(b[1]&0x7f)
	if rsv != 0 || !masked {
		return 0, errProtocol
	}
	head := 2
	length := n7
	switch n7 {
	case 126:
		if len(b) < 4 {
			return 0, nil
		}
		length, head = int64(binary.BigEndian.Uint16(b[2:])), 4
	case 127:
		if len(b) < 10 {
			return 0, nil
		}
		length, head = int64(binary.BigEndian.Uint64(b[2:])), 10
		if length < 0 {
			return 0, errProtocol
		}
	}
	control := op >= websocket.CloseMessage
	if control && (!fin || length > 125) {
		return 0, errProtocol
	}
	if int64(p.msgLen)+length > readLimit {
		return 0, errTooBig
	}
	if int64(len(b)) < int64(head)+4+length {
		return 0, nil
	}
	key := b[head : head+4]
	payload := b[head+4 : int64(head)+4+length]
	for i := range payload {
		payload[i] ^= key[i&3]
	}
	size := head + 4 + int(length)
	switch op {
	case websocket.PingMessage:
		emit(inFrame{kind: outPing, data: append([]byte(nil), payload...)})
	case websocket.PongMessage:
		emit(inFrame{kind: outPong})
	case websocket.CloseMessage:
		code := websocket.CloseNoStatusReceived
		switch {
		case len(payload) == 1:
			return 0, errProtocol
		case len(payload) >= 2:
			code = int(binary.BigEndian.Uint16(payload))
			if !utf8.Valid(payload[2:]) {
				return 0, errProtocol
			}
		}
		emit(inFrame{kind: outClose, code: code})
	case websocket.TextMessage, websocket.BinaryMessage, 0:
		if (op == 0) != p.inMsg {
			return 0, errProtocol // a continuation without a start, or a start within a message
		}
		p.inMsg = true
		p.msgLen += len(payload)
		if room := MaxFrame + 1 - len(p.msg); room > 0 {
			p.msg = append(p.msg, payload[:min(room, len(payload))]...)
		}
		if fin {
			emit(inFrame{kind: outText, data: p.msg})
			p.msg, p.msgLen, p.inMsg = nil, 0, false
		}
	default:
		return 0, errProtocol
	}
	return size, nil
}
