import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { fetchSystem, type NodeStatus, type SystemStatus } from './adminApi';

/** How often the page reads the figures again while it is open (the nodes write theirs every 5 s). */
export const SYSTEM_REFRESH_MS = 5000;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function sum(rec: Record<string, number>): number {
  return Object.values(rec).reduce((a, b) => a + b, 0);
}

/** One node's card: its heartbeat's figures. */
function NodeCard({ n }: { n: NodeStatus }) {
  const f = n.figures;
  const ok = (s: string) => s === 'ok';
  return (
    <article className="admin__node" aria-label={`Node ${n.node}`}>
      <header className="admin__node-head">
        <h3 className="admin__node-name">{n.node}</h3>
        <span className="admin__badge">{n.version || 'unknown version'}</span>
        {n.stale && <span className="admin__badge admin__badge--danger">silent for {seconds(n.ageMs)}</span>}
        {!ok(f.ready) && <span className="admin__badge admin__badge--danger">not ready</span>}
      </header>
      <dl className="admin__facts">
        <div>
          <dt>Host</dt>
          <dd>
            {f.hostname || '—'} · HTTP {f.httpAddr || '—'}
          </dd>
        </div>
        <div>
          <dt>Ready</dt>
          <dd>{ok(f.ready) ? 'Yes' : f.ready}</dd>
        </div>
        <div>
          <dt>Membership</dt>
          <dd>{ok(f.membership) ? 'Agrees with the provider' : f.membership}</dd>
        </div>
        <div>
          <dt>Members it sees ({f.members.length})</dt>
          <dd>
            <ul className="admin__members">
              {f.members.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>Open sockets</dt>
          <dd>{f.sockets}</dd>
        </div>
        <div>
          <dt>Queues</dt>
          <dd>
            writer {f.writerQueue} · pending grain requests {f.pendingRequests}
          </dd>
        </div>
        <div>
          <dt>Search index lag</dt>
          <dd>
            {f.indexLag} {f.indexLag === 1 ? 'entry' : 'entries'}
            {f.indexLag > 0 && <> · {seconds(f.indexLagMs)}</>}
          </dd>
        </div>
        <div>
          <dt>Postgres pool</dt>
          <dd>
            {f.pool.inUse} in use · {f.pool.open} open of {f.pool.maxOpen} · waited {f.pool.waitCount}× ({seconds(f.pool.waitMs)})
          </dd>
        </div>
        <div>
          <dt>Last report</dt>
          <dd>{seconds(n.ageMs)} ago</dd>
        </div>
      </dl>
    </article>
  );
}

/** Every node's version, members, sockets, queues, index lag and pool, and the database's figures. */
export function AdminSystem() {
  const [sys, setSys] = useState<SystemStatus | null>(null);
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    try {
      setSys(await fetchSystem());
      setError('');
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not load the system status.');
    }
  }, []);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), SYSTEM_REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  return (
    <div className="admin__section">
      <div className="admin__row">
        <p className="admin__muted">Each node reports its figures every 5 seconds; this page reads them again as often.</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {sys && (
        <>
          <section className="admin__db" aria-labelledby="admin-db-title">
            <h2 id="admin-db-title" className="admin__subtitle">
              Database
            </h2>
            <dl className="admin__facts">
              <div>
                <dt>Postgres connections</dt>
                <dd>
                  {sum(sys.database.connections)} of {sys.database.maxConnections} (
                  {Object.entries(sys.database.connections)
                    .map(([state, n]) => `${n} ${state}`)
                    .join(', ') || 'none'}
                  )
                </dd>
              </div>
              <div>
                <dt>Mail outbox</dt>
                <dd>{sys.database.mailOutbox} waiting</dd>
              </div>
              <div>
                <dt>Push outbox</dt>
                <dd>{sys.database.pushOutbox} waiting</dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="admin-nodes-title">
            <h2 id="admin-nodes-title" className="admin__subtitle">
              Nodes ({sys.nodes.length})
            </h2>
            {sys.nodes.length === 0 && <p className="admin__muted">No node has reported yet.</p>}
            <div className="admin__nodes">
              {sys.nodes.map((n) => (
                <NodeCard key={n.node} n={n} />
              ))}
            </div>
          </section>
        </>
      )}
    </div>
  );
}
