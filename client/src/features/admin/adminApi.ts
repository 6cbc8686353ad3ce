// The admins' console (issue 26): accounts, roles, groups and the system
// page. Every call answers 403 to a member who is not an admin.

import { apiDelete, apiGet, apiPost } from '../../api/http';
import { isRecord, str } from '../../api/models';

export type Role = 'moderator' | 'admin';

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  /** student or faculty */
  kind: string;
  universityId: string;
  department: string;
  verified: boolean;
  createdAt: string;
  roles: Role[];
  suspended: boolean;
  /** ISO time, or null while suspended for good (and when not suspended). */
  suspendedUntil: string | null;
  suspensionReason: string;
  openReports: number;
  posts: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface AdminGroup {
  id: string;
  handle: string;
  name: string;
  kind: string;
  visibility: string;
  members: number;
  posts: number;
  createdAt: string;
}

export interface NodeFigures {
  hostname: string;
  httpAddr: string;
  members: string[];
  membership: string;
  ready: string;
  sockets: number;
  writerQueue: number;
  pendingRequests: number;
  indexLag: number;
  indexLagMs: number;
  pool: { maxOpen: number; open: number; inUse: number; idle: number; waitCount: number; waitMs: number };
  goroutines: number;
}

export interface NodeStatus {
  node: string;
  version: string;
  startedAt: string;
  updatedAt: string;
  ageMs: number;
  stale: boolean;
  figures: NodeFigures;
}

export interface SystemStatus {
  nodes: NodeStatus[];
  database: {
    connections: Record<string, number>;
    maxConnections: number;
    mailOutbox: number;
    pushOutbox: number;
  };
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const cursorOf = (data: unknown): string | null =>
  isRecord(data) && typeof data.nextCursor === 'string' && data.nextCursor !== '' ? data.nextCursor : null;

/** One account from the server's AdminUserView; anything malformed reads as empty. */
export function parseAdminUser(v: unknown): AdminUser {
  const u = isRecord(v) ? v : {};
  return {
    id: str(u.id),
    name: str(u.name) || 'User',
    email: str(u.email),
    kind: str(u.role),
    universityId: str(u.universityId),
    department: str(u.department),
    verified: u.verified === true,
    createdAt: str(u.createdAt),
    roles: strings(u.capabilities).filter((r): r is Role => r === 'moderator' || r === 'admin'),
    suspended: u.suspended === true,
    suspendedUntil: typeof u.suspendedUntil === 'string' ? u.suspendedUntil : null,
    suspensionReason: str(u.suspensionReason),
    openReports: num(u.openReports),
    posts: num(u.posts),
  };
}

function query(base: string, q: string, cursor: string | null, limit: number): string {
  const p = new URLSearchParams({ limit: String(limit) });
  if (q.trim()) p.set('q', q.trim());
  if (cursor) p.set('cursor', cursor);
  return `${base}?${p.toString()}`;
}

export async function fetchUsers(q: string, cursor: string | null = null, limit = 25): Promise<Page<AdminUser>> {
  const data = await apiGet<unknown>(query('/admin/users', q, cursor, limit));
  const list = isRecord(data) && Array.isArray(data.users) ? data.users : [];
  return { items: list.map(parseAdminUser), nextCursor: cursorOf(data) };
}

export async function fetchUser(id: string): Promise<AdminUser> {
  return parseAdminUser(await apiGet<unknown>(`/admin/users/${encodeURIComponent(id)}`));
}

/** What an action did, and the account as it is now. */
export interface ActionResult {
  message: string;
  user: AdminUser;
}

function actionResult(data: unknown): ActionResult {
  return { message: isRecord(data) ? str(data.message) : '', user: parseAdminUser(isRecord(data) ? data.user : undefined) };
}

const userPath = (id: string, rest: string) => `/admin/users/${encodeURIComponent(id)}${rest}`;

/** days 0 suspends for good. */
export async function suspend(id: string, reason: string, days: number): Promise<ActionResult> {
  return actionResult(await apiPost<unknown>(userPath(id, '/suspend'), { reason, days }));
}

export async function unsuspend(id: string, reason: string): Promise<ActionResult> {
  return actionResult(await apiPost<unknown>(userPath(id, '/unsuspend'), { reason }));
}

export async function resetSessions(id: string): Promise<ActionResult> {
  return actionResult(await apiPost<unknown>(userPath(id, '/reset-sessions')));
}

export async function setRole(id: string, role: Role, on: boolean, reason = ''): Promise<ActionResult> {
  const data = on
    ? await apiPost<unknown>(userPath(id, '/roles'), { role, reason })
    : await apiDelete<unknown>(userPath(id, `/roles/${role}`));
  return actionResult(data);
}

export async function fetchGroups(q: string, cursor: string | null = null, limit = 25): Promise<Page<AdminGroup>> {
  const data = await apiGet<unknown>(query('/admin/groups', q, cursor, limit));
  const list = isRecord(data) && Array.isArray(data.groups) ? data.groups : [];
  return {
    items: list.filter(isRecord).map((g) => ({
      id: str(g.id),
      handle: str(g.handle),
      name: str(g.name),
      kind: str(g.kind),
      visibility: str(g.visibility),
      members: num(g.members),
      posts: num(g.posts),
      createdAt: str(g.createdAt),
    })),
    nextCursor: cursorOf(data),
  };
}

/** The system page's figures: every node's heartbeat and the database. */
export function parseSystem(data: unknown): SystemStatus {
  const d = isRecord(data) ? data : {};
  const db = isRecord(d.database) ? d.database : {};
  const conns: Record<string, number> = {};
  if (isRecord(db.connections)) for (const [k, v] of Object.entries(db.connections)) conns[k] = num(v);
  const nodes = Array.isArray(d.nodes) ? d.nodes.filter(isRecord) : [];
  return {
    nodes: nodes.map((n) => {
      const f = isRecord(n.figures) ? n.figures : {};
      const pool = isRecord(f.pool) ? f.pool : {};
      return {
        node: str(n.node),
        version: str(n.version),
        startedAt: str(n.startedAt),
        updatedAt: str(n.updatedAt),
        ageMs: num(n.ageMs),
        stale: n.stale === true,
        figures: {
          hostname: str(f.hostname),
          httpAddr: str(f.httpAddr),
          members: strings(f.members),
          membership: str(f.membership),
          ready: str(f.ready),
          sockets: num(f.sockets),
          writerQueue: num(f.writerQueue),
          pendingRequests: num(f.pendingRequests),
          indexLag: num(f.indexLag),
          indexLagMs: num(f.indexLagMs),
          pool: {
            maxOpen: num(pool.maxOpen),
            open: num(pool.open),
            inUse: num(pool.inUse),
            idle: num(pool.idle),
            waitCount: num(pool.waitCount),
            waitMs: num(pool.waitMs),
          },
          goroutines: num(f.goroutines),
        },
      };
    }),
    database: {
      connections: conns,
      maxConnections: num(db.maxConnections),
      mailOutbox: num(db.mailOutbox),
      pushOutbox: num(db.pushOutbox),
    },
  };
}

export async function fetchSystem(): Promise<SystemStatus> {
  return parseSystem(await apiGet<unknown>('/admin/system'));
}
