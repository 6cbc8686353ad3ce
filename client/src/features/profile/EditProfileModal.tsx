import { useAtomValue, useSetAtom } from 'jotai';
import { useId, useRef, useState, type ReactNode } from 'react';
import { isApiError } from '../../api/http';
import { checkImageFile, IMAGE_ACCEPT } from '../../lib/imageFiles';
import { Avatar } from '../../ui/Avatar';
import { CameraIcon, TrashIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { DEFAULT_SKILL_PROFICIENCY, draftFromProfile, type ProfileDraft } from './model';
import { profileAtom, saveProfileAtom, uploadProfileAvatarAtom } from './profileAtoms';

export const MSG_UPDATE_FAILED = 'Failed to update profile.';
export const MSG_AVATAR_FAILED = 'Failed to upload avatar.';

function Field({ label, children, id }: { label: string; children: ReactNode; id: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** A text box with its label, for the modal's many fields. */
function Text({
  label,
  value,
  onChange,
  placeholder,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <Field label={label} id={id}>
      <input id={id} className="field__input" value={value} placeholder={placeholder} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/**
 * docs/product.md §2.14 Edit Profile: change photo, Name, Bio, Education (Degree,
 * Institution, Years), Location, Skills ('+ Add Skill', 0–100 sliders),
 * Achievements ('+ Add Achievement', numbered), interests comma-separated;
 * Cancel and 'Save Changes' ('Saving...'). docs/product.md §4: the draft is copied from
 * the profile; save sets the profile and closes.
 */
export function EditProfileModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const profile = useAtomValue(profileAtom);
  // Mounted only while open, so each opening copies the profile afresh.
  if (!open || !profile) return null;
  return <EditProfileForm key={profile.id} draftSource={draftFromProfile(profile)} onClose={onClose} />;
}

function EditProfileForm({ draftSource, onClose }: { draftSource: ProfileDraft; onClose: () => void }) {
  const profile = useAtomValue(profileAtom);
  const save = useSetAtom(saveProfileAtom);
  const uploadAvatar = useSetAtom(uploadProfileAvatarAtom);
  const [draft, setDraft] = useState<ProfileDraft>(draftSource);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const bioId = useId();
  const interestsId = useId();
  const fileId = useId();

  const set = <K extends keyof ProfileDraft>(k: K, v: ProfileDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const setEdu = (k: keyof ProfileDraft['education'], v: string) => setDraft((d) => ({ ...d, education: { ...d.education, [k]: v } }));

  const onPhoto = async (files: FileList | null) => {
    const file = files?.[0]; // docs/product.md §5: the first selected file only
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setUploading(0);
    try {
      await uploadAvatar(file, setUploading);
    } catch (err) {
      console.error('Avatar upload failed', err);
      setError(MSG_AVATAR_FAILED);
    } finally {
      setUploading(null);
    }
  };

  const submit = async () => {
    if (draft.name.trim() === '') {
      setError('Name is required');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await save(draft);
      onClose();
    } catch (err) {
      console.error('Profile update failed', err);
      const detail = isApiError(err) && err.status === 400 && err.serverMessage ? ` ${err.serverMessage}` : '';
      setError(MSG_UPDATE_FAILED + detail);
      setSaving(false);
    }
  };

  const busy = saving || uploading !== null;

  return (
    <Modal open onClose={onClose} closable={!saving} title="Edit Profile" size="lg" className="edit-profile">
      <form
        className="edit-profile__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <div className="edit-profile__photo">
          <Avatar name={draft.name || profile?.name || 'User'} url={profile?.avatar.thumbUrl || profile?.avatar.url} variants={profile?.avatar.variants} size={72} />
          <div>
            <label htmlFor={fileId} className={`button button--secondary button--sm${busy ? ' is-disabled' : ''}`}>
              <CameraIcon size={16} /> {uploading !== null ? `Uploading ${uploading}%` : 'Change photo'}
            </label>
            <input
              id={fileId}
              ref={fileRef}
              type="file"
              accept={IMAGE_ACCEPT}
              className="visually-hidden"
              data-testid="edit-avatar-input"
              disabled={busy}
              onChange={(e) => void onPhoto(e.target.files)}
            />
          </div>
        </div>

        <Text label="Name" value={draft.name} onChange={(v) => set('name', v)} maxLength={100} />
        <Field label="Bio" id={bioId}>
          <textarea
            id={bioId}
            className="textarea"
            value={draft.bio}
            placeholder="Tell others about yourself"
            maxLength={500}
            onChange={(e) => set('bio', e.target.value)}
          />
        </Field>

        <fieldset className="edit-profile__group">
          <legend>Education</legend>
          <div className="edit-profile__row">
            <Text label="Degree" value={draft.education.degree} onChange={(v) => setEdu('degree', v)} maxLength={100} />
            <Text label="Institution" value={draft.education.institution} onChange={(v) => setEdu('institution', v)} maxLength={100} />
            <Text label="Years" value={draft.education.years} onChange={(v) => setEdu('years', v)} placeholder="2020 - 2024" maxLength={50} />
          </div>
        </fieldset>

        <Text label="Location" value={draft.location} onChange={(v) => set('location', v)} maxLength={100} />

        <fieldset className="edit-profile__group">
          <legend>Skills</legend>
          {draft.skills.map((s, i) => (
            <div key={i} className="edit-profile__skill">
              <input
                className="field__input"
                value={s.name}
                placeholder="Skill"
                aria-label={`Skill ${i + 1} name`}
                maxLength={50}
                onChange={(e) => set('skills', draft.skills.map((x, k) => (k === i ? { ...x, name: e.target.value } : x)))}
              />
              <input
                type="range"
                min={0}
                max={100}
                step={1}
                value={s.proficiency}
                aria-label={`Skill ${i + 1} proficiency`}
                onChange={(e) =>
                  set('skills', draft.skills.map((x, k) => (k === i ? { ...x, proficiency: Number(e.target.value) } : x)))
                }
              />
              <span className="edit-profile__pct" aria-hidden="true">
                {s.proficiency}%
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove skill ${i + 1}`}
                onClick={() => set('skills', draft.skills.filter((_, k) => k !== i))}
              >
                <TrashIcon size={18} />
              </button>
            </div>
          ))}
          <button
            type="button"
            className="link-button edit-profile__add"
            onClick={() => set('skills', [...draft.skills, { name: '', proficiency: DEFAULT_SKILL_PROFICIENCY }])}
          >
            + Add Skill
          </button>
        </fieldset>

        <fieldset className="edit-profile__group">
          <legend>Achievements</legend>
          {draft.achievements.map((a, i) => {
            const upd = (k: 'title' | 'description' | 'year', v: string) =>
              set('achievements', draft.achievements.map((x, n) => (n === i ? { ...x, [k]: v } : x)));
            return (
              <div key={i} className="edit-profile__achievement">
                <div className="edit-profile__achievement-head">
                  <span className="edit-profile__number">Achievement {i + 1}</span>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove achievement ${i + 1}`}
                    onClick={() => set('achievements', draft.achievements.filter((_, n) => n !== i))}
                  >
                    <TrashIcon size={18} />
                  </button>
                </div>
                <input className="field__input" value={a.title} placeholder="Title" aria-label={`Achievement ${i + 1} title`} maxLength={100} onChange={(e) => upd('title', e.target.value)} />
                <textarea
                  className="textarea edit-profile__desc"
                  value={a.description}
                  placeholder="Description"
                  aria-label={`Achievement ${i + 1} description`}
                  maxLength={500}
                  onChange={(e) => upd('description', e.target.value)}
                />
                <input className="field__input" value={a.year} placeholder="Year" aria-label={`Achievement ${i + 1} year`} maxLength={20} onChange={(e) => upd('year', e.target.value)} />
              </div>
            );
          })}
          <button
            type="button"
            className="link-button edit-profile__add"
            onClick={() => set('achievements', [...draft.achievements, { title: '', description: '', year: '' }])}
          >
            + Add Achievement
          </button>
        </fieldset>

        <Field label="Hobbies & Interests" id={interestsId}>
          <input
            id={interestsId}
            className="field__input"
            value={draft.interests}
            placeholder="e.g. Photography, Chess, Robotics"
            onChange={(e) => set('interests', e.target.value)}
          />
          <p className="field__hint">Separate interests with commas.</p>
        </Field>

        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}

        <div className="edit-profile__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
