import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useId, useRef, useState } from 'react';
import { navigateAtom, readStoredProfileTab, routeAtom, setStoredProfileTab, type ProfileTab } from '../../lib/navigation';
import { checkImageFile, IMAGE_ACCEPT } from '../../lib/imageFiles';
import { Avatar } from '../../ui/Avatar';
import { CameraIcon, SettingsIcon } from '../../ui/icons';
import { useRecover } from '../../ui/connectivity';
import { OfflineNotice } from '../../ui/OfflineNotice';
import { showToastAtom } from '../../ui/toast';
import { friendshipVersionAtom } from '../friends/friendsAtoms';
import { CreatePostDialog } from '../posts/CreatePostDialog';
import { EditProfileModal, MSG_AVATAR_FAILED } from './EditProfileModal';
import { capitalize, profileYear, type Profile } from './model';
import { MakeModerator } from '../moderation/MakeModerator';
import { ProfileSafety } from '../safety/ProfileSafety';
import { MessageButton } from '../messages/MessageButton';
import { ConnectButton, ProfileLikeButton } from './ProfileActions';
import {
  profileOfflineSavedAtAtom,
  isOwnProfileAtom,
  loadProfileAtom,
  profileAtom,
  profileKeyAtom,
  profileLikeAtom,
  profilePostsCountAtom,
  profileStatusAtom,
  reloadProfileFriendsAtom,
  uploadProfileAvatarAtom,
  uploadProfileCoverAtom,
} from './profileAtoms';
import { AboutTab, CollectionsTab, FriendsTab, MemoriesTab } from './ProfileTabs';
import './Profile.css';

/** What a moderator sees on a suspended account's profile (nobody else sees it). */
export const MSG_PROFILE_SUSPENDED =
  'This account is suspended: it and everything it wrote are hidden from everyone but moderators until the suspension ends.';

export const MSG_COVER_FAILED = 'Failed to upload cover photo. Please try again.';

const TABS: ReadonlyArray<{ id: ProfileTab; label: string }> = [
  { id: 'memories', label: 'Memories' },
  { id: 'collections', label: 'Collections' },
  { id: 'friends', label: 'Friends' },
  { id: 'about', label: 'About' },
];

/** A hidden image picker behind a label-button; the first selected file only (docs/product.md §5). */
function ImagePicker({
  label,
  testId,
  className,
  busyText,
  onFile,
  children,
}: {
  label: string;
  testId: string;
  className: string;
  busyText: string | null;
  onFile: (f: File) => void;
  children: React.ReactNode;
}) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <>
      <label htmlFor={id} className={`${className}${busyText !== null ? ' is-disabled' : ''}`} title={label}>
        {children}
        <span className="visually-hidden">{busyText ?? label}</span>
      </label>
      <input
        id={id}
        ref={ref}
        type="file"
        accept={IMAGE_ACCEPT}
        className="visually-hidden"
        data-testid={testId}
        disabled={busyText !== null}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (ref.current) ref.current.value = '';
          if (f) onFile(f);
        }}
      />
    </>
  );
}

function StatTile({ label, value, onClick }: { label: string; value: string | number; onClick?: () => void }) {
  const content = (
    <>
      <span className="profile-stat__value">{value}</span>
      <span className="profile-stat__label">{label}</span>
    </>
  );
  return onClick ? (
    <button type="button" className="profile-stat profile-stat--button" onClick={onClick}>
      {content}
    </button>
  ) : (
    <div className="profile-stat">{content}</div>
  );
}

