import { useEffect, useState } from 'react';
import { checkHealth } from '../../api/health';
import './ServerStatus.css';

type Status = 'checking' | 'online' | 'unreachable';

const TEXT: Record<Status, string> = {
  checking: 'Server: checking…',
  online: 'Server: online',
  unreachable: 'Server: unreachable',
};

/** How often the line re-checks GET /api/health while shown. */
export const HEALTH_RECHECK_MS = 15_000;

/** A status line for GET /api/health: "Server: online" or "Server: unreachable". */
export function ServerStatus() {
  const [status, setStatus] = useState<Status>('checking');

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const ok = await checkHealth(controller.signal);
      if (controller.signal.aborted) return;
      setStatus(ok ? 'online' : 'unreachable');
      timer = setTimeout(() => void run(), HEALTH_RECHECK_MS);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, []);

  return (
    <p className={`server-status server-status--${status}`} role="status" aria-live="polite">
      <span className="server-status__dot" aria-hidden="true" />
      {TEXT[status]}
    </p>
  );
}
