import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo, useState } from 'react';
import { userSubtitle } from '../../api/models';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { srcOf } from '../../lib/srcset';
import { ImageIcon, PlusUserIcon } from '../../ui/icons';
import { ImageViewer } from '../../ui/ImageViewer';
import { SearchField } from '../../ui/SearchField';
import { PostSkeleton, Skeleton } from '../../ui/Skeleton';
import { Composer } from '../posts/Composer';
import { PostCard } from '../posts/PostCard';
import type { Profile } from './model';
import { SavedPosts } from './SavedPosts';
import {
  loadMoreProfilePostsAtom,
  profileFriendsAtom,
  profileHasMorePostsAtom,
  profileImagesAtom,
  profileLoadingMoreAtom,
  profilePostIdsAtom,
  profilePostsStatusAtom,
} from './profileAtoms';

/** docs/product.md §2.14 Memories: the user's posts; the create-post modal on the own profile. */
export function MemoriesTab({ own, onCreate }: { own: boolean; onCreate: () => void }) {
  const ids = useAtomValue(profilePostIdsAtom);
  const status = useAtomValue(profilePostsStatusAtom);
  const hasMore = useAtomValue(profileHasMorePostsAtom);
  const loadingMore = useAtomValue(profileLoadingMoreAtom);
  const loadMore = useSetAtom(loadMoreProfilePostsAtom);
  return (
    <div className="profile-memories">
      {own && <Composer onOpen={onCreate} />}
      {status === 'loading' && ids.length === 0 && <PostSkeleton />}
      {status === 'ready' && ids.length === 0 && (
        <div className="card empty-state">
          <p className="empty-state__title">No memories shared yet</p>
          <p className="empty-state__text">
            {own ? 'Start sharing your university moments with friends!' : "This user hasn't shared any memories yet."}
          </p>
          {own && (
            <button type="button" className="button button--primary" onClick={onCreate}>
              Share Your First Memory
            </button>
          )}
        </div>
      )}
      {ids.map((id) => (
        <PostCard key={id} postId={id} />
      ))}
      {loadingMore && <PostSkeleton />}
      {hasMore && !loadingMore && ids.length > 0 && (
        <button type="button" className="button button--secondary button--block" onClick={() => void loadMore()}>
          Load more memories
        </button>
      )}
    </div>
  );
}

/**
 * docs/product.md §2.14 Collections: a grid of the image-type images of the user's posts; 'Add Photo' on the own profile;
 * and, on the own profile only, the posts the viewer saved (issue 27).
 */
