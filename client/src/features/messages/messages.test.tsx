// Issue 29, the web client of messages: the list (order, unread, typing),
// a thread (merged by seq — a push and a page never double, out-of-order
// arrivals in order, the gap after a reconnect filled), optimistic sends
// (pending, failed, Retry with the same clientId), typing, the read-only
// banner, drafts, unsend, a 10,000-message history, and the profile's
// Message button. Fetch is faked at the network edge; the store is real.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAuthStorage } from '../../lib/storage';
import { routeAtom } from '../../lib/navigation';
import { installFakeFetch, json, type Route } from '../../test/fakeFetch';
import { installFakeXhr } from '../../test/fakeXhr';
import { Toaster } from '../../ui/Toaster';
import { setSocketSenderAtom } from '../realtime/realtimeAtoms';
import { MessageButton } from './MessageButton';
import { MessagesPage } from './MessagesPage';
import { sendTypingAtom } from './messageActions';
import {
  applyConversationFrameAtom,
  applyMessageFrameAtom,
  applyReadFrameAtom,
  applyTypingFrameAtom,
  conversationListAtom,
  messagesReconnectedAtom,
  threadAtom,
  typingAtom,
} from './messagesAtoms';
import { unreadMessagesAtom } from './unread';

const ok = (data: unknown, status = 200) => json({ status: 'success', data }, status);
const fail = (status: number, message: string) => json({ status: 'error', message }, status);
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const asha = { id: 'u1', name: 'Asha Rao', avatar: null };
const ravi = { id: 'u2', name: 'Ravi Kumar', avatar: null };
const chitra = { id: 'u3', name: 'Chitra Iyer', avatar: null };

function message(seq: number, over: Record<string, unknown> = {}) {
  return {
    id: `m${seq}`,
    conversationId: 'c1',
    seq,
    sender: ravi,
    body: `Message ${seq}`,
    replyTo: null,
    reactions: [],
    editedAt: null,
    unsent: false,
    clientId: `k${seq}`,
    createdAt: new Date(Date.UTC(2026, 10, 27, 10, 0, seq)).toISOString(),
    ...over,
  };
}

function conversation(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    kind: 'direct',
    title: 'Ravi Kumar',
    members: [
      { ...asha, role: 'member' },
      { ...ravi, role: 'member' },
    ],
    lastSeq: 0,
    lastMessage: null,
    readSeq: 0,
    unreadCount: 0,
    muted: false,
    readOnly: false,
    role: 'member',
    updatedAt: '2026-11-27T09:00:00Z',
    createdAt: '2026-11-01T09:00:00Z',
    ...over,
  };
}

