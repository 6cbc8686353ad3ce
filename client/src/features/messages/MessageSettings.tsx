import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { fetchMessageSettings, saveMessageSettings } from './actionsApi';
import { type AllowFrom } from './model';
import { ALLOW_FROM, MSG_NOT_E2E } from './view';
import './Messages.css';

/** Settings → Messages: "Who can message you" (friends can always). Saved as it is chosen. */
export function MessageSettings() {
  const [value, setValue] = useState<AllowFrom | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  useEffect(() => {
    let live = true;
    fetchMessageSettings()
      .then((v) => live && setValue(v))
      .catch((err: unknown) => {
        if (!live) return;
        setValue('friends');
        setError(isApiError(err) ? err.message : 'Could not load your setting.');
      });
    return () => {
      live = false;
    };
  }, []);

  const choose = async (next: AllowFrom) => {
    const before = value;
    setValue(next);
    setSaving(true);
    setError('');
    setDone('');
    try {
      setValue(await saveMessageSettings(next));
      setDone('Saved.');
    } catch (err) {
      setValue(before);
      setError(isApiError(err) ? err.message : 'Could not save your setting.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title">Messages</h2>
      <fieldset className="settings-choice" disabled={value === null || saving}>
        <legend className="settings-choice__legend">Who can message you</legend>
        {ALLOW_FROM.map((o) => (
          <label key={o.id} className="settings-choice__option">
            <input type="radio" name="allow-from" value={o.id} checked={value === o.id} onChange={() => void choose(o.id)} />
            <span>
              <span className="settings-choice__label">{o.label}</span>
              <span className="settings-choice__hint">{o.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <p className="muted">Friends can always message you. {MSG_NOT_E2E}</p>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {done && !error && (
        // info, not success: the success green on its tint is under 4.5:1 at this size.
        <p className="alert alert--info" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
