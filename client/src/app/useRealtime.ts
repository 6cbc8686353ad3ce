import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { SocketClient } from '../api/socket';
import { authTokenAtom } from '../features/auth/authAtoms';

/** Spec §4: the realtime connection is open while signed in and closed when not. */
export function useRealtime(): void {
  const store = useStore();
  const token = useAtomValue(authTokenAtom);
  useEffect(() => {
    if (!token) return;
    const client = new SocketClient({ store, token });
    client.start();
    return () => client.stop();
  }, [store, token]);
}
