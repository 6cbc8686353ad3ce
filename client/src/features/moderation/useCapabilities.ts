import { useEffect, useState } from 'react';
import { fetchCapabilities, type Capabilities } from './moderationApi';

/** The signed-in member's capabilities (moderator, admin); both false until known. */
export function useCapabilities(enabled: boolean): Capabilities {
  const [caps, setCaps] = useState<Capabilities>({ moderator: false, admin: false });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetchCapabilities()
      .then((c) => live && setCaps(c))
      .catch(() => undefined); // no link is the safe default
    return () => {
      live = false;
    };
  }, [enabled]);
  return caps;
}