export function CollectionsTab({ own, onAddPhoto, name }: { own: boolean; onAddPhoto: () => void; name: string }) {
  const images = useAtomValue(profileImagesAtom);
  const status = useAtomValue(profilePostsStatusAtom);
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      <div className="card profile-section">
        <div className="profile-section__head">
          <h2 className="profile-section__title">Photos</h2>
          {own && (
            <button type="button" className="button button--primary button--sm" onClick={onAddPhoto}>
              <ImageIcon size={16} /> Add Photo
            </button>
          )}
        </div>
        {status === 'loading' && images.length === 0 ? (
          <div className="profile-gallery">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="profile-gallery__skeleton" />
            ))}
          </div>
        ) : images.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">No Photos Yet</p>
            <p className="empty-state__text">
              {own ? 'Share posts with photos to see them in your gallery' : "This user hasn't shared any photos yet."}
            </p>
            {own && (
              <button type="button" className="button button--primary" onClick={onAddPhoto}>
                Share Your First Photo
              </button>
            )}
          </div>
        ) : (
          <ul className="profile-gallery">
            {images.map((img, i) => (
              <li key={`${img.postId}-${i}`}>
                <button type="button" className="profile-gallery__item" onClick={() => setViewing(i)} aria-label={`Open photo ${i + 1}`}>
                  {/* The gallery's tiles are small: the 320 px copy is plenty (issue 16). */}
                  <img src={srcOf(img, 320)} alt={img.alt || `Photo ${i + 1} shared by ${name}`} loading="lazy" decoding="async" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {viewing !== null && (
          <ImageViewer
            images={images.map((img, i) => ({ ...img, alt: img.alt || `Photo ${i + 1} shared by ${name}` }))}
            index={viewing}
            label={`Photos shared by ${name}`}
            onClose={() => setViewing(null)}
          />
        )}
      </div>
      {/* Issue 27: the posts the viewer saved, on their own profile only. */}
      {own && <SavedPosts />}
    </>
  );
}

/** docs/product.md §2.14 Friends: search by name or university ID (case-insensitive), 'View Profile'. */
export function FriendsTab({ own }: { own: boolean }) {
  const friends = useAtomValue(profileFriendsAtom);
  const navigate = useSetAtom(navigateAtom);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = friends ?? [];
    if (!q) return list;
    return list.filter((f) => f.name.toLowerCase().includes(q) || f.universityId.toLowerCase().includes(q));
  }, [friends, query]);
  const count = friends?.length ?? 0;

  return (
    <div className="card profile-section">
      <div className="profile-section__head">
        <h2 className="profile-section__title">
          {own ? 'Your Friends' : 'Friends'} <span className="profile-section__count">{count}</span>
        </h2>
        {own && (
          <button type="button" className="button button--secondary button--sm" onClick={() => navigate({ page: 'friends' })}>
            <PlusUserIcon size={16} /> Find More Friends
          </button>
        )}
      </div>
      <SearchField value={query} onChange={setQuery} label="Search friends" placeholder="Search friends..." />
      {friends === null ? (
        <div className="profile-friends">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height={64} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        query.trim() !== '' ? (
          <div className="empty-state">
            <p className="empty-state__title">No results found</p>
            <p className="empty-state__text">Try a different search term</p>
          </div>
        ) : (
          <div className="empty-state">
            <p className="empty-state__title">No friends yet</p>
            <p className="empty-state__text">You have no friends yet</p>
          </div>
        )
      ) : (
        <ul className="profile-friends">
          {shown.map((f) => (
            <li key={f.id} className="profile-friend">
              <Avatar name={f.name} url={f.avatar.thumbUrl || f.avatar.url} variants={f.avatar.variants} size={48} />
              <span className="profile-friend__text">
                <span className="profile-friend__name">{f.name}</span>
                <span className="profile-friend__sub">{userSubtitle(f)}</span>
              </span>
              <button
                type="button"
                className="button button--secondary button--sm"
                // docs/product.md §2.14: stores the user id and reloads the page (the profile screen remounts).
                onClick={() => navigate({ page: 'profile', userId: f.id })}
                aria-label={`View ${f.name}'s profile`}
              >
                View Profile
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function AboutBlock({ title, children, empty }: { title: string; children: React.ReactNode; empty: boolean }) {
  return (
    <section className="profile-about__block">
      <h3 className="profile-about__title">{title}</h3>
      {empty ? <p className="muted">Nothing added yet.</p> : children}
    </section>
  );
}

/** docs/product.md §2.14 About: Education, Location, Skills, 'Achievements & Awards', 'Hobbies & Interests'. */
export function AboutTab({ profile }: { profile: Profile }) {
  const { education: e } = profile;
  const hasEducation = !!(e.degree || e.institution || e.years);
  return (
    <div className="card profile-section profile-about">
      <AboutBlock title="Education" empty={!hasEducation}>
        <p className="profile-about__strong">{e.degree}</p>
        {e.institution && <p>{e.institution}</p>}
        {e.years && <p className="muted">{e.years}</p>}
      </AboutBlock>
      <AboutBlock title="Location" empty={!profile.location}>
        <p>{profile.location}</p>
      </AboutBlock>
      <AboutBlock title="Skills" empty={profile.skills.length === 0}>
        <ul className="profile-skills">
          {profile.skills.map((s, i) => (
            <li key={`${s.name}-${i}`} className="profile-skill">
              <span className="profile-skill__head">
                <span>{s.name}</span>
                <span className="muted">{s.proficiency}%</span>
              </span>
              <span
                className="profile-skill__track"
                role="progressbar"
                aria-label={`${s.name} proficiency`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={s.proficiency}
              >
                <span className="profile-skill__bar" style={{ width: `${s.proficiency}%` }} />
              </span>
            </li>
          ))}
        </ul>
      </AboutBlock>
      <AboutBlock title="Achievements & Awards" empty={profile.achievements.length === 0}>
        <ul className="profile-achievements">
          {profile.achievements.map((a, i) => (
            <li key={`${a.title}-${i}`} className="profile-achievement">
              <span className="profile-achievement__head">
                <span className="profile-about__strong">{a.title}</span>
                {a.year && <span className="profile-achievement__year">{a.year}</span>}
              </span>
              {a.description && <p className="muted">{a.description}</p>}
            </li>
          ))}
        </ul>
      </AboutBlock>
      <AboutBlock title="Hobbies & Interests" empty={profile.interests.length === 0}>
        <ul className="profile-interests">
          {profile.interests.map((t, i) => (
            <li key={`${t}-${i}`} className="profile-interest">
              {t}
            </li>
          ))}
        </ul>
      </AboutBlock>
    </div>
  );
}
