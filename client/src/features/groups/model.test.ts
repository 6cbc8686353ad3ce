import { describe, expect, it } from 'vitest';
import {
  canInvite,
  courseEligible,
  canReadPosts,
  draftBody,
  EMPTY_DRAFT,
  groupSummary,
  handleFromName,
  isValidHandle,
  joinAction,
  memberActions,
  MSG_COURSE,
  MSG_EVENT_TIMES,
  MSG_HANDLE,
  MSG_NAME,
  normalizeGroup,
  validateDraft,
  type Group,
  type GroupMember,
} from './model';

const me = (status: Group['me']['status'], role: Group['me']['role'] = null) => ({ status, role, followClosely: false });

describe('normalizeGroup', () => {
  it('reads the contract shape', () => {
    const g = normalizeGroup({
      id: 'g1',
      handle: 'Robotics-Club',
      name: ' Robotics Club ',
      description: 'We build robots',
      kind: 'club',
      visibility: 'closed',
      avatarUrl: '/media/a.webp',
      coverUrl: null,
      membersCount: 12,
      postsCount: 3,
      createdAt: '2026-01-01T00:00:00Z',
      startsAt: null,
      endsAt: null,
      pinnedPostId: 'p9',
      course: null,
      me: { status: 'member', role: 'admin', followClosely: true },
    });
    expect(g).toMatchObject({
      handle: 'robotics-club',
      name: 'Robotics Club',
      visibility: 'closed',
      avatarUrl: '/media/a.webp',
      coverUrl: '',
      pinnedPostId: 'p9',
      course: null,
      me: { status: 'member', role: 'admin', followClosely: true },
    });
  });

  it('falls back on anything unknown', () => {
    const g = normalizeGroup({ id: 'g2', handle: 'x-y', kind: 'party', visibility: 'hidden', me: { status: 'boss', role: 'king' }, membersCount: -3 });
    expect(g.kind).toBe('other');
    expect(g.visibility).toBe('public');
    expect(g.me).toEqual({ status: 'none', role: null, followClosely: false });
    expect(g.membersCount).toBe(0);
    expect(g.name).toBe('x-y');
    expect(normalizeGroup({ course: { program: 'BCA', batch: '20' } }).course).toEqual({ program: 'BCA', batch: '20' });
  });
});

describe('handles', () => {
  it.each([
    ['Robotics Club!', 'robotics-club'],
    ['  BCA — 2020  ', 'bca-2020'],
    ['Café Society', 'cafe-society'],
    ['x'.repeat(40), 'x'.repeat(30)],
    [`${'a'.repeat(29)} b`, 'a'.repeat(29)],
  ])('%s → %s', (name, handle) => {
    expect(handleFromName(name)).toBe(handle);
  });

  it.each([
    ['abc', true],
    ['bca-2020', true],
    ['ab', false],
    ['-abc', false],
    ['abc-', false],
    ['ABC', false],
    ['a_b', false],
    ['a'.repeat(31), false],
  ])('%s valid: %s', (h, ok) => {
    expect(isValidHandle(h)).toBe(ok);
  });
});