function ProfileHeader({ profile, own, onTab, onEdit }: { profile: Profile; own: boolean; onTab: (t: ProfileTab) => void; onEdit: () => void }) {
  const navigate = useSetAtom(navigateAtom);
  const uploadAvatar = useSetAtom(uploadProfileAvatarAtom);
  const uploadCover = useSetAtom(uploadProfileCoverAtom);
  const toast = useSetAtom(showToastAtom);
  const postsCount = useAtomValue(profilePostsCountAtom);
  const like = useAtomValue(profileLikeAtom);
  const [avatarBusy, setAvatarBusy] = useState<number | null>(null);
  const [coverBusy, setCoverBusy] = useState<number | null>(null);

  const pick = async (file: File, which: 'avatar' | 'cover') => {
    const problem = checkImageFile(file);
    if (problem) {
      toast({ message: problem, tone: 'error', ms: 5000 });
      return;
    }
    const setBusy = which === 'avatar' ? setAvatarBusy : setCoverBusy;
    setBusy(0);
    try {
      await (which === 'avatar' ? uploadAvatar(file, setBusy) : uploadCover(file, setBusy));
    } catch (err) {
      console.error(`${which} upload failed`, err);
      toast({ message: which === 'avatar' ? MSG_AVATAR_FAILED : MSG_COVER_FAILED, tone: 'error', ms: 5000 });
    } finally {
      setBusy(null);
    }
  };

  const isFaculty = profile.role === 'faculty';

  return (
    <header className="card profile-header">
      <div className="profile-cover">
        {profile.coverPhoto.url ? <img className="profile-cover__img" src={profile.coverPhoto.url} alt={`${profile.name}'s cover photo`} /> : null}
        {own && (
          <ImagePicker
            label="Change cover photo"
            testId="profile-cover-input"
            className="button button--secondary button--sm profile-cover__edit"
            busyText={coverBusy !== null ? `Uploading ${coverBusy}%` : null}
            onFile={(f) => void pick(f, 'cover')}
          >
            <CameraIcon size={16} /> <span className="profile-cover__edit-text">{coverBusy !== null ? `Uploading ${coverBusy}%` : 'Edit cover'}</span>
          </ImagePicker>
        )}
      </div>

      <div className="profile-header__main">
        <div className="profile-header__avatar">
          <Avatar name={profile.name} url={profile.avatar.thumbUrl || profile.avatar.url} variants={profile.avatar.variants} size={128} />
          {own && (
            <ImagePicker
              label="Change profile photo"
              testId="profile-avatar-input"
              className="profile-header__avatar-pick"
              busyText={avatarBusy !== null ? `Uploading ${avatarBusy}%` : null}
              onFile={(f) => void pick(f, 'avatar')}
            >
              {avatarBusy !== null ? <span className="spinner" aria-hidden="true" /> : <CameraIcon size={18} />}
            </ImagePicker>
          )}
        </div>

        <div className="profile-header__info">
          <h1 className="profile-header__name">{profile.name}</h1>
          <p className="profile-header__meta">
            {/* What @mentions name them by (issue 27). */}
            {profile.handle && <span className="profile-header__handle">@{profile.handle}</span>}
            <span className="profile-header__role">{capitalize(profile.role)}</span>
            {!isFaculty && profile.universityId && <span>{profile.universityId}</span>}
            {isFaculty && profile.department && <span>{profile.department}</span>}
            {profile.location && <span>{profile.location}</span>}
          </p>
          {profile.bio && <p className="profile-header__bio">{profile.bio}</p>}
          {profile.suspended && (
            <p className="alert alert--info" role="status">
              {MSG_PROFILE_SUSPENDED}
            </p>
          )}
        </div>

        <div className="profile-header__actions">
          {own ? (
            <>
              <button type="button" className="button button--primary" onClick={onEdit}>
                Edit Profile
              </button>
              <button type="button" className="icon-button profile-header__settings" onClick={() => navigate({ page: 'settings' })} aria-label="Settings">
                <SettingsIcon />
              </button>
            </>
          ) : (
            <>
              <ConnectButton user={profile} />
              <MessageButton userId={profile.id} name={profile.name} />
              <ProfileLikeButton name={profile.name} />
              <ProfileSafety userId={profile.id} name={profile.name} />
              <MakeModerator userId={profile.id} name={profile.name} />
            </>
          )}
        </div>
      </div>

      <div className="profile-stats">
        <StatTile label="Memories" value={postsCount} onClick={() => onTab('memories')} />
        <StatTile label="Friends" value={profile.friendsCount} onClick={() => onTab('friends')} />
        <StatTile label="Year" value={profileYear(profile.universityId)} onClick={() => onTab('about')} />
        <StatTile label="Likes" value={like.count} />
      </div>
    </header>
  );
}

