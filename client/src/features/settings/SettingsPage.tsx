import { useSetAtom } from 'jotai';
import { backFromSettingsAtom } from '../../app/navigation';
import { ArrowLeftIcon } from '../../ui/icons';
import { ThemeControl } from '../theme';
import '../profile/placeholderPages.css';

/** Settings & Privacy's frame (spec §2.16): Back, and the display choice; account flows arrive with the settings issue. */
export function SettingsPage() {
  const back = useSetAtom(backFromSettingsAtom);
  return (
    <section className="placeholder-page card" aria-labelledby="settings-title">
      <button type="button" className="button button--ghost button--sm placeholder-page__back" onClick={() => back()}>
        <ArrowLeftIcon size={18} /> Back
      </button>
      <h1 id="settings-title" className="placeholder-page__title">
        Settings &amp; Privacy
      </h1>
      <ThemeControl />
      <p className="muted">Personal information, password &amp; security and account deletion are coming soon.</p>
    </section>
  );
}
