import { useAtomValue, useSetAtom } from 'jotai';
import { useId, useState } from 'react';
import { checkImageFile, IMAGE_ACCEPT } from '../../lib/imageFiles';
import { Avatar } from '../../ui/Avatar';
import { CameraIcon, ImageIcon } from '../../ui/icons';
import { currentUserAtom, updateCurrentUserAtom } from '../auth/authAtoms';
import { AuthCard } from '../auth/AuthCard';
import { onboardingAtom, updateOnboardingAtom } from './onboardingAtoms';
import { uploadAvatar, uploadCover } from './profileApi';
import './Onboarding.css';

export const MSG_PICTURE_REQUIRED = 'Please upload a profile picture';
export const MSG_AVATAR_UPLOAD_FAILED = 'Failed to upload avatar.';
export const MSG_COVER_UPLOAD_FAILED = 'Failed to upload cover photo. Please try again.';
const BIO_MAX = 500;

/** Uploads one picked picture with a percentage; returns the error to show, if any. */
function usePictureUpload<T>(send: (f: File, progress: (p: number) => void) => Promise<T>, failure: string) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (file: File): Promise<T | null> => {
    const invalid = checkImageFile(file);
    if (invalid) {
      setError(invalid);
      return null;
    }
    setError(null);
    setProgress(0);
    try {
      return await send(file, setProgress);
    } catch (err) {
      // Offline and timeouts say so (docs/product.md §8.1); anything else is the upload's own message.
      const e = err as { kind?: string; message?: string };
      setError(e.kind === 'network' || e.kind === 'timeout' ? (e.message ?? failure) : failure);
      return null;
    } finally {
      setProgress(null);
    }
  };
  return { progress, error, setError, run };
}

/** docs/product.md §2.7 step 1: a required profile picture, or 'Skip profile setup'. */
function PictureStep() {
  const user = useAtomValue(currentUserAtom);
  const state = useAtomValue(onboardingAtom);
  const update = useSetAtom(updateOnboardingAtom);
  const updateUser = useSetAtom(updateCurrentUserAtom);
  const inputId = useId();
  const upload = usePictureUpload(uploadAvatar, MSG_AVATAR_UPLOAD_FAILED);
  const avatar = state?.avatar ?? null;
  const busy = upload.progress !== null;

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    const img = await upload.run(file);
    if (img) {
      update({ avatar: img });
      // docs/product.md §4: uploads take effect at once and update the signed-in user.
      updateUser({ avatar: img });
    }
  };

  return (
    <AuthCard title="Add a profile picture" subtitle="Step 1 of 2 · Help friends recognise you.">
      <div className="onboarding">
        <div className="onboarding__avatar">
          <Avatar name={user?.name ?? 'User'} url={avatar?.url} size={128} />
          <label htmlFor={inputId} className={`onboarding__avatar-pick${busy ? ' is-disabled' : ''}`}>
            <CameraIcon />
            <span className="visually-hidden">Choose profile picture</span>
          </label>
        </div>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={busy}
          onChange={(e) => {
            void onPick(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="avatar-input"
        />
        <label htmlFor={inputId} className={`button button--secondary${busy ? ' is-disabled' : ''}`}>
          <ImageIcon /> {avatar ? 'Change photo' : 'Upload photo'}
        </label>
        {busy && (
          <div className="onboarding__progress" role="status">
            <div className="progress">
              <div className="progress__bar" style={{ width: `${upload.progress}%` }} />
            </div>
            <span>Uploading… {upload.progress}%</span>
          </div>
        )}
        {upload.error && (
          <p className="alert alert--error" role="alert">
            {upload.error}
          </p>
        )}
        <button
          type="button"
          className="button button--primary button--block"
          disabled={busy}
          onClick={() => {
            if (!avatar) {
              upload.setError(MSG_PICTURE_REQUIRED);
              return;
            }
            update({ step: 'details', skipped: false });
          }}
        >
          Continue
        </button>
        <button type="button" className="link-button" onClick={() => update({ step: 'people', skipped: true })} disabled={busy}>
          Skip profile setup
        </button>
      </div>
    </AuthCard>
  );
}

/** docs/product.md §2.7 step 2: optional cover photo and bio; 'Skip for Now' or 'Complete Profile'. */
function DetailsStep() {
  const state = useAtomValue(onboardingAtom);
  const update = useSetAtom(updateOnboardingAtom);
  const updateUser = useSetAtom(updateCurrentUserAtom);
  const inputId = useId();
  const bioId = useId();
  const upload = usePictureUpload(uploadCover, MSG_COVER_UPLOAD_FAILED);
  const [bio, setBio] = useState(state?.bio ?? '');
  const cover = state?.coverPhoto ?? null;
  const busy = upload.progress !== null;

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    const img = await upload.run(file);
    if (img) {
      update({ coverPhoto: img });
      updateUser({ coverPhoto: img });
    }
  };

  return (
    <AuthCard title="Finish your profile" subtitle="Step 2 of 2 · Both are optional." wide>
      <div className="onboarding">
        <div className="onboarding__cover">
          {cover ? <img src={cover.url} alt="Your cover photo" /> : <span className="onboarding__cover-empty">No cover photo yet</span>}
          <label htmlFor={inputId} className={`button button--secondary button--sm onboarding__cover-pick${busy ? ' is-disabled' : ''}`}>
            <CameraIcon size={16} /> {cover ? 'Change cover photo' : 'Add cover photo'}
          </label>
        </div>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={busy}
          onChange={(e) => {
            void onPick(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="cover-input"
        />
        {busy && (
          <div className="onboarding__progress" role="status">
            <div className="progress">
              <div className="progress__bar" style={{ width: `${upload.progress}%` }} />
            </div>
            <span>Uploading… {upload.progress}%</span>
          </div>
        )}
        {upload.error && (
          <p className="alert alert--error" role="alert">
            {upload.error}
          </p>
        )}
        <div className="field onboarding__bio">
          <label className="field__label" htmlFor={bioId}>
            Bio
          </label>
          <textarea
            id={bioId}
            className="textarea"
            placeholder="Tell others about yourself"
            maxLength={BIO_MAX}
            value={bio}
            onChange={(e) => setBio(e.target.value)}
          />
          <p className="field__hint onboarding__counter">
            {bio.length}/{BIO_MAX}
          </p>
        </div>
        <div className="onboarding__actions">
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => update({ step: 'people', bio: '', coverPhoto: null })}>
            Skip for Now
          </button>
          <button type="button" className="button button--primary" disabled={busy} onClick={() => update({ step: 'people', bio: bio.trim() })}>
            Complete Profile
          </button>
        </div>
      </div>
    </AuthCard>
  );
}

/** docs/product.md §2.7 Profile setup, steps 1 and 2. */
export function ProfileSetupPage() {
  const state = useAtomValue(onboardingAtom);
  return state?.step === 'details' ? <DetailsStep /> : <PictureStep />;
}
