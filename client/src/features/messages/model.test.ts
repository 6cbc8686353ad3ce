// The thread's pure rules: order by seq, one message per seq, which copy of a
// message wins, the rows a thread shows, "Seen", typing and snippets.
import { describe, expect, it } from 'vitest';
import { indexOfSeq, mergeMessages, newerCopy, normalizeConversation, normalizeMessage, normalizeMessages, type Message } from './model';
import { seenText, snippetOf, threadRows, typingText } from './view';

const asha = { id: 'u1', name: 'Asha Rao', avatar: null };
const ravi = { id: 'u2', name: 'Ravi Kumar', avatar: { url: '/a.jpg', thumbnailUrl: '/a-t.jpg' } };

function msg(seq: number, over: Partial<Record<string, unknown>> = {}): Message {
  return normalizeMessage({
    id: `m${seq}`,
    conversationId: 'c1',
    seq,
    sender: seq % 2 ? ravi : asha,
    body: `hello ${seq}`,
    replyTo: null,
    reactions: [],
    editedAt: null,
    unsent: false,
    clientId: `k${seq}`,
    createdAt: `2026-11-27T10:${String(seq % 60).padStart(2, '0')}:00Z`,
    ...over,
  })!;
}

const seqs = (ms: readonly Message[]) => ms.map((m) => m.seq);

describe('reading the server', () => {
  it('reads a message; a thumbnail is the avatar a row shows; unsent has no body', () => {
    const m = msg(3);
    expect(m.sender).toEqual({ id: 'u2', name: 'Ravi Kumar', avatarUrl: '/a-t.jpg' });
    expect(msg(4, { unsent: true, body: 'leaked' }).body).toBe('');
  });

  it('drops what has no id or no seq, and never throws on junk', () => {
    expect(normalizeMessage({ id: 'x' })).toBeNull();
    expect(normalizeMessage({ seq: 2 })).toBeNull();
    expect(normalizeMessage('x')).toBeNull();
    expect(normalizeMessages([msg(2), null, { id: 'y', seq: 0 }, msg(1)].map((m) => m))).toHaveLength(2);
    expect(normalizeConversation({})).toBeNull();
  });

  it('reads a conversation with its read-only reason', () => {
    const c = normalizeConversation({ id: 'c1', kind: 'direct', title: 'Ravi', members: [ravi, asha], readOnly: true, readOnlyReason: 'blocked', unreadCount: 2 });
    expect(c).toMatchObject({ id: 'c1', kind: 'direct', readOnly: true, readOnlyReason: 'blocked', unreadCount: 2, lastMessage: null });
    expect(normalizeConversation({ id: 'c1', readOnlyReason: 'weird' })?.readOnlyReason).toBeUndefined();
  });
});