/**
 * docs/product.md §2.14 Profile screen: the viewed user (the route's id) or else the
 * own profile. 'Loading profile...' while it loads, 'Profile not found' when
 * there is none; header, stat tiles and four tabs (memories by default and
 * remembered, collections, friends, about).
 */
export function ProfilePage() {
  const route = useAtomValue(routeAtom);
  const userId = route.page === 'profile' ? (route.userId ?? null) : null;
  const load = useSetAtom(loadProfileAtom);
  const stateKey = useAtomValue(profileKeyAtom);
  const loadedStatus = useAtomValue(profileStatusAtom);
  // Until the load for this route starts, the state may still be the previous profile's.
  const status = stateKey === (userId ?? '') ? loadedStatus : 'loading';
  const profile = useAtomValue(profileAtom);
  const own = useAtomValue(isOwnProfileAtom);
  const navigate = useSetAtom(navigateAtom);
  const [tab, setTabState] = useState<ProfileTab>(() => readStoredProfileTab());
  const [editing, setEditing] = useState(false);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void load(userId);
  }, [load, userId]);
  // Offline (or no server answered): load again when the network is back.
  const offlineSavedAt = useAtomValue(profileOfflineSavedAtAtom);
  useRecover(status === 'offline' || offlineSavedAt !== '', () => void load(userId));

  // A friendship changed (here, elsewhere, or live): the friends tab and count follow.
  const version = useAtomValue(friendshipVersionAtom);
  const reloadFriends = useSetAtom(reloadProfileFriendsAtom);
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    seenVersion.current = version;
    void reloadFriends();
  }, [version, reloadFriends]);

  const setTab = (t: ProfileTab) => {
    setTabState(t);
    setStoredProfileTab(t);
  };

  if (status === 'offline') {
    return (
      <section className="card empty-state profile-missing" aria-labelledby="profile-offline-title">
        <h1 id="profile-offline-title" className="empty-state__title">
          Profile unavailable offline
        </h1>
        <OfflineNotice savedAt="" what="this profile" />
      </section>
    );
  }

  if (status === 'notfound' || (status === 'ready' && !profile)) {
    return (
      <section className="card empty-state profile-missing" aria-labelledby="profile-missing-title">
        <h1 id="profile-missing-title" className="empty-state__title">
          Profile not found
        </h1>
        <p className="empty-state__text">This profile doesn't exist or is no longer available.</p>
        <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'feed' })}>
          Back to feed
        </button>
      </section>
    );
  }

  if (status === 'loading' || !profile) {
    return (
      <div className="profile-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <p>Loading profile...</p>
      </div>
    );
  }

  return (
    <div className="profile">
      {offlineSavedAt && <OfflineNotice savedAt={offlineSavedAt} what="this profile" />}
      <ProfileHeader profile={profile} own={own} onTab={setTab} onEdit={() => setEditing(true)} />
      <div className="profile-tabs card" role="tablist" aria-label="Profile sections">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`profile-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="profile-tabpanel"
            className={`profile-tabs__tab${tab === t.id ? ' is-active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id="profile-tabpanel" role="tabpanel" aria-labelledby={`profile-tab-${tab}`} className="profile-panel">
        {tab === 'memories' && <MemoriesTab own={own} onCreate={() => setCreating(true)} />}
        {tab === 'collections' && <CollectionsTab own={own} onAddPhoto={() => setCreating(true)} name={profile.name} />}
        {tab === 'friends' && <FriendsTab own={own} />}
        {tab === 'about' && <AboutTab profile={profile} />}
      </div>
      {own && (
        <>
          <EditProfileModal open={editing} onClose={() => setEditing(false)} />
          <CreatePostDialog open={creating} onClose={() => setCreating(false)} />
        </>
      )}
    </div>
  );
}
