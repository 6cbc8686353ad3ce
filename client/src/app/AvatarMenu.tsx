import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { userSubtitle } from '../api/models';
import { currentUserAtom, logoutAtom } from '../features/auth/authAtoms';
import { useCapabilities } from '../features/moderation/useCapabilities';
import { ThemeControl } from '../features/theme';
import { Avatar } from '../ui/Avatar';
import { ChevronLeftIcon, ChevronRightIcon, HelpIcon, InstallIcon, LogoutIcon, MoonIcon, SettingsIcon } from '../ui/icons';
import { InstallHint } from '../ui/InstallHint';
import { useInstallState } from '../ui/useInstall';
import { promptInstall } from '../lib/install';
import { Skeleton } from '../ui/Skeleton';
import { useOutsideClick } from '../ui/useOutsideClick';
import { useMenuKeys } from '../ui/useMenuKeys';
import { productNameAtom, supportEmailAtom } from '../api/config';
import { navigateAtom } from '../lib/navigation';

/**
 * docs/product.md §2.9 avatar menu: name with 'View your profile', 'Settings & privacy',
 * 'Help & support', 'Display & accessibility' (Dark mode Off/On/Automatic)
 * and 'Log Out'. A dropdown on wide screens, a fixed panel below 768 px (CSS).
 */
export function AvatarMenu() {
  const user = useAtomValue(currentUserAtom);
  const supportEmail = useAtomValue(supportEmailAtom);
  const navigate = useSetAtom(navigateAtom);
  const logout = useSetAtom(logoutAtom);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<'main' | 'display'>('main');
  const [loggingOut, setLoggingOut] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const installState = useInstallState();
  const [iosHint, setIosHint] = useState(false);
  const productName = useAtomValue(productNameAtom);
  const close = () => {
    setOpen(false);
    setView('main');
  };
  useOutsideClick(rootRef, open, close);
  useMenuKeys(rootRef, open, close);
  // Between the two views focus goes where the eye does: Display's Back
  // button, and back on the main view the item that opened Display.
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    const root = rootRef.current;
    if (!open || !root) return;
    const target =
      view === 'display'
        ? root.querySelector<HTMLElement>('.avatar-menu__display-head button')
        : root.querySelector<HTMLElement>('[data-menu-display]');
    target?.focus();
  }, [view, open]);
  const caps = useCapabilities(open);

  if (!user) return <Skeleton className="avatar-menu__skeleton" width={96} height={32} />;

  const go = (target: Parameters<typeof navigate>[0]) => {
    close();
    navigate(target);
  };

  return (
    <div ref={rootRef} className="avatar-menu">
      <InstallHint open={iosHint} onClose={() => setIosHint(false)} productName={productName} />
      <button
        type="button"
        className="avatar-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="Account menu"
        onClick={() => (open ? close() : setOpen(true))}
      >
        <Avatar name={user.name} url={user.avatar.thumbUrl || user.avatar.url} variants={user.avatar.variants} />
      </button>
      {open && (
        <div className="avatar-menu__panel" role="menu" aria-label="Account">
          {view === 'main' ? (
            <>
              <button type="button" role="menuitem" className="avatar-menu__profile" onClick={() => go({ page: 'profile' })}>
                <Avatar name={user.name} url={user.avatar.thumbUrl || user.avatar.url} variants={user.avatar.variants} />
                <span>
                  <span className="avatar-menu__name">{user.name}</span>
                  <span className="avatar-menu__sub">View your profile</span>
                </span>
              </button>
              <hr className="avatar-menu__sep" />
              <button type="button" role="menuitem" className="avatar-menu__item" onClick={() => go({ page: 'settings' })}>
                <span className="avatar-menu__icon">
                  <SettingsIcon />
                </span>
                Settings &amp; privacy
              </button>
              {caps.moderator && (
                <button type="button" role="menuitem" className="avatar-menu__item" onClick={() => go({ page: 'moderation' })}>
                  <span className="avatar-menu__icon">
                    <SettingsIcon />
                  </span>
                  Moderation
                </button>
              )}
              {caps.admin && (
                <button type="button" role="menuitem" className="avatar-menu__item" onClick={() => go({ page: 'admin' })}>
                  <span className="avatar-menu__icon">
                    <SettingsIcon />
                  </span>
                  Admin console
                </button>
              )}
              <a
                role="menuitem"
                className="avatar-menu__item"
                href={supportEmail ? `mailto:${supportEmail}` : undefined}
                aria-disabled={!supportEmail}
                onClick={close}
              >
                <span className="avatar-menu__icon">
                  <HelpIcon />
                </span>
                Help &amp; support
              </a>
              {(installState === 'prompt' || installState === 'ios') && (
                // Quiet: an entry like the others, only where the browser can install.
                <button
                  type="button"
                  role="menuitem"
                  className="avatar-menu__item"
                  onClick={() => {
                    close();
                    if (installState === 'ios') setIosHint(true);
                    else void promptInstall();
                  }}
                >
                  <span className="avatar-menu__icon">
                    <InstallIcon />
                  </span>
                  Install app
                </button>
              )}
              <button type="button" role="menuitem" className="avatar-menu__item" data-menu-display onClick={() => setView('display')}>
                <span className="avatar-menu__icon">
                  <MoonIcon />
                </span>
                Display &amp; accessibility
                <ChevronRightIcon className="avatar-menu__chevron" size={18} />
              </button>
              <button
                type="button"
                role="menuitem"
                className="avatar-menu__item"
                disabled={loggingOut}
                onClick={() => {
                  setLoggingOut(true);
                  void logout();
                }}
              >
                <span className="avatar-menu__icon">
                  <LogoutIcon />
                </span>
                {loggingOut ? 'Logging out…' : 'Log Out'}
              </button>
              <p className="avatar-menu__footnote">{userSubtitle(user)}</p>
            </>
          ) : (
            <div className="avatar-menu__display">
              <div className="avatar-menu__display-head">
                <button type="button" className="icon-button" onClick={() => setView('main')} aria-label="Back">
                  <ChevronLeftIcon />
                </button>
                <span className="avatar-menu__name">Display &amp; accessibility</span>
              </div>
              <ThemeControl className="avatar-menu__theme" />
              <p className="avatar-menu__sub">Automatic follows your device settings.</p>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
