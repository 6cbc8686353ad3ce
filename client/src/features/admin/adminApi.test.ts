import { describe, expect, it } from 'vitest';
import { parseAdminUser, parseSystem } from './adminApi';

describe('parseAdminUser', () => {
  it('reads the server’s account', () => {
    const u = parseAdminUser({
      id: 'u1',
      name: 'Tariq',
      email: 't@uni.edu',
      role: 'student',
      universityId: 'BWU/1',
      department: 'CSE',
      verified: true,
      createdAt: '2026-11-27T10:00:00Z',
      capabilities: ['admin', 'moderator', 'owner'],
      suspended: true,
      suspendedUntil: null,
      suspensionReason: 'spam',
      openReports: 2,
      posts: 5,
    });
    expect(u).toMatchObject({ id: 'u1', kind: 'student', roles: ['admin', 'moderator'], suspended: true, suspendedUntil: null });
    expect(u.openReports).toBe(2);
  });

  it('reads anything malformed as empty, never throws', () => {
    expect(parseAdminUser('nope')).toMatchObject({ id: '', name: 'User', roles: [], suspended: false, posts: 0 });
    expect(parseAdminUser({ capabilities: 'admin', posts: 'x' })).toMatchObject({ roles: [], posts: 0 });
  });
});

describe('parseSystem', () => {
  it('reads nodes and the database', () => {
    const s = parseSystem({
      nodes: [
        {
          node: '10.0.0.1:6331',
          version: 'v1',
          ageMs: 1200,
          stale: false,
          figures: { members: ['10.0.0.1:6331', 10], sockets: 4, pool: { inUse: 2, maxOpen: 50 }, ready: 'ok', membership: 'ok' },
        },
        'junk',
      ],
      database: { connections: { active: 2, idle: 7, weird: 'x' }, maxConnections: 200, mailOutbox: 3, pushOutbox: 0 },
    });
    expect(s.nodes).toHaveLength(1);
    expect(s.nodes[0]!.figures.members).toEqual(['10.0.0.1:6331']);
    expect(s.nodes[0]!.figures.pool.inUse).toBe(2);
    expect(s.database.connections).toEqual({ active: 2, idle: 7, weird: 0 });
    expect(s.database.mailOutbox).toBe(3);
  });

  it('reads an empty answer as no nodes', () => {
    expect(parseSystem(null)).toEqual({ nodes: [], database: { connections: {}, maxConnections: 0, mailOutbox: 0, pushOutbox: 0 } });
  });
});