describe('what a viewer may do', () => {
  it.each([
    ['public', me('none'), 'join'],
    ['closed', me('none'), 'request'],
    ['secret', me('invited'), 'accept'],
    ['closed', me('requested'), 'cancel'],
    ['public', me('member', 'member'), 'leave'],
    ['public', me('member', 'admin'), 'leave'],
    ['closed', me('member', 'owner'), null],
  ] as const)('%s, %j → %s', (visibility, m, action) => {
    expect(joinAction({ visibility, me: m })).toBe(action);
  });

  it('offers a one-click join to a closed course group opened to my program and batch', () => {
    const course = { program: 'BCA', batch: '20' };
    expect(courseEligible(course, 'bwu/bca/20/123')).toBe(true);
    expect(courseEligible(course, 'BWU/BCA/21/123')).toBe(false);
    expect(courseEligible(course, 'BWU/MCA/20/123')).toBe(false);
    expect(courseEligible(course, '')).toBe(false);
    expect(courseEligible(null, 'BWU/BCA/20/123')).toBe(false);
    expect(joinAction({ visibility: 'closed', me: me('none') }, true)).toBe('join');
    expect(joinAction({ visibility: 'secret', me: me('invited') }, true)).toBe('accept');
  });

  it.each([
    ['public', me('none'), true, false],
    ['closed', me('none'), false, false],
    ['closed', me('requested'), false, false],
    ['closed', me('member', 'member'), true, true],
    ['secret', me('member', 'member'), true, false],
    ['secret', me('member', 'admin'), true, true],
    ['public', me('member', 'member'), true, true],
  ] as const)('%s, %j: reads posts %s, invites %s', (visibility, m, reads, invites) => {
    expect(canReadPosts({ visibility, me: m })).toBe(reads);
    expect(canInvite({ visibility, me: m })).toBe(invites);
  });

  const member = (id: string, role: GroupMember['role']): GroupMember => ({
    user: { id, name: id, avatar: { url: '' }, role: 'student', universityId: '' },
    role,
    joinedAt: '',
  });

  it.each([
    ['owner on a member', me('member', 'owner'), member('u2', 'member'), { promote: true, demote: false, remove: true, transfer: true }],
    ['owner on an admin', me('member', 'owner'), member('u2', 'admin'), { promote: false, demote: true, remove: true, transfer: true }],
    ['owner on self', me('member', 'owner'), member('u1', 'owner'), { promote: false, demote: false, remove: false, transfer: false }],
    ['admin on a member', me('member', 'admin'), member('u2', 'member'), { promote: false, demote: false, remove: true, transfer: false }],
    ['admin on an admin', me('member', 'admin'), member('u2', 'admin'), { promote: false, demote: false, remove: false, transfer: false }],
    ['admin on the owner', me('member', 'admin'), member('u2', 'owner'), { promote: false, demote: false, remove: false, transfer: false }],
    ['member on a member', me('member', 'member'), member('u2', 'member'), { promote: false, demote: false, remove: false, transfer: false }],
  ] as const)('%s', (_name, viewer, target, want) => {
    expect(memberActions({ me: viewer }, target, 'u1')).toEqual(want);
  });

  it('summarises', () => {
    expect(groupSummary({ visibility: 'closed', kind: 'club', membersCount: 1 })).toBe('Closed club · 1 member');
    expect(groupSummary({ visibility: 'public', kind: 'event', membersCount: 1234 })).toBe('Public event · 1,234 members');
  });
});

describe('the create / edit form', () => {
  it.each([
    ['a valid club', { name: 'Robotics', handle: 'robotics' }, true, {}],
    ['no name', { name: '  ', handle: 'robotics' }, true, { name: MSG_NAME }],
    ['a bad handle', { name: 'R', handle: 'Ro' }, true, { handle: MSG_HANDLE }],
    ['a bad handle when editing (fixed, not checked)', { name: 'R', handle: 'Ro' }, false, {}],
    ['an event without times', { name: 'Fest', handle: 'fest', kind: 'event' }, true, { endsAt: MSG_EVENT_TIMES }],
    [
      'an event ending before it starts',
      { name: 'Fest', handle: 'fest', kind: 'event', startsAt: '2026-03-12T18:00', endsAt: '2026-03-12T10:00' },
      true,
      { endsAt: MSG_EVENT_TIMES },
    ],
    ['a course with a bad batch', { name: 'BCA', handle: 'bca-20', kind: 'course', program: 'BCA', batch: 'xx' }, true, { course: MSG_COURSE }],
    ['a course not opened to anyone', { name: 'BCA', handle: 'bca-20', kind: 'course' }, true, {}],
  ] as const)('%s', (_name, over, creating, errors) => {
    expect(validateDraft({ ...EMPTY_DRAFT, ...over }, creating)).toEqual(errors);
  });

  it('sends only what the kind has; handle and kind only when creating', () => {
    const event = { ...EMPTY_DRAFT, name: ' Fest ', handle: 'fest', kind: 'event' as const, startsAt: '2026-03-12T10:00', endsAt: '2026-03-12T18:00' };
    const created = draftBody(event, true);
    expect(created).toMatchObject({ name: 'Fest', handle: 'fest', kind: 'event', visibility: 'public' });
    expect(created.startsAt).toBe(new Date('2026-03-12T10:00').toISOString());
    expect(created.course).toBeUndefined();
    const edited = draftBody({ ...EMPTY_DRAFT, name: 'BCA', kind: 'course', program: 'bca', batch: '20' }, false);
    expect(edited).toEqual({ name: 'BCA', description: '', visibility: 'public', course: { program: 'BCA', batch: '20' } });
  });
});
