import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { getToken, tokenRotationSettled } from '../api/http';
import { authTokenAtom } from '../features/auth/authAtoms';
import { fetchMe } from '../features/auth/authApi';
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
      // The close says nothing of why; one call with the token asks, and
      // the 401 of a suspended account says why and signs out with it (the
      // login page shows it). Whatever that answers, the tab signs out.
      onAuthError: () => {
        void tokenRotationSettled().then(async () => {
          if (getToken() !== token) return;
          try {
            await fetchMe();
          } catch {
            // A 401 was handled (signed out with its reason); anything else changes nothing here.
          }
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
