import { useSetAtom } from 'jotai';
import { useEffect, useId, useRef, useState } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import { createGroupAtom, setGroupChatAtom, updateGroupAtom } from './groupsAtoms';
import {
  DESCRIPTION_MAX,
  draftBody,
  draftOf,
  EMPTY_DRAFT,
  GROUP_KINDS,
  GROUP_VISIBILITIES,
  handleFromName,
  KIND_LABELS,
  NAME_MAX,
  validateDraft,
  VISIBILITY_HELP,
  VISIBILITY_LABELS,
  type DraftErrors,
  type Group,
  type GroupDraft,
} from './model';

const FIELDS: ReadonlyArray<keyof DraftErrors> = ['name', 'handle', 'description', 'startsAt', 'endsAt', 'course'];

/** The server's field errors, on the fields they name (unknown ones go to the form's alert). */
function serverErrors(err: unknown): { fields: DraftErrors; other: string | null } {
  if (!isApiError(err)) return { fields: {}, other: err instanceof Error ? err.message : String(err) };
  const fields: DraftErrors = {};
  for (const f of FIELDS) {
    const msg = err.fieldMessage(f);
    if (msg) fields[f] = msg;
  }
  return { fields, other: Object.keys(fields).length > 0 ? null : err.message };
}

function FieldError({ id, msg }: { id: string; msg: string | undefined }) {
  if (!msg) return null;
  return (
    <span id={id} className="group-form__error">
      {msg}
    </span>
  );
}

/**
 * The group's chat, on or off (its admins): a conversation of its members
 * that follows who joins and leaves. It acts at once, apart from the form's
 * Save (a call of its own).
 */
