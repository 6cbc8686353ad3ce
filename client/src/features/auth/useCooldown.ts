import { useCallback, useEffect, useState } from 'react';

/**
 * A countdown in whole seconds (the resend cooldown, docs/product.md §4: 60 s). Based on
 * an end time, so a throttled background tab still counts correctly.
 */
export function useCooldown(initialSeconds = 0): [remaining: number, start: (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState(() => (initialSeconds > 0 ? Date.now() + initialSeconds * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt <= Date.now()) return;
    const t = setInterval(() => {
      const n = Date.now();
      setNow(n);
      if (n >= endsAt) clearInterval(t);
    }, 250);
    return () => clearInterval(t);
  }, [endsAt]);

  const start = useCallback((seconds: number) => {
    const n = Date.now();
    setNow(n);
    setEndsAt(n + Math.max(0, seconds) * 1000);
  }, []);

  return [Math.max(0, Math.ceil((endsAt - now) / 1000)), start];
}
