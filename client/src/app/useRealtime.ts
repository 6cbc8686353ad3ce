import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { getToken, isApiError, tokenRotationSettled } from '../api/http';
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
      // A 1008 close says nothing of why (a bad token, or a flood of frames);
      // one call with the token asks. Its 401 signs out (a suspended
      // account's says why, and the login page shows it); any other answer
      // means the token holds, and the socket connects again with backoff.
      onAuthError: (stillSignedIn) => {
        void tokenRotationSettled().then(async () => {
          if (getToken() !== token) return;
          try {
            await fetchMe();
          } catch (e) {
            if (isApiError(e) && e.status === 401) {
              clearAuthStorage();
              redirectTo('/login');
              return;
            }
          }
          stillSignedIn();
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