function signIn() {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: { ...asha, avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/20/1' } }));
}

function renderIn(ui: React.ReactNode, store = createStore()) {
  const view = render(
    <Provider store={store}>
      {ui}
      <Toaster />
    </Provider>,
  );
  return { store, ...view };
}

/**
 * A small server for one conversation: its messages, the pages the contract
 * describes (newest page, beforeSeq, afterSeq), sends joined by clientId, reads.
 */
function fakeServer(opts: { conv?: Record<string, unknown>; messages?: ReturnType<typeof message>[]; send?: Route; list?: Record<string, unknown>[] } = {}) {
  const server = {
    conv: conversation('c1', opts.conv),
    messages: opts.messages ?? [message(1), message(2), message(3)],
    pages: [] as string[],
  };
  const byClient = new Map<string, ReturnType<typeof message>>();
  const fetchMock = installFakeFetch({
    '/api/conversations': () => ok({ conversations: opts.list ?? [server.conv], nextCursor: null, unreadTotal: 0 }),
    '/api/conversations/c1': () => ok(server.conv),
    '/api/conversations/c1/read': (init) => ok({ readSeq: bodyOf(init).seq, unreadCount: 0, unreadTotal: 0 }),
    '/api/conversations/c1/messages': (init, url) => {
      if (init?.method === 'POST') {
        if (opts.send) return opts.send(init, url);
        const b = bodyOf(init);
        const had = byClient.get(String(b.clientId));
        if (had) return ok(had, 200);
        const m = message((server.messages.at(-1)?.seq ?? 0) + 1, { sender: asha, body: b.body, clientId: b.clientId });
        server.messages.push(m);
        byClient.set(String(b.clientId), m);
        return ok(m, 201);
      }
      server.pages.push(url.search);
      const after = url.searchParams.get('afterSeq');
      const before = url.searchParams.get('beforeSeq');
      const limit = Number(url.searchParams.get('limit') ?? 30);
      if (after !== null) {
        const rest = server.messages.filter((m) => m.seq > Number(after));
        return ok({ messages: rest.slice(0, limit), hasMore: rest.length > limit });
      }
      const upto = before !== null ? server.messages.filter((m) => m.seq < Number(before)) : server.messages;
      return ok({ messages: upto.slice(-limit), hasMore: upto.length > limit });
    },
  });
  return { server, fetchMock };
}

/** Finds text in the thread's message list (the conversation list repeats the last message). */
async function inThread(text: string): Promise<HTMLElement> {
  return within(await screen.findByRole('log')).findByText(text);
}

/** The seqs of the messages on screen, top to bottom. */
function shownSeqs(container: HTMLElement): number[] {
  return [...container.querySelectorAll<HTMLElement>('[data-seq]')].map((el) => Number(el.dataset.seq));
}

beforeEach(() => {
  localStorage.clear();
  signIn();
  installFakeFetch({}); // no network unless a test says what the server answers
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('conversation list', () => {
  it('is newest first, unread bold with a count, and moves live; the notice is there', async () => {
    fakeServer({
      list: [
        conversation('old', { title: 'Old one', updatedAt: '2026-11-27T09:00:00Z', lastSeq: 4, readSeq: 4, lastMessage: message(4, { conversationId: 'old' }) }),
        conversation('new', { title: 'New one', updatedAt: '2026-11-27T11:00:00Z', lastSeq: 9, readSeq: 7, unreadCount: 2, lastMessage: message(9, { conversationId: 'new', body: 'See you at 5' }) }),
        conversation('mid', { title: 'Mid one', kind: 'group', updatedAt: '2026-11-27T10:00:00Z', lastSeq: 2, readSeq: 2, lastMessage: message(2, { conversationId: 'mid', unsent: true, body: '' }) }),
      ],
    });
    const { store } = renderIn(<MessagesPage />);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const links = () => within(list).getAllByRole('link').map((a) => a.textContent ?? '');
    expect(links().map((t) => t.slice(0, 7))).toEqual(['New one', 'Mid one', 'Old one']);
    const unread = within(list).getByRole('link', { name: /New one/ });
    expect(unread.className).toContain('is-unread');
    expect(unread.textContent).toContain('2 unread');
    expect(unread.textContent).toContain('See you at 5');
    expect(within(list).getByRole('link', { name: /Mid one/ }).textContent).toContain('Message unsent');
    expect(screen.getByText(/not end-to-end encrypted/)).toBeTruthy();

    // A message to the oldest: it goes to the top, unread, and the total counts it.
    store.set(applyMessageFrameAtom, { conversationId: 'old', message: message(5, { conversationId: 'old', body: 'Still on?', createdAt: '2026-11-27T12:00:00Z' }), isNew: true });
    await waitFor(() => expect(links()[0]).toContain('Old one'));
    expect(links()[0]).toContain('Still on?');
    expect(links()[0]).toContain('1 unread');
    expect(store.get(unreadMessagesAtom)).toBe(1);
    // The same push again (another node, a replay) counts once.
    store.set(applyMessageFrameAtom, { conversationId: 'old', message: message(5, { conversationId: 'old', body: 'Still on?', createdAt: '2026-11-27T12:00:00Z' }), isNew: true });
    expect(store.get(unreadMessagesAtom)).toBe(1);
    // My own message from another device is not unread.
    store.set(applyMessageFrameAtom, { conversationId: 'mid', message: message(3, { conversationId: 'mid', sender: asha, createdAt: '2026-11-27T12:30:00Z' }), isNew: true });
    await waitFor(() => expect(links()[0]).toContain('Mid one'));
    expect(links()[0]).toContain('You: Message 3');
    expect(store.get(unreadMessagesAtom)).toBe(1);
    // Read on another device: the count follows.
    store.set(applyReadFrameAtom, { conversationId: 'old', userId: 'u1', seq: 5, unreadTotal: 0 });
    expect(store.get(unreadMessagesAtom)).toBe(0);
    await waitFor(() => expect(links()[1]).not.toContain('unread'));

    // Typing shows in place of the snippet.
    act(() => store.set(applyTypingFrameAtom, { conversationId: 'old', userId: 'u2', name: 'Ravi Kumar' }));
    await waitFor(() => expect(links()[1]).toContain('typing…'));
  });

  it('says so when there is none, with the notice', async () => {
    fakeServer({ list: [] });
    renderIn(<MessagesPage />);
    expect(await screen.findByText('No messages yet')).toBeTruthy();
    expect(screen.getByText(/they are not end-to-end encrypted/)).toBeTruthy();
  });
});

describe('thread: order by seq, never twice', () => {
  it('merges pushes and pages by seq; out of order shows in order; a reconnect fills the gap', async () => {
    const { server } = fakeServer({ conv: { lastSeq: 3, readSeq: 3 } });
    const { store, container } = renderIn(<MessagesPage conversationId="c1" />);
    await inThread('Message 3');
    expect(shownSeqs(container)).toEqual([1, 2, 3]);
    expect(server.pages[0]).not.toContain('afterSeq'); // the newest page first

    // A push, then the same push again, then a page with it: one copy.
    server.messages.push(message(4));
    act(() => {
      store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(4), isNew: true });
      store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(4), isNew: true });
    });
    await inThread('Message 4');
    expect(shownSeqs(container)).toEqual([1, 2, 3, 4]);

    // 6 before 5: 6 skips ahead, so the gap after 4 is read; 5 comes too; in order, once each.
    server.messages.push(message(5), message(6));
    act(() => store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(6), isNew: true }));
    act(() => store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(5), isNew: true }));
    await inThread('Message 6');
    await waitFor(() => expect(shownSeqs(container)).toEqual([1, 2, 3, 4, 5, 6]));
    expect(server.pages).toContain('?limit=100&afterSeq=4');

    // Offline for a while: 7 and 8 were sent, never pushed. The reconnect reads after 6.
    server.messages.push(message(7), message(8));
    act(() => store.set(messagesReconnectedAtom));
    await inThread('Message 8');
    expect(server.pages).toContain('?limit=100&afterSeq=6');
    expect(shownSeqs(container)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(store.get(threadAtom('c1')).messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('windows a 10,000-message history: only the rows near the end are in the page', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => message(i + 1, { createdAt: new Date(Date.UTC(2026, 10, 27, 10, 0, 0) + i * 1000).toISOString() }));
    installFakeFetch({
      '/api/conversations': () => ok({ conversations: [conversation('c1', { lastSeq: 10_000, readSeq: 10_000 })], nextCursor: null, unreadTotal: 0 }),
      '/api/conversations/c1': () => ok(conversation('c1', { lastSeq: 10_000, readSeq: 10_000 })),
      '/api/conversations/c1/messages': (_init, url) => ok({ messages: many.slice(-Number(url.searchParams.get('limit'))), hasMore: true }),
    });
    const { store, container } = renderIn(<MessagesPage conversationId="c1" />);
    await inThread('Message 10000');
    // The store holds the pages read; the DOM only the window.
    act(() => {
      for (let s = 9_970; s >= 1; s -= 500) store.set(applyMessageFrameAtom, { conversationId: 'c1', message: many[s - 1], isNew: false });
    });
    const rendered = shownSeqs(container);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered.at(-1)).toBe(10_000);
  });
});

