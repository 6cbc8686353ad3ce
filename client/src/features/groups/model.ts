// Groups as the client keeps them (issue 18, GROUPS_API), normalized from the
// server's JSON, plus the pure rules the screens share: handle checks, what a
// viewer may do, labels.

import { idOf, isRecord, normalizeUserSummary, num, str, type UserSummary } from '../../api/models';
import { GROUP_HANDLE } from '../../lib/navigation';

export const GROUP_KINDS = ['course', 'club', 'department', 'event', 'other'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export const GROUP_VISIBILITIES = ['public', 'closed', 'secret'] as const;
export type GroupVisibility = (typeof GROUP_VISIBILITIES)[number];

export type MemberStatus = 'none' | 'member' | 'requested' | 'invited';
export type GroupRole = 'owner' | 'admin' | 'member';

export interface GroupCourse {
  program: string;
  batch: string;
}

/** The viewer's relation to a group. */
export interface GroupMe {
  status: MemberStatus;
  role: GroupRole | null;
  followClosely: boolean;
}

export interface Group {
  id: string;
  handle: string;
  name: string;
  description: string;
  kind: GroupKind;
  visibility: GroupVisibility;
  avatarUrl: string;
  coverUrl: string;
  membersCount: number;
  postsCount: number;
  createdAt: string;
  startsAt: string | null;
  endsAt: string | null;
  pinnedPostId: string | null;
  course: GroupCourse | null;
  /** The group's chat is on (its admins switch it). */
  chatEnabled: boolean;
  /** The chat's conversation, for members only; null otherwise. */
  chatId: string | null;
  me: GroupMe;
}

export interface GroupMember {
  user: UserSummary;
  role: GroupRole;
  joinedAt: string;
}

export interface JoinRequest {
  user: UserSummary;
  requestedAt: string;
}

export interface GroupSuggestion {
  group: Group;
  reason: string;
}

function oneOf<T extends string>(v: unknown, list: readonly T[], fallback: T): T {
  return typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : fallback;
}

function urlOf(v: unknown): string {
  if (typeof v === 'string') return v;
  return isRecord(v) ? str(v.url) : '';
}

function nullableStr(v: unknown): string | null {
  const s = str(v);
  return s === '' ? null : s;
}

export function normalizeRole(v: unknown): GroupRole | null {
  return v === 'owner' || v === 'admin' || v === 'member' ? v : null;
}

export function normalizeGroup(v: unknown): Group {
  const r = isRecord(v) ? v : {};
  const me = isRecord(r.me) ? r.me : {};
  const course = isRecord(r.course) && str(r.course.program) !== '' ? { program: str(r.course.program), batch: str(r.course.batch) } : null;
  return {
    id: idOf(r),
    handle: str(r.handle).toLowerCase(),
    name: str(r.name).trim() || str(r.handle),
    description: str(r.description),
    kind: oneOf(r.kind, GROUP_KINDS, 'other'),
    visibility: oneOf(r.visibility, GROUP_VISIBILITIES, 'public'),
    avatarUrl: urlOf(r.avatarUrl ?? r.avatar),
    coverUrl: urlOf(r.coverUrl ?? r.cover),
    membersCount: Math.max(0, num(r.membersCount)),
    postsCount: Math.max(0, num(r.postsCount)),
    createdAt: str(r.createdAt),
    startsAt: nullableStr(r.startsAt),
    endsAt: nullableStr(r.endsAt),
    pinnedPostId: nullableStr(r.pinnedPostId),
    course,
    chatEnabled: r.chatEnabled === true,
    chatId: r.chatEnabled === true ? nullableStr(r.chatId) : null,
    me: {
      status: oneOf(me.status, ['none', 'member', 'requested', 'invited'] as const, 'none'),
      role: normalizeRole(me.role),
      followClosely: me.followClosely === true,
    },
  };
}

export function normalizeMember(v: unknown): GroupMember {
  const r = isRecord(v) ? v : {};
  return { user: normalizeUserSummary(r.user), role: normalizeRole(r.role) ?? 'member', joinedAt: str(r.joinedAt) };
}

export function normalizeJoinRequest(v: unknown): JoinRequest {
  const r = isRecord(v) ? v : {};
  return { user: normalizeUserSummary(r.user), requestedAt: str(r.requestedAt) };
}

// --- rules -------------------------------------------------------------------

// As the server words them (domain/group.go), so a field shows one message whoever checked it.
export const MSG_HANDLE = "Handle must be 3-30 characters: lower-case letters, digits and '-', not starting or ending with '-'.";
export const MSG_NAME = 'Group name must be 1-80 characters long.';
export const MSG_EVENT_TIMES = 'An event needs a start and an end, and the end must come after the start.';
export const MSG_COURSE = 'A course needs a program (letters) and a batch (digits), e.g. BCA and 20.';

/** A handle proposed from a name: "Robotics Club!" → "robotics-club". */
export function handleFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30)
    .replace(/-+$/g, '');
}