describe('merging by seq', () => {
  it('appends in order', () => {
    expect(seqs(mergeMessages([msg(1), msg(2)], [msg(3), msg(4)]))).toEqual([1, 2, 3, 4]);
  });

  it('shows out-of-order arrivals in seq order', () => {
    let t: Message[] = [];
    for (const s of [3, 1, 5, 2, 4]) t = mergeMessages(t, [msg(s)], true);
    expect(seqs(t)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never holds a seq twice: a push and a page with the same messages', () => {
    const pushed = mergeMessages([msg(1), msg(2)], [msg(3)], true);
    const paged = mergeMessages(pushed, [msg(2), msg(3), msg(4)]);
    expect(seqs(paged)).toEqual([1, 2, 3, 4]);
    expect(seqs(mergeMessages(paged, [msg(4)], true))).toEqual([1, 2, 3, 4]);
  });

  it('keeps the newer copy of a message: unsent beats sent, a later edit beats an earlier one', () => {
    const unsent = msg(2, { unsent: true });
    expect(newerCopy(unsent, msg(2)).unsent).toBe(true);
    const edited = msg(2, { body: 'v2', editedAt: '2026-11-27T11:00:00Z' });
    expect(newerCopy(edited, msg(2, { body: 'v1', editedAt: '2026-11-27T10:30:00Z' })).body).toBe('v2');
    expect(newerCopy(msg(2), edited).body).toBe('v2');
  });

  it('keeps my reaction through a push (pushes say mine: false)', () => {
    const had = msg(2, { reactions: [{ emoji: '❤️', count: 1, mine: true }] });
    const pushed = msg(2, { reactions: [{ emoji: '❤️', count: 2, mine: false }] });
    expect(newerCopy(had, pushed, true).reactions).toEqual([{ emoji: '❤️', count: 2, mine: true }]);
    expect(newerCopy(had, pushed, false).reactions[0]?.mine).toBe(false); // a REST answer says it itself
  });

  it('finds a seq by binary search', () => {
    const t = [1, 2, 4, 7, 9].map((s) => msg(s));
    expect(indexOfSeq(t, 7)).toBe(3);
    expect(indexOfSeq(t, 3)).toBe(-1);
  });
});

describe('what the screens show', () => {
  it('rows: a day separator, runs of one sender, then the sends still pending', () => {
    const a = msg(2, { sender: asha, createdAt: '2026-11-26T10:00:00Z' });
    const b = msg(4, { sender: asha, createdAt: '2026-11-27T10:00:00Z' });
    const c = msg(6, { sender: asha, createdAt: '2026-11-27T10:01:00Z' });
    const d = msg(7, { sender: ravi, createdAt: '2026-11-27T10:02:00Z' });
    const rows = threadRows([a, b, c, d], [{ clientId: 'p1', conversationId: 'c1', body: 'x', images: [], replyTo: null, status: 'pending', createdAt: '' }], 'u1', Date.parse('2026-11-27T12:00:00Z'));
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'day', 'message', 'message', 'message', 'pending']);
    expect(rows[2]).toMatchObject({ kind: 'day', label: 'Today' });
    expect(rows[0]).toMatchObject({ kind: 'day', label: 'Yesterday' });
    const runs = rows.filter((r) => r.kind === 'message').map((r) => (r.kind === 'message' ? [r.mine, r.firstOfRun, r.lastOfRun] : []));
    expect(runs).toEqual([
      [true, true, true],
      [true, true, false],
      [true, false, true],
      [false, true, true],
    ]);
  });

  it('"Seen": the other person in a direct conversation, how many in a group', () => {
    const members = [
      { id: 'u1', name: 'Asha', avatarUrl: '', role: 'member' as const },
      { id: 'u2', name: 'Ravi', avatarUrl: '', role: 'member' as const },
      { id: 'u3', name: 'Chitra', avatarUrl: '', role: 'member' as const },
    ];
    expect(seenText({ kind: 'direct', members: members.slice(0, 2) }, 5, { u2: 4 }, 'u1')).toBe('');
    expect(seenText({ kind: 'direct', members: members.slice(0, 2) }, 5, { u2: 5 }, 'u1')).toBe('Seen');
    expect(seenText({ kind: 'group', members }, 5, { u2: 6 }, 'u1')).toBe('Seen by 1');
    expect(seenText({ kind: 'group', members }, 5, { u2: 6, u3: 5 }, 'u1')).toBe('Seen by everyone');
    expect(seenText({ kind: 'group', members }, 5, { u1: 9 }, 'u1')).toBe(''); // my own pointer is not "seen"
  });

  it('snippets: mine, a group sender, unsent, none', () => {
    expect(snippetOf(msg(2, { sender: asha, body: 'hi\nthere' }), 'u1', 'direct')).toBe('You: hi there');
    expect(snippetOf(msg(3), 'u1', 'group')).toBe('Ravi: hello 3');
    expect(snippetOf(msg(3, { unsent: true }), 'u1', 'group')).toBe('Message unsent');
    expect(snippetOf(null, 'u1', 'group')).toBe('No messages yet');
  });

  it('typing lines', () => {
    expect(typingText([], false)).toBe('');
    expect(typingText(['Ravi'], true)).toBe('typing…');
    expect(typingText(['Ravi'], false)).toBe('Ravi is typing…');
    expect(typingText(['Ravi', 'Asha'], false)).toBe('Ravi and Asha are typing…');
    expect(typingText(['a', 'b', 'c'], false)).toBe('3 people are typing…');
  });
});
