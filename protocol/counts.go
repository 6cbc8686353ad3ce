package protocol

import "strconv"

// CountSlots is how many phases the node-wide count tick is cut into. Each
// socket gets its post:counts frame at its slot's phase: every socket still
// gets at most one frame per count interval, and a change waits for a
// socket's next phase just as long as it waited for the whole tick before
// (uniformly up to one interval), but the writes are spread evenly instead
// of all in one burst. At a campus event the burst was 5,000 frames every
// 250 ms, ~90 ms of write syscalls in a row, and every like and page request
// that came meanwhile queued behind it. Ten slots (25 ms apart) rather than
// five: a slot's burst is half as long, and the last socket of a slot gets
// its frame that much sooner (paced push p99 268-281 ms against 306-309 in
// alternating runs). The post grains' count batcher ticks once per slot.
const CountSlots = 10

// The fixed parts of a post:counts frame; the entries of a socket's watched
// posts go between them, separated by commas (CountsFrame).
var (
	countsHead = []byte(`{"event":"` + EventPostCounts + `","data":{"posts":[`)
	countsTail = []byte(`]}}`)
)

// AppendCountEntry appends one post's entry of a post:counts frame:
// {"postId":"…","likesCount":N,"commentsCount":N,"repostsCount":N,
// "countsVersion":N}; a negative reposts (not known: counts from a node
// that predates reposts) leaves repostsCount out. A post id is a UUID (the
// caller parsed it), so it needs no JSON escaping.
func AppendCountEntry(b []byte, postID string, likes, comments, reposts, version int64) []byte {
	b = append(b, `{"postId":"`...)
	b = append(b, postID...)
	b = append(b, `","likesCount":`...)
	b = strconv.AppendInt(b, likes, 10)
	b = append(b, `,"commentsCount":`...)
	b = strconv.AppendInt(b, comments, 10)
	if reposts >= 0 {
		b = append(b, `,"repostsCount":`...)
		b = strconv.AppendInt(b, reposts, 10)
	}
	b = append(b, `,"countsVersion":`...)
	b = strconv.AppendInt(b, version, 10)
	return append(b, '}')
}

// CountsFrame is the post:counts frame of n entries made by
// AppendCountEntry: entry(i) answers the i-th. It allocates once.
func CountsFrame(n int, entry func(i int) []byte) []byte {
	return AppendCountsFrame(make([]byte, 0, CountsFrameSize(n, entry)), n, entry)
}

// CountsFrameSize is the length of CountsFrame(n, entry), for a caller
// that puts the frame after bytes of its own (a websocket header) in one
// allocation.
func CountsFrameSize(n int, entry func(i int) []byte) int {
	size := len(countsHead) + len(countsTail) + max(n-1, 0)
	for i := range n {
		size += len(entry(i))
	}
	return size
}

// AppendCountsFrame appends CountsFrame(n, entry) to b.
func AppendCountsFrame(b []byte, n int, entry func(i int) []byte) []byte {
	b = append(b, countsHead...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, entry(i)...)
	}
	return append(b, countsTail...)
}