function GroupChatSwitch({ group }: { group: Group }) {
  const setChat = useSetAtom(setGroupChatAtom);
  const toast = useSetAtom(showToastAtom);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const on = group.chatEnabled;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await setChat({ handle: group.handle, enabled: !on });
      toast({ message: on ? 'Group chat switched off' : 'Group chat switched on', tone: 'success' });
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not change the group chat. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="field group-form__chat">
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={`${id}-help`}
        className={`button button--secondary group-follow${on ? ' is-on' : ''}`}
        disabled={busy}
        onClick={() => void toggle()}
      >
        <span className="group-follow__track" aria-hidden="true">
          <span className="group-follow__thumb" />
        </span>
        Group chat
      </button>
      <span id={`${id}-help`} className="group-form__help">
        A conversation of the group's members that follows who joins and leaves. Switched off, its history is kept. This
        changes at once.
      </span>
      {error && (
        <span className="group-form__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * Create a group (no `group`) or edit one: name, handle (fixed once made),
 * description, kind (fixed once made), visibility, an event's start and end,
 * a course's program and batch (members of that program and batch join in
 * one click).
 */
export function GroupFormDialog({ open, onClose, group }: { open: boolean; onClose: () => void; group?: Group }) {
  const creating = !group;
  const create = useSetAtom(createGroupAtom);
  const update = useSetAtom(updateGroupAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);
  const [draft, setDraft] = useState<GroupDraft>(group ? draftOf(group) : EMPTY_DRAFT);
  const [handleEdited, setHandleEdited] = useState(false);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  // Each opening starts from the group as it is then (or empty); a refresh
  // of the group while the dialog is open must not wipe what is being typed.
  const groupRef = useRef(group);
  groupRef.current = group;
  useEffect(() => {
    if (!open) return;
    const g = groupRef.current;
    setDraft(g ? draftOf(g) : EMPTY_DRAFT);
    setHandleEdited(false);
    setErrors({});
    setFormError(null);
  }, [open]);

  const set = <K extends keyof GroupDraft>(k: K, v: GroupDraft[K]) => {
    setDraft((d) => {
      const next = { ...d, [k]: v };
      if (k === 'name' && creating && !handleEdited) next.handle = handleFromName(String(v));
      return next;
    });
  };

  const submit = async () => {
    const problems = validateDraft(draft, creating);
    setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      if (group) {
        await update({ handle: group.handle, body: draftBody(draft, false) });
        toast({ message: 'Group updated', tone: 'success' });
        onClose();
      } else {
        const g = await create(draftBody(draft, true));
        onClose();
        navigate({ page: 'group', handle: g.handle });
      }
    } catch (err) {
      const { fields, other } = serverErrors(err);
      setErrors(fields);
      setFormError(other);
    } finally {
      setBusy(false);
    }
  };

  const described = (k: keyof DraftErrors, extra?: string) =>
    [errors[k] ? `${id}-${k}-err` : '', extra ?? ''].filter(Boolean).join(' ') || undefined;

  return (
    <Modal open={open} onClose={onClose} closable={!busy} title={creating ? 'Create group' : 'Edit group'} size="md" className="group-form">
      <form
        className="group-form__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className="field__input"
            value={draft.name}
            maxLength={NAME_MAX}
            onChange={(e) => set('name', e.target.value)}
            aria-invalid={!!errors.name}
            aria-describedby={described('name')}
            disabled={busy}
            required
            data-autofocus
          />
          <FieldError id={`${id}-name-err`} msg={errors.name} />
        </div>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-handle`}>
            Handle
          </label>
          <div className="group-form__handle">
            <span className="group-form__prefix" aria-hidden="true">
              /g/
            </span>
            <input
              id={`${id}-handle`}
              className="field__input"
              value={draft.handle}
              maxLength={30}
              onChange={(e) => {
                setHandleEdited(true);
                set('handle', e.target.value.toLowerCase());
              }}
              aria-invalid={!!errors.handle}
              aria-describedby={described('handle', `${id}-handle-help`)}
              disabled={busy || !creating}
              autoCapitalize="none"
              spellCheck={false}
            />
          </div>
          <span id={`${id}-handle-help`} className="group-form__help">
            {creating ? "The group's address. It can't be changed later." : "The group's address; it can't be changed."}
          </span>
          <FieldError id={`${id}-handle-err`} msg={errors.handle} />
        </div>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-description`}>
            Description
          </label>
          <textarea
            id={`${id}-description`}
            className="textarea"
            rows={3}
            maxLength={DESCRIPTION_MAX}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
            aria-invalid={!!errors.description}
            aria-describedby={described('description')}
            disabled={busy}
          />
          <FieldError id={`${id}-description-err`} msg={errors.description} />
        </div>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-kind`}>
            Kind
          </label>
          <select
            id={`${id}-kind`}
            className="field__input"
            value={draft.kind}
            onChange={(e) => set('kind', e.target.value as GroupDraft['kind'])}
            disabled={busy || !creating}
          >
            {GROUP_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="group-form__fieldset">
          <legend className="field__label">Visibility</legend>
          {GROUP_VISIBILITIES.map((v) => (
            <label key={v} className="group-form__choice">
              <input
                type="radio"
                name={`${id}-visibility`}
                value={v}
                checked={draft.visibility === v}
                onChange={() => set('visibility', v)}
                disabled={busy}
              />
              <span>
                <span className="group-form__choice-title">{VISIBILITY_LABELS[v]}</span>
                <span className="group-form__help">{VISIBILITY_HELP[v]}</span>
              </span>
            </label>
          ))}
        </fieldset>

        {draft.kind === 'event' && (
          <div className="group-form__row">
            <div className="field">
              <label className="field__label" htmlFor={`${id}-starts`}>
                Starts
              </label>
              <input
                id={`${id}-starts`}
                type="datetime-local"
                className="field__input"
                value={draft.startsAt}
                onChange={(e) => set('startsAt', e.target.value)}
                aria-invalid={!!errors.startsAt}
                aria-describedby={described('startsAt')}
                disabled={busy}
              />
              <FieldError id={`${id}-startsAt-err`} msg={errors.startsAt} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-ends`}>
                Ends
              </label>
              <input
                id={`${id}-ends`}
                type="datetime-local"
                className="field__input"
                value={draft.endsAt}
                onChange={(e) => set('endsAt', e.target.value)}
                aria-invalid={!!errors.endsAt}
                aria-describedby={described('endsAt')}
                disabled={busy}
              />
              <FieldError id={`${id}-endsAt-err`} msg={errors.endsAt} />
            </div>
          </div>
        )}

        {draft.kind === 'course' && (
          <fieldset className="group-form__fieldset">
            <legend className="field__label">Open to a course</legend>
            <span id={`${id}-course-help`} className="group-form__help">
              Students whose university ID has this program and batch (like BWU/BCA/20/…) join in one click. Leave empty to
              approve each one.
            </span>
            <div className="group-form__row">
              <div className="field">
                <label className="field__label" htmlFor={`${id}-program`}>
                  Program
                </label>
                <input
                  id={`${id}-program`}
                  className="field__input"
                  value={draft.program}
                  placeholder="BCA"
                  onChange={(e) => set('program', e.target.value)}
                  aria-invalid={!!errors.course}
                  aria-describedby={described('course', `${id}-course-help`)}
                  disabled={busy}
                />
              </div>
              <div className="field">
                <label className="field__label" htmlFor={`${id}-batch`}>
                  Batch
                </label>
                <input
                  id={`${id}-batch`}
                  className="field__input"
                  value={draft.batch}
                  placeholder="20"
                  inputMode="numeric"
                  onChange={(e) => set('batch', e.target.value)}
                  aria-invalid={!!errors.course}
                  aria-describedby={described('course', `${id}-course-help`)}
                  disabled={busy}
                />
              </div>
            </div>
            <FieldError id={`${id}-course-err`} msg={errors.course} />
          </fieldset>
        )}

        {group && <GroupChatSwitch group={group} />}

        {formError && (
          <p className="alert alert--error" role="alert">
            {formError}
          </p>
        )}

        <div className="group-form__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? (creating ? 'Creating…' : 'Saving…') : creating ? 'Create group' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
