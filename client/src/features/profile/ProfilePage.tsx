import { useAtomValue, useSetAtom } from 'jotai';
import { userSubtitle } from '../../api/models';
import { navigateAtom, routeAtom } from '../../app/navigation';
import { Avatar } from '../../ui/Avatar';
import { currentUserAtom } from '../auth/authAtoms';
import './placeholderPages.css';

/**
 * The profile screen's frame (spec §2.14): the own header, or a note for
 * someone else's profile. Tabs, stats and editing arrive with the profile issue.
 */
export function ProfilePage() {
  const route = useAtomValue(routeAtom);
  const me = useAtomValue(currentUserAtom);
  const navigate = useSetAtom(navigateAtom);
  const userId = route.page === 'profile' ? route.userId : undefined;
  const own = !userId || userId === me?.id;
  return (
    <section className="placeholder-page card" aria-labelledby="profile-title">
      {own && me ? (
        <div className="placeholder-page__head">
          <Avatar name={me.name} url={me.avatar.url} size={96} />
          <div>
            <h1 id="profile-title" className="placeholder-page__title">
              {me.name}
            </h1>
            <p className="muted">{userSubtitle(me)}</p>
            {me.bio && <p>{me.bio}</p>}
          </div>
        </div>
      ) : (
        <h1 id="profile-title" className="placeholder-page__title">
          Profile
        </h1>
      )}
      <p className="muted">Full profiles — memories, collections, friends and about — are coming soon.</p>
      <div>
        <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'feed' })}>
          Back to feed
        </button>
      </div>
    </section>
  );
}
