import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { getToken, tokenRotationSettled } from '../api/http';
import { authTokenAtom } from '../features/auth/authAtoms';
import { afterPaint } from '../lib/afterPaint';
import { redirectTo } from '../lib/redirect';
import { clearAuthStorage } from '../lib/storage';
import { realtimeClient } from './realtime';

/** docs/product.md §4: the realtime connection is open while signed in and closed when not. */
export function useRealtime(): void {
  const store = useStore();
  const token = useAtomValue(authTokenAtom);
  useEffect(() => {
    if (!token) return;
    const client = realtimeClient(store, {
      token,
      // docs/product.md §8.1: a refused token signs out — unless an e-mail or password
      // change just replaced it (the new token gets a socket of its own).
      onAuthError: () => {
        void tokenRotationSettled().then(() => {
          if (getToken() !== token) return;
          clearAuthStorage();
          redirectTo('/login');
        });
      },
    });
    const cancel = afterPaint(() => client.start());
    return () => {
      cancel();
      client.stop();
    };
  }, [store, token]);
}