export function isValidHandle(h: string): boolean {
  return GROUP_HANDLE.test(h);
}

export const isMember = (g: Pick<Group, 'me'>) => g.me.status === 'member';
export const isAdmin = (g: Pick<Group, 'me'>) => g.me.status === 'member' && (g.me.role === 'owner' || g.me.role === 'admin');
export const isOwner = (g: Pick<Group, 'me'>) => g.me.status === 'member' && g.me.role === 'owner';

/** Whether the viewer may read the group's posts: public groups to all, else members. */
export function canReadPosts(g: Pick<Group, 'visibility' | 'me'>): boolean {
  return g.visibility === 'public' || isMember(g);
}

/** Invitations: members of public and closed groups, admins of secret ones (GROUPS_API). */
export function canInvite(g: Pick<Group, 'visibility' | 'me'>): boolean {
  return g.visibility === 'secret' ? isAdmin(g) : isMember(g);
}

/** The membership button a viewer sees, or null when there is none (an owner, who must transfer first). */
export type JoinAction = 'join' | 'request' | 'cancel' | 'accept' | 'leave' | null;

/**
 * Whether a university ID (BWU/BCA/20/123) has the program and batch a course
 * group is opened to: such a student joins in one click (the server decides;
 * this only picks the button's words).
 */
export function courseEligible(course: GroupCourse | null, universityId: string): boolean {
  if (!course) return false;
  const parts = universityId.trim().toUpperCase().split('/');
  return parts.length === 4 && parts[1] === course.program.toUpperCase() && parts[2] === course.batch;
}

/** `eligible`: the viewer may join a closed course group in one click (courseEligible). */
export function joinAction(g: Pick<Group, 'visibility' | 'me'>, eligible = false): JoinAction {
  switch (g.me.status) {
    case 'member':
      return g.me.role === 'owner' ? null : 'leave';
    case 'requested':
      return 'cancel';
    case 'invited':
      return 'accept';
    case 'none':
      return g.visibility === 'closed' && !eligible ? 'request' : 'join';
  }
}

export const JOIN_LABELS: Record<Exclude<JoinAction, null>, string> = {
  join: 'Join group',
  request: 'Request to join',
  cancel: 'Cancel request',
  accept: 'Accept invitation',
  leave: 'Leave group',
};

/** What an admin may do to a member (GROUPS_API): the owner changes roles; admins remove plain members. */
export function memberActions(viewer: Pick<Group, 'me'>, member: GroupMember, viewerId: string): {
  promote: boolean;
  demote: boolean;
  remove: boolean;
  transfer: boolean;
} {
  const self = member.user.id === viewerId;
  const owner = isOwner(viewer);
  const admin = isAdmin(viewer);
  return {
    promote: owner && !self && member.role === 'member',
    demote: owner && !self && member.role === 'admin',
    remove: !self && member.role !== 'owner' && (owner || (admin && member.role === 'member')),
    transfer: owner && !self,
  };
}

export const KIND_LABELS: Record<GroupKind, string> = {
  course: 'Course',
  club: 'Club',
  department: 'Department',
  event: 'Event',
  other: 'Other',
};

export const VISIBILITY_LABELS: Record<GroupVisibility, string> = {
  public: 'Public',
  closed: 'Closed',
  secret: 'Secret',
};

export const VISIBILITY_HELP: Record<GroupVisibility, string> = {
  public: 'Anyone on campus can read and join.',
  closed: 'Anyone can see the group; members read its posts. Joining needs approval.',
  secret: 'Only members can find it. Join by invitation.',
};