describe('sending', () => {
  it('shows a send at once as pending, then as sent; Enter sends, Shift+Enter does not', async () => {
    let answer: (r: Response) => void = () => {};
    const { fetchMock } = fakeServer({ send: () => new Promise<Response>((r) => (answer = r)) });
    renderIn(<MessagesPage conversationId="c1" />);
    const field = await screen.findByLabelText('Message Ravi Kumar');
    fireEvent.change(field, { target: { value: 'On my way' } });
    fireEvent.keyDown(field, { key: 'Enter', shiftKey: true });
    expect(screen.queryByText('Sending…')).toBeNull();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('Sending…')).toBeTruthy();
    expect(screen.getByText('On my way')).toBeTruthy();
    expect((field as HTMLTextAreaElement).value).toBe('');
    const post = fetchMock.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'POST' && String(c[0]).endsWith('/messages'));
    const sent = bodyOf(post?.[1] as RequestInit);
    expect(sent).toMatchObject({ body: 'On my way' });
    expect(typeof sent.clientId).toBe('string');
    act(() => answer(ok(message(4, { sender: asha, body: 'On my way', clientId: sent.clientId }), 201)));
    await waitFor(() => expect(screen.queryByText('Sending…')).toBeNull());
    expect(screen.getAllByText('On my way')).toHaveLength(1);
  });

  it('a failed send says why and Retry sends it again with the same clientId; the push of it never doubles', async () => {
    const clientIds: string[] = [];
    let attempt = 0;
    fakeServer({
      send: (init) => {
        const b = bodyOf(init);
        clientIds.push(String(b.clientId));
        attempt++;
        if (attempt === 1) return fail(429, 'You are sending messages too fast. Try again in a minute.');
        return ok(message(4, { sender: asha, body: b.body, clientId: b.clientId }), 201);
      },
    });
    const { store, container } = renderIn(<MessagesPage conversationId="c1" />);
    const field = await screen.findByLabelText('Message Ravi Kumar');
    fireEvent.change(field, { target: { value: 'Lab at 3?' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('You are sending messages too fast. Try again in a minute.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull());
    expect(clientIds).toHaveLength(2);
    expect(clientIds[1]).toBe(clientIds[0]);
    // The server's push of the same message (to my other sockets, and this one).
    act(() => store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(4, { sender: asha, body: 'Lab at 3?', clientId: clientIds[0] }), isNew: true }));
    expect(screen.getAllByText('Lab at 3?')).toHaveLength(1);
    expect(shownSeqs(container)).toEqual([1, 2, 3, 4]);
  });

  it("a 403 says the server's words and the conversation is read again", async () => {
    const { server, fetchMock } = fakeServer({ send: () => fail(403, "You can't send messages in this conversation.") });
    renderIn(<MessagesPage conversationId="c1" />);
    const field = await screen.findByLabelText('Message Ravi Kumar');
    server.conv = conversation('c1', { readOnly: true, readOnlyReason: 'blocked' });
    fireEvent.change(field, { target: { value: 'hello?' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText("You can't send messages in this conversation.")).toBeTruthy();
    expect(await screen.findByText("You can't send messages here: one of you has blocked the other.")).toBeTruthy();
    expect(fetchMock.mock.calls.filter((c) => new URL(String(c[0]), 'http://x').pathname === '/api/conversations/c1').length).toBeGreaterThan(1);
  });
});

describe('by keyboard', () => {
  it('↑/↓ move between messages, Enter opens the actions, Reply goes to the composer and sends with replyToSeq', async () => {
    const sent: Record<string, unknown>[] = [];
    fakeServer({
      send: (init) => {
        sent.push(bodyOf(init));
        return ok(message(4, { sender: asha, body: bodyOf(init).body, clientId: bodyOf(init).clientId, replyTo: { seq: 2, senderName: 'Ravi Kumar', snippet: 'Message 2' } }), 201);
      },
    });
    renderIn(<MessagesPage conversationId="c1" />);
    await inThread('Message 3');
    const log = screen.getByRole('log');
    log.focus();
    fireEvent.keyDown(log, { key: 'ArrowUp' });
    await waitFor(() => expect((document.activeElement as HTMLElement).dataset.seq).toBe('3'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await waitFor(() => expect((document.activeElement as HTMLElement).dataset.seq).toBe('2'));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    const menu = await screen.findByRole('menu', { name: 'Message actions' });
    expect(within(menu).getAllByRole('menuitem').map((b) => b.textContent)).toEqual(['Reply', 'Report']);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Reply'));
    fireEvent.click(document.activeElement!);
    const field = screen.getByLabelText('Message Ravi Kumar');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByText('Replying to Ravi Kumar')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'yes, that one' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ body: 'yes, that one', replyToSeq: 2 });
    expect(screen.queryByText('Replying to Ravi Kumar')).toBeNull();

    // Escape in the list goes back to the composer.
    const row = log.querySelector<HTMLElement>('[data-seq="2"]')!;
    row.focus();
    fireEvent.keyDown(row, { key: 'Escape' });
    expect(document.activeElement).toBe(field);
  });

  it('↑ in an empty composer edits my last message; Escape drops the edit', async () => {
    const edits: unknown[] = [];
    fakeServer({ messages: [message(1), message(2, { sender: asha, body: 'teh plan' })] });
    const prev = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (new URL(String(input), 'http://localhost').pathname === '/api/conversations/c1/messages/2' && init?.method === 'PATCH') {
        edits.push(bodyOf(init));
        return Promise.resolve(ok(message(2, { sender: asha, body: 'the plan', editedAt: '2026-11-27T11:00:00Z' })));
      }
      return prev(input, init);
    });
    renderIn(<MessagesPage conversationId="c1" />);
    await inThread('teh plan');
    const field = screen.getByLabelText('Message Ravi Kumar') as HTMLTextAreaElement;
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    const edit = (await screen.findByLabelText('Edit message')) as HTMLTextAreaElement;
    expect(edit.value).toBe('teh plan');
    fireEvent.change(edit, { target: { value: 'the plan' } });
    fireEvent.keyDown(edit, { key: 'Enter' });
    await inThread('the plan');
    expect(edits).toEqual([{ body: 'the plan' }]);
    expect(screen.getByText('(edited)')).toBeTruthy();
    expect(screen.queryByLabelText('Edit message')).toBeNull();
  });
});

