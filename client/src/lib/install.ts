// Installing the app (issue 27 item 6), as the browser allows it: Chromium
// browsers fire `beforeinstallprompt`, which is kept (its default mini-bar
// suppressed) so that the app offers install from its own quiet menu entry and,
// after a few visits, a dismissible card on the feed; iOS Safari has no such
// event, so there the app explains "Share → Add to Home Screen". Opened as an
// installed app (standalone), nothing is offered. No React here: ui/useInstall
// subscribes to it.

import { readString, STORAGE_KEYS, writeString } from './storage';

/** The event Chromium fires when the app may be installed (not in TypeScript's DOM yet). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/** What this browser can do: show its install prompt, be told how (iOS), nothing, or it is installed. */
export type InstallState = 'prompt' | 'ios' | 'installed' | 'unavailable';

/** Visits (page loads of the feed) before the feed offers install. */
export const NUDGE_AFTER_VISITS = 3;
/** A dismissed nudge comes back after this long. */
export const NUDGE_SNOOZE_MS = 60 * 24 * 60 * 60 * 1000;

let deferred: BeforeInstallPromptEvent | null = null;
let installed = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((fn) => fn());

/** Subscribes to changes of installState (for useSyncExternalStore). */
export function subscribeInstall(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Whether this is iOS Safari (iPhone, iPod, or an iPad that says it is a
 * Mac), where "Add to Home Screen" in the Share menu installs. Chrome,
 * Firefox and Edge on iOS cannot install from their menus: no hint there.
 */
export function isIosSafari(ua: string, maxTouchPoints: number): boolean {
  const ios = /iPhone|iPod|iPad/.test(ua) || (/Macintosh/.test(ua) && maxTouchPoints > 1);
  return ios && /Safari\//.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua);
}

/** Whether the page runs as an installed app (home-screen icon, app window). */
export function isStandalone(win: Pick<Window, 'matchMedia' | 'navigator'> = window): boolean {
  const nav = win.navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || (typeof win.matchMedia === 'function' && win.matchMedia('(display-mode: standalone)').matches);
}

/** The state for a browser, from what it told us. */
export function installStateOf(opts: { standalone: boolean; installed: boolean; hasPrompt: boolean; iosSafari: boolean }): InstallState {
  if (opts.standalone || opts.installed) return 'installed';
  if (opts.hasPrompt) return 'prompt';
  if (opts.iosSafari) return 'ios';
  return 'unavailable';
}

/** This browser's install state now. */
export function installState(): InstallState {
  return installStateOf({
    standalone: isStandalone(),
    installed,
    hasPrompt: deferred !== null,
    iosSafari: isIosSafari(navigator.userAgent, navigator.maxTouchPoints ?? 0),
  });
}

/**
 * Keeps the browser's install prompt for the app to show when asked; call
 * once, early (the event may come before the app has rendered).
 */
export function captureInstallPrompt(win: Window = window): void {
  win.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault(); // no mini-infobar: the app offers it in its own place
    deferred = e as BeforeInstallPromptEvent;
    notify();
  });
  win.addEventListener('appinstalled', () => {
    deferred = null;
    installed = true;
    notify();
  });
}

/** Shows the browser's install prompt; answers whether the user accepted. The event is single-use. */
export async function promptInstall(): Promise<boolean> {
  const e = deferred;
  if (!e) return false;
  deferred = null;
  notify();
  await e.prompt();
  const choice = await e.userChoice;
  if (choice.outcome === 'accepted') {
    installed = true;
    notify();
    return true;
  }
  return false;
}

/** Whether the feed offers install now: installable, a few visits in, not dismissed lately. */
export function shouldNudge(opts: { state: InstallState; visits: number; dismissedAt: number; now: number }): boolean {
  if (opts.state !== 'prompt' && opts.state !== 'ios') return false;
  if (opts.visits < NUDGE_AFTER_VISITS) return false;
  return !(opts.dismissedAt > 0 && opts.now - opts.dismissedAt < NUDGE_SNOOZE_MS);
}

let visitCounted = false;

/** Counts this page load as one visit of the feed (once per load); answers the visits so far. */
export function countFeedVisit(): number {
  const before = Number(readString(STORAGE_KEYS.installVisits)) || 0;
  if (visitCounted) return before;
  visitCounted = true;
  writeString(STORAGE_KEYS.installVisits, String(before + 1));
  return before + 1;
}

/** When the nudge was dismissed (ms), 0 if never. */
export function nudgeDismissedAt(): number {
  return Number(readString(STORAGE_KEYS.installDismissed)) || 0;
}

/** Dismisses the feed's nudge (it comes back after NUDGE_SNOOZE_MS). */
export function dismissNudge(now: number = Date.now()): void {
  writeString(STORAGE_KEYS.installDismissed, String(now));
  notify();
}

/** For tests: forget the kept prompt and the per-load state. */
export function resetInstallForTests(): void {
  deferred = null;
  installed = false;
  visitCounted = false;
  notify();
}