/** "Closed club · 12 members". */
export function groupSummary(g: Pick<Group, 'visibility' | 'kind' | 'membersCount'>): string {
  const members = `${g.membersCount.toLocaleString('en-US')} ${g.membersCount === 1 ? 'member' : 'members'}`;
  return `${VISIBILITY_LABELS[g.visibility]} ${KIND_LABELS[g.kind].toLowerCase()} · ${members}`;
}

/** An event's time span for the about panel: "12 Mar 2026, 10:00 – 17:00" (locale-formatted). */
export function eventSpan(startsAt: string | null, endsAt: string | null): string {
  const fmt = (iso: string, opts: Intl.DateTimeFormatOptions) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, opts);
  };
  const full: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  if (!startsAt) return endsAt ? `Until ${fmt(endsAt, full)}` : '';
  const start = fmt(startsAt, full);
  if (!endsAt) return start;
  const sameDay = new Date(startsAt).toDateString() === new Date(endsAt).toDateString();
  return `${start} – ${fmt(endsAt, sameDay ? { timeStyle: 'short' } : full)}`;
}

/** ISO → the value of an <input type="datetime-local"> in local time ('' when empty). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** An <input type="datetime-local"> value → ISO (null when empty or invalid). */
export function fromLocalInput(v: string): string | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

// --- the create / edit form --------------------------------------------------

export interface GroupDraft {
  name: string;
  handle: string;
  description: string;
  kind: GroupKind;
  visibility: GroupVisibility;
  /** datetime-local values. */
  startsAt: string;
  endsAt: string;
  program: string;
  batch: string;
}

export const EMPTY_DRAFT: GroupDraft = {
  name: '',
  handle: '',
  description: '',
  kind: 'club',
  visibility: 'public',
  startsAt: '',
  endsAt: '',
  program: '',
  batch: '',
};

export function draftOf(g: Group): GroupDraft {
  return {
    name: g.name,
    handle: g.handle,
    description: g.description,
    kind: g.kind,
    visibility: g.visibility,
    startsAt: toLocalInput(g.startsAt),
    endsAt: toLocalInput(g.endsAt),
    program: g.course?.program ?? '',
    batch: g.course?.batch ?? '',
  };
}

export type DraftErrors = Partial<Record<'name' | 'handle' | 'description' | 'startsAt' | 'endsAt' | 'course', string>>;

export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 2000;

/** Checks a draft before it is sent (the server checks again and its field errors win). */
export function validateDraft(d: GroupDraft, creating: boolean): DraftErrors {
  const e: DraftErrors = {};
  const name = d.name.trim();
  if (name === '' || [...name].length > NAME_MAX) e.name = MSG_NAME;
  if (creating && !isValidHandle(d.handle)) e.handle = MSG_HANDLE;
  if ([...d.description.trim()].length > DESCRIPTION_MAX) e.description = 'Description must be at most 2000 characters long.';
  if (d.kind === 'event') {
    const start = fromLocalInput(d.startsAt);
    const end = fromLocalInput(d.endsAt);
    if (!start || !end || Date.parse(end) <= Date.parse(start)) e.endsAt = MSG_EVENT_TIMES;
  }
  if (d.kind === 'course' && (d.program.trim() !== '' || d.batch.trim() !== '')) {
    if (!/^[A-Za-z]{1,16}$/.test(d.program.trim()) || !/^\d{1,4}$/.test(d.batch.trim())) e.course = MSG_COURSE;
  }
  return e;
}

/** The body of POST /api/groups (creating) or PATCH /api/groups/{handle}. */
export function draftBody(d: GroupDraft, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: d.name.trim(),
    description: d.description.trim(),
    visibility: d.visibility,
  };
  if (creating) {
    body.handle = d.handle;
    body.kind = d.kind;
  }
  if (d.kind === 'event') {
    body.startsAt = fromLocalInput(d.startsAt);
    body.endsAt = fromLocalInput(d.endsAt);
  }
  if (d.kind === 'course') {
    body.course = d.program.trim() ? { program: d.program.trim().toUpperCase(), batch: d.batch.trim() } : null;
  }
  return body;
}