describe('typing', () => {
  it('shows another member typing for 5 s unless renewed', () => {
    vi.useFakeTimers();
    const store = createStore();
    store.set(applyTypingFrameAtom, { conversationId: 'c1', userId: 'u2', name: 'Ravi Kumar' });
    expect(store.get(typingAtom('c1')).map((t) => t.name)).toEqual(['Ravi Kumar']);
    vi.advanceTimersByTime(4000);
    store.set(applyTypingFrameAtom, { conversationId: 'c1', userId: 'u2', name: 'Ravi Kumar' }); // renewed
    vi.advanceTimersByTime(4000);
    expect(store.get(typingAtom('c1'))).toHaveLength(1);
    vi.advanceTimersByTime(1001);
    expect(store.get(typingAtom('c1'))).toHaveLength(0);
    // My own typing (another device) is never shown.
    store.set(applyTypingFrameAtom, { conversationId: 'c1', userId: 'u1', name: 'Asha Rao' });
    expect(store.get(typingAtom('c1'))).toHaveLength(0);
  });

  it("a message from the typist ends their typing line", () => {
    const store = createStore();
    store.set(applyTypingFrameAtom, { conversationId: 'c1', userId: 'u2', name: 'Ravi Kumar' });
    store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(1), isNew: true });
    expect(store.get(typingAtom('c1'))).toHaveLength(0);
  });

  it('sends typing at most once every 2 s per conversation', () => {
    vi.useFakeTimers();
    const store = createStore();
    const frames: unknown[] = [];
    store.set(setSocketSenderAtom, (event, data) => {
      frames.push({ event, data });
      return true;
    });
    for (let i = 0; i < 10; i++) {
      store.set(sendTypingAtom, 'c1');
      vi.advanceTimersByTime(150);
    }
    expect(frames).toEqual([{ event: 'typing', data: { conversationId: 'c1' } }]);
    vi.advanceTimersByTime(1000);
    store.set(sendTypingAtom, 'c1');
    store.set(sendTypingAtom, 'c2');
    expect(frames).toHaveLength(3);
  });

  it('shows the typing line in the thread', async () => {
    fakeServer();
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    await inThread('Message 3');
    act(() => store.set(applyTypingFrameAtom, { conversationId: 'c1', userId: 'u2', name: 'Ravi Kumar' }));
    expect(await screen.findByText('Ravi Kumar is typing…')).toBeTruthy();
  });
});

