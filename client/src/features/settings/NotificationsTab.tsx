import { useEffect, useId, useState } from 'react';
import { isApiError } from '../../api/http';
import {
  disablePush,
  enablePush,
  MSG_PUSH_DENIED,
  MSG_PUSH_FAILED,
  MSG_PUSH_UNSUPPORTED,
  PushError,
  pushState,
  type PushState,
} from '../push/push';

/**
 * Settings: "Push notifications" for this device only (issue 16): on, the
 * device shows a notification when something happens while no Campus tab is
 * open; another device keeps its own choice.
 */
export function NotificationsTab() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const hintId = useId();

  useEffect(() => {
    let live = true;
    void pushState().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);

  const toggle = async () => {
    if (state !== 'on' && state !== 'off') return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      if (state === 'on') {
        await disablePush();
        setDone('Push notifications are off on this device.');
      } else {
        await enablePush();
        setDone('Push notifications are on for this device.');
      }
    } catch (err) {
      setError(err instanceof PushError || isApiError(err) ? err.message : MSG_PUSH_FAILED);
      console.warn('Push toggle failed', err);
    } finally {
      setState(await pushState());
      setBusy(false);
    }
  };

  const on = state === 'on';
  const note = state === 'unsupported' ? MSG_PUSH_UNSUPPORTED : state === 'denied' ? MSG_PUSH_DENIED : null;
  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title">Notifications</h2>
      <div className="settings-switch">
        <label className="settings-switch__row">
          <span className="settings-switch__text">
            <span className="settings-switch__label">Push notifications</span>
            <span className="settings-switch__hint" id={hintId}>
              Get notified on this device when you don’t have Campus open. Applies to this device only.
            </span>
          </span>
          <input
            type="checkbox"
            role="switch"
            className="settings-switch__input"
            checked={on}
            aria-checked={on}
            aria-describedby={hintId}
            disabled={busy || state === null || state === 'unsupported' || state === 'denied'}
            onChange={() => void toggle()}
          />
        </label>
      </div>
      {note && !error && (
        <p className="alert alert--info" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {done && !error && (
        <p className="alert alert--success" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