describe('read-only, drafts, unsend, seen', () => {
  it('shows the read-only banner with its reason instead of the composer', async () => {
    fakeServer({ conv: { readOnly: true, readOnlyReason: 'left', kind: 'group', title: 'Study group' } });
    renderIn(<MessagesPage conversationId="c1" />);
    expect(await screen.findByText("You're no longer a member of this conversation.")).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Message/ })).toBeNull();
  });

  it('keeps a draft per conversation, for this user only, and forgets it at sign-out', async () => {
    installFakeFetch({
      '/api/conversations': () => ok({ conversations: [conversation('c1'), conversation('c2', { title: 'Chitra Iyer' })], nextCursor: null, unreadTotal: 0 }),
      '/api/conversations/c1': () => ok(conversation('c1')),
      '/api/conversations/c2': () => ok(conversation('c2', { title: 'Chitra Iyer' })),
      '/api/conversations/c1/messages': () => ok({ messages: [], hasMore: false }),
      '/api/conversations/c2/messages': () => ok({ messages: [], hasMore: false }),
    });
    const store = createStore();
    const { rerender } = renderIn(<MessagesPage conversationId="c1" />, store);
    const tree = (id: string) => (
      <Provider store={store}>
        <MessagesPage conversationId={id} />
      </Provider>
    );
    fireEvent.change(await screen.findByLabelText('Message Ravi Kumar'), { target: { value: 'half a thought' } });
    rerender(tree('c2'));
    expect(((await screen.findByLabelText('Message Chitra Iyer')) as HTMLTextAreaElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Message Chitra Iyer'), { target: { value: 'for Chitra' } });
    rerender(tree('c1'));
    expect(((await screen.findByLabelText('Message Ravi Kumar')) as HTMLTextAreaElement).value).toBe('half a thought');

    // Another account on this browser sees none of them.
    const saved = localStorage.getItem('campus.messageDrafts');
    expect(saved).toContain('half a thought');
    expect(JSON.parse(saved!).userId).toBe('u1');

    clearAuthStorage();
    expect(localStorage.getItem('campus.messageDrafts')).toBeNull();
  });

  it('unsends after a confirmation; the message becomes "Message unsent"', async () => {
    const mine = message(3, { sender: asha, body: 'oops wrong chat' });
    fakeServer({ messages: [message(1), message(2), mine] });
    let deleted = 0;
    const unsent = { ...mine, body: '', unsent: true };
    const routes = {
      '/api/conversations/c1/messages/3': (init: RequestInit | undefined) => {
        if (init?.method === 'DELETE') deleted++;
        return ok(unsent);
      },
    };
    const prev = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const r = routes[path as keyof typeof routes];
      return r ? Promise.resolve(r(init)) : prev(input, init);
    });
    renderIn(<MessagesPage conversationId="c1" />);
    await inThread('oops wrong chat');
    const row = screen.getByText('oops wrong chat').closest('[data-seq]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Message actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Unsend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsend message?' });
    expect(deleted).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unsend' }));
    await waitFor(() => expect(screen.queryByText('oops wrong chat')).toBeNull());
    expect(deleted).toBe(1);
    expect(screen.getAllByText('Message unsent').length).toBeGreaterThan(0);
  });

  it('"Seen" under my last message once the other person has read it', async () => {
    fakeServer({ messages: [message(1), message(2, { sender: asha, body: 'mine' })], conv: { lastSeq: 2, readSeq: 2 } });
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    await inThread('mine');
    expect(screen.queryByText(/Seen/)).toBeNull();
    act(() => store.set(applyReadFrameAtom, { conversationId: 'c1', userId: 'u2', seq: 2 }));
    expect(await screen.findByText(/Seen/)).toBeTruthy();
  });

  it('opening a thread reads it: the unread count and total drop', async () => {
    fakeServer({ conv: { lastSeq: 3, readSeq: 1, unreadCount: 2 }, list: [conversation('c1', { lastSeq: 3, readSeq: 1, unreadCount: 2 })] });
    const store = createStore();
    renderIn(<MessagesPage conversationId="c1" />, store);
    await inThread('Message 3');
    await waitFor(() => expect(store.get(conversationListAtom)[0]?.unreadCount).toBe(0));
    expect(store.get(unreadMessagesAtom)).toBe(0);
  });
});

describe('the profile Message button', () => {
  it("shows the server's 403 as it comes", async () => {
    installFakeFetch({ '/api/conversations': () => fail(403, 'This person only accepts messages from friends.') });
    renderIn(<MessageButton userId="u3" name={chitra.name} />);
    fireEvent.click(screen.getByRole('button', { name: 'Message Chitra Iyer' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This person only accepts messages from friends.');
  });

  it('opens the direct conversation', async () => {
    const fetchMock = installFakeFetch({ '/api/conversations': () => ok(conversation('c9', { title: 'Chitra Iyer' }), 201) });
    const { store } = renderIn(<MessageButton userId="u3" name={chitra.name} />);
    fireEvent.click(screen.getByRole('button', { name: 'Message Chitra Iyer' }));
    await waitFor(() => expect(store.get(routeAtom)).toEqual({ page: 'conversation', conversationId: 'c9' }));
    expect(bodyOf(fetchMock.mock.calls[0]?.[1] as RequestInit)).toEqual({ kind: 'direct', userId: 'u3' });
  });
});

describe('reactions', () => {
  it('React → ❤️ puts mine; pressing my chip takes it back', async () => {
    const calls: string[] = [];
    fakeServer();
    const prev = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (new URL(String(input), 'http://localhost').pathname === '/api/conversations/c1/messages/3/reaction') {
        calls.push(`${init?.method} ${init?.body ?? ''}`);
        const reactions = init?.method === 'PUT' ? [{ emoji: '❤️', count: 1, mine: true }] : [];
        return Promise.resolve(ok(message(3, { reactions })));
      }
      return prev(input, init);
    });
    renderIn(<MessagesPage conversationId="c1" />);
    await inThread('Message 3');
    const row = screen.getByText('Message 3', { selector: '.msg__text' }).closest('[data-seq]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'React' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'React with ❤️' }));
    const chip = await within(row).findByRole('button', { name: '❤️ 1 reaction, including yours' });
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(chip);
    await waitFor(() => expect(within(row).queryByRole('button', { name: /❤️ 1 reaction/ })).toBeNull());
    expect(calls).toEqual(['PUT {"emoji":"❤️"}', 'DELETE ']);
  });
});

describe('new message', () => {
  it('one person opens the direct conversation; several need a group name; a 403 names who refused', async () => {
    const posts: Record<string, unknown>[] = [];
    let refuse = true;
    installFakeFetch({
      '/api/friends/friends-list': () => ok({ friends: [ravi, chitra].map((u) => ({ ...u, avatar: { url: '' } })) }),
      '/api/conversations': (init) => {
        if (init?.method !== 'POST') return ok({ conversations: [], nextCursor: null, unreadTotal: 0 });
        const b = bodyOf(init);
        posts.push(b);
        if (b.kind === 'group' && refuse) {
          refuse = false;
          return json({ status: 'error', message: 'This person only accepts messages from friends.', errors: [{ field: 'memberIds[1]', msg: 'Chitra Iyer' }] }, 403);
        }
        return ok(conversation(b.kind === 'group' ? 'g1' : 'c1', { kind: b.kind, title: b.kind === 'group' ? b.title : 'Ravi Kumar' }), 201);
      },
      '/api/conversations/c1': () => ok(conversation('c1')),
      '/api/conversations/c1/messages': () => ok({ messages: [], hasMore: false }),
      '/api/conversations/g1': () => ok(conversation('g1', { kind: 'group', title: 'Lab crew' })),
      '/api/conversations/g1/messages': () => ok({ messages: [], hasMore: false }),
    });
    const { store } = renderIn(<MessagesPage />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'New message' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Ravi Kumar' }));
    expect(within(dialog).queryByLabelText('Group name')).toBeNull();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Chitra Iyer' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await within(dialog).findByText('Give the group a name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'Lab crew' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This person only accepts messages from friends. Chitra Iyer');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(store.get(routeAtom)).toEqual({ page: 'conversation', conversationId: 'g1' }));
    expect(posts.at(-1)).toEqual({ kind: 'group', title: 'Lab crew', memberIds: ['u2', 'u3'] });

    fireEvent.click((await screen.findAllByRole('button', { name: 'New message' }))[0]!);
    const again = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.click(await within(again).findByRole('checkbox', { name: 'Ravi Kumar' }));
    fireEvent.click(within(again).getByRole('button', { name: 'Chat' }));
    await waitFor(() => expect(store.get(routeAtom)).toEqual({ page: 'conversation', conversationId: 'c1' }));
    expect(posts.at(-1)).toEqual({ kind: 'direct', userId: 'u2' });
  });
});

describe('group details', () => {
  it('an admin renames and removes (confirmed); leaving (confirmed) takes it off the list', async () => {
    const calls: string[] = [];
    let current = conversation('c1', {
      kind: 'group',
      title: 'Lab crew',
      role: 'admin',
      members: [
        { ...asha, role: 'admin' },
        { ...ravi, role: 'member' },
        { ...chitra, role: 'member' },
      ],
    });
    installFakeFetch({
      '/api/conversations': () => ok({ conversations: [current], nextCursor: null, unreadTotal: 0 }),
      '/api/conversations/c1': (init) => {
        if (init?.method === 'PATCH') {
          calls.push(`PATCH ${String(init.body)}`);
          current = { ...current, ...bodyOf(init) };
        }
        return ok(current);
      },
      '/api/conversations/c1/messages': () => ok({ messages: [], hasMore: false }),
      '/api/conversations/c1/members/u3': () => {
        calls.push('DELETE u3');
        current = { ...current, members: current.members.filter((m) => m.id !== 'u3') };
        return ok({ message: 'Removed.' });
      },
      '/api/conversations/c1/members/u1': () => {
        calls.push('DELETE u1');
        return ok({ message: 'You left the conversation.' });
      },
    });
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Conversation details' }));
    let dialog = await screen.findByRole('dialog', { name: 'Group details' });
    fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'Lab crew 2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByRole('heading', { name: 'Lab crew 2', level: 2 })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Chitra Iyer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Chitra Iyer?' });
    expect(calls).not.toContain('DELETE u3');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    dialog = await screen.findByRole('dialog', { name: 'Group details' });
    await waitFor(() => expect(within(dialog).queryByText('Chitra Iyer')).toBeNull());
    expect(within(dialog).getByText('2 members')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave group' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Leave this group?' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(store.get(routeAtom)).toEqual({ page: 'messages' }));
    expect(calls).toEqual(['PATCH {"title":"Lab crew 2"}', 'DELETE u3', 'DELETE u1']);
    expect(store.get(conversationListAtom)).toEqual([]);
  });
});

describe('the unread total', () => {
  it('leaves muted conversations out, as the server does; muting takes their count out', async () => {
    installFakeFetch({
      '/api/conversations': () =>
        ok({
          conversations: [conversation('a', { unreadCount: 2, lastSeq: 5, readSeq: 3 }), conversation('m', { muted: true, unreadCount: 4, lastSeq: 9, readSeq: 5 })],
          nextCursor: null,
          unreadTotal: 2,
        }),
    });
    const store = createStore();
    const { loadConversationsAtom } = await import('./messagesAtoms');
    await store.set(loadConversationsAtom);
    expect(store.get(unreadMessagesAtom)).toBe(2);
    store.set(applyMessageFrameAtom, { conversationId: 'm', message: message(10, { conversationId: 'm' }), isNew: true });
    expect(store.get(unreadMessagesAtom)).toBe(2); // muted: its count grows, the total does not
    expect(store.get(conversationListAtom).find((c) => c.id === 'm')?.unreadCount).toBe(5);
    store.set(applyMessageFrameAtom, { conversationId: 'a', message: message(6, { conversationId: 'a' }), isNew: true });
    expect(store.get(unreadMessagesAtom)).toBe(3);
    // Muted on another device (the server's copy of it): its 3 leave the total.
    const { upsertConversationAtom } = await import('./messagesAtoms');
    const { normalizeConversation } = await import('./model');
    store.set(upsertConversationAtom, normalizeConversation(conversation('a', { muted: true, unreadCount: 3, lastSeq: 6, readSeq: 3 }))!);
    expect(store.get(unreadMessagesAtom)).toBe(0);
  });

  it('a re-read of the list drops conversations that are gone (left on another device while away)', async () => {
    let list = [conversation('a'), conversation('b', { updatedAt: '2026-11-27T08:00:00Z' })];
    installFakeFetch({ '/api/conversations': () => ok({ conversations: list, nextCursor: null, unreadTotal: 0 }) });
    const store = createStore();
    const { loadConversationsAtom } = await import('./messagesAtoms');
    await store.set(loadConversationsAtom);
    expect(store.get(conversationListAtom).map((c) => c.id)).toEqual(['a', 'b']);
    list = [conversation('a')];
    await store.set(loadConversationsAtom);
    expect(store.get(conversationListAtom).map((c) => c.id)).toEqual(['a']);
  });
});

describe('focus', () => {
  it('a conversation opened from the list takes focus in its composer; one opened by its address does not', async () => {
    fakeServer();
    const store = createStore();
    const { rerender } = renderIn(<MessagesPage conversationId="c1" />, store);
    await screen.findByLabelText('Message Ravi Kumar');
    expect(document.activeElement).toBe(document.body);
    rerender(
      <Provider store={store}>
        <MessagesPage />
      </Provider>,
    );
    await screen.findByRole('list', { name: 'Conversations' });
    rerender(
      <Provider store={store}>
        <MessagesPage conversationId="c1" />
      </Provider>,
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Message Ravi Kumar')));
  });
});

describe('"Seen" after a reload', () => {
  it("comes from the members' read pointers in the conversation (direct: Seen)", async () => {
    fakeServer({
      messages: [message(1), message(2, { sender: asha, body: 'mine' })],
      conv: { lastSeq: 2, readSeq: 2, members: [{ ...asha, role: 'member', readSeq: 2 }, { ...ravi, role: 'member', readSeq: 2 }] },
    });
    renderIn(<MessagesPage conversationId="c1" />);
    await inThread('mine');
    expect(await within(screen.getByRole('log')).findByText(/Seen/)).toBeTruthy();
  });

  it('in a group counts the members whose pointer passed it; one without a pointer (a block) is not counted', async () => {
    fakeServer({
      messages: [message(1), message(2, { sender: asha, body: 'mine' })],
      conv: {
        kind: 'group',
        title: 'Club',
        lastSeq: 2,
        readSeq: 2,
        members: [
          { ...asha, role: 'admin', readSeq: 2 },
          { ...ravi, role: 'member', readSeq: 2 },
          { ...chitra, role: 'member' },
        ],
      },
    });
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    await inThread('mine');
    expect(await within(screen.getByRole('log')).findByText(/Seen by 1$/)).toBeTruthy();
    // A pointer that has not reached it yet does not count; a live read then does.
    act(() => store.set(applyReadFrameAtom, { conversationId: 'c1', userId: 'u3', seq: 2 }));
    expect(await within(screen.getByRole('log')).findByText(/Seen by everyone/)).toBeTruthy();
  });
});

describe('images', () => {
  const png = (name: string) => new File([new Uint8Array(8)], name, { type: 'image/png' });
  const served = (n: number) => ({ url: `/media/p${n}.jpg`, type: 'image', width: 800, height: 600, alt: '', thumbUrl: `/media/p${n}-320.jpg`, variants: [{ url: `/media/p${n}-320.jpg`, width: 320, height: 240 }] });
  const files = (el: HTMLElement, list: File[]) => fireEvent.change(el, { target: { files: list } });
  const attached = () => within(screen.getByRole('list', { name: 'Images to send' })).getAllByRole('listitem');

  it('picks, pastes and drops up to 4, removes and describes them, sends them as multipart with progress; the thread shows them and opens the viewer', async () => {
    const Xhr = installFakeXhr();
    fakeServer();
    renderIn(<MessagesPage conversationId="c1" />);
    const field = await screen.findByLabelText('Message Ravi Kumar');
    files(screen.getByTestId('message-images-input'), [png('a.png'), png('b.png')]);
    expect(attached()).toHaveLength(2);
    fireEvent.paste(field, { clipboardData: { files: [png('c.png')], getData: () => '' } });
    expect(attached()).toHaveLength(3);
    fireEvent.drop(field.closest('form')!, { dataTransfer: { files: [png('d.png'), png('e.png')], types: ['Files'] } });
    expect(attached()).toHaveLength(4);
    expect(screen.getByRole('alert').textContent).toBe('You can send a maximum of 4 images in a message.');
    expect((screen.getByRole('button', { name: 'Add images' }) as HTMLButtonElement).disabled).toBe(true);
    // A file that is not an image is refused as the post composer refuses it.
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 4' }));
    files(screen.getByTestId('message-images-input'), [new File(['x'], 'notes.pdf', { type: 'application/pdf' })]);
    expect(screen.getByRole('alert').textContent).toBe('Please select only image files. Videos are not supported.');
    expect(attached()).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'ALT text for image 2' }));
    fireEvent.change(screen.getByLabelText('Description of image 2 (alt text)'), { target: { value: '  A robot arm  ' } });
    expect(screen.getByRole('button', { name: /^ALT text for image 2, added/ })).toBeTruthy();

    fireEvent.change(field, { target: { value: 'Our build' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    const xhr = Xhr.instances[0]!;
    expect(xhr.url).toMatch(/\/api\/conversations\/c1\/messages$/);
    const form = xhr.body as FormData;
    expect(form.get('body')).toBe('Our build');
    expect(String(form.get('clientId'))).not.toBe('');
    expect(form.getAll('images[]')).toHaveLength(3);
    expect(form.getAll('imageAlts')).toEqual(['', 'A robot arm', '']);
    // The composer is empty again; the send shows at once, with its upload.
    expect(screen.queryByRole('list', { name: 'Images to send' })).toBeNull();
    act(() => xhr.progress(42, 100));
    expect(await screen.findByText('Sending… 40%')).toBeTruthy();
    const images = [served(1), { ...served(2), alt: 'A robot arm' }, served(3)];
    await act(async () =>
      xhr.respond(201, { status: 'success', data: message(4, { sender: asha, body: 'Our build', clientId: form.get('clientId'), images }) }),
    );
    const shown = within(await screen.findByRole('group', { name: 'Images sent by you' })).getAllByRole('img');
    expect(shown.map((i) => i.getAttribute('alt'))).toEqual(['Image 1 sent by you', 'A robot arm', 'Image 3 sent by you']);
    expect(screen.queryByText(/Sending/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'A robot arm' }));
    expect(await screen.findByRole('dialog', { name: 'Images sent by you, image 2 of 3' })).toBeTruthy();
  });

  it('a message of images only is "Photo" in the list and in a reply\'s quote', async () => {
    fakeServer({
      messages: [message(1), message(2, { body: '', images: [served(1)] })],
      conv: { lastSeq: 2, readSeq: 2 },
      list: [conversation('c1', { lastSeq: 2, readSeq: 2, lastMessage: message(2, { body: '', images: [served(1)] }) })],
    });
    renderIn(<MessagesPage conversationId="c1" />);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(within(list).getByRole('link', { name: /Ravi Kumar/ }).textContent).toContain('Photo');
    const row = (await screen.findByRole('group', { name: 'Image sent by Ravi Kumar' })).closest<HTMLElement>('[data-seq]')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Message actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Reply' }));
    expect(await screen.findByText('Replying to Ravi Kumar')).toBeTruthy();
    expect(screen.getByText('Photo', { selector: '.composer__context-snippet' })).toBeTruthy();
  });

  it('a failed send with images is retried under the same clientId, and not uploaded again once the server has it', async () => {
    const Xhr = installFakeXhr();
    const { server } = fakeServer();
    renderIn(<MessagesPage conversationId="c1" />);
    await screen.findByLabelText('Message Ravi Kumar');
    files(screen.getByTestId('message-images-input'), [png('a.png')]);
    // Images only: Send needs no text.
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const first = Xhr.instances[0]!;
    const clientId = String((first.body as FormData).get('clientId'));
    await act(async () => first.fail());
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    // Not stored yet: the thread has nothing of it, so it goes up again, same clientId.
    await waitFor(() => expect(Xhr.instances).toHaveLength(2));
    expect((Xhr.instances[1]!.body as FormData).get('clientId')).toBe(clientId);
    await act(async () => Xhr.instances[1]!.fail());
    // This time the answer was lost but the server stored it: Retry finds it in the thread.
    server.messages.push(message(4, { sender: asha, body: '', clientId, images: [served(1)] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('group', { name: 'Image sent by you' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull());
    expect(Xhr.instances).toHaveLength(2);
    expect(server.pages.some((q) => q.includes('afterSeq=3'))).toBe(true);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(within(list).getByRole('link', { name: /Ravi Kumar/ }).textContent).toContain('You: Photo');
  });
});

describe('not accepted, and a group\'s chat', () => {
  it('a conversation turned not_accepted (unfriended) shows why; their message opens it again', async () => {
    const { server } = fakeServer({ conv: { lastSeq: 3, readSeq: 3 } });
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    await screen.findByLabelText('Message Ravi Kumar');
    act(() => store.set(applyConversationFrameAtom, conversation('c1', { lastSeq: 3, readSeq: 3, readOnly: true, readOnlyReason: 'not_accepted' })));
    expect(await screen.findByText("This person doesn't accept messages from you.")).toBeTruthy();
    expect(screen.queryByLabelText('Message Ravi Kumar')).toBeNull();
    server.conv = conversation('c1', { lastSeq: 4, readSeq: 3 });
    act(() => store.set(applyMessageFrameAtom, { conversationId: 'c1', message: message(4, { body: 'Sure, go on' }), isNew: true }));
    expect(await screen.findByLabelText('Message Ravi Kumar')).toBeTruthy();
  });

  it("a group's chat shows the group's picture and sends its name and members to the group", async () => {
    fakeServer({
      conv: {
        kind: 'group',
        title: 'Robotics Club',
        role: 'admin',
        group: { id: 'g1', handle: 'robotics', avatarUrl: '/media/robotics.jpg' },
        members: [
          { ...asha, role: 'admin' },
          { ...ravi, role: 'member' },
          { ...chitra, role: 'member' },
        ],
      },
    });
    const { store } = renderIn(<MessagesPage conversationId="c1" />);
    await screen.findByRole('heading', { name: 'Robotics Club', level: 2 });
    const pictures = screen.getAllByRole('img', { name: 'Robotics Club' });
    expect(pictures.every((p) => p.querySelector('img')?.getAttribute('src') === '/media/robotics.jpg')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Conversation details' }));
    const details = await screen.findByRole('dialog', { name: 'Group details' });
    expect(within(details).getByText(/This chat follows its group/)).toBeTruthy();
    expect(within(details).queryByLabelText('Group name')).toBeNull();
    expect(within(details).queryByRole('button', { name: 'Leave group' })).toBeNull();
    expect(within(details).queryByRole('button', { name: /^Remove/ })).toBeNull();
    fireEvent.click(within(details).getByRole('button', { name: 'Open the group' }));
    expect(store.get(routeAtom)).toEqual({ page: 'group', handle: 'robotics' });
  });
});
