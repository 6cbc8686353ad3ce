import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  captureInstallPrompt,
  countFeedVisit,
  dismissNudge,
  installState,
  installStateOf,
  isIosSafari,
  NUDGE_AFTER_VISITS,
  NUDGE_SNOOZE_MS,
  nudgeDismissedAt,
  promptInstall,
  resetInstallForTests,
  shouldNudge,
  subscribeInstall,
} from './install';

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipadAsMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
};

beforeEach(() => {
  localStorage.clear();
  resetInstallForTests();
});
afterEach(() => resetInstallForTests());

describe('install (issue 27 item 6)', () => {
  it.each([
    ['iPhone Safari', UA.iphoneSafari, 5, true],
    ['iPad that says it is a Mac, with touch', UA.ipadAsMac, 5, true],
    ['a real Mac (no touch)', UA.ipadAsMac, 0, false],
    ['Chrome on iPhone (cannot add to the home screen from its menu)', UA.iphoneChrome, 5, false],
    ['Chrome on Android (has the prompt instead)', UA.androidChrome, 5, false],
  ])('iOS Safari hint: %s → %s', (_, ua, touch, want) => {
    expect(isIosSafari(ua, touch)).toBe(want);
  });

  it.each([
    [{ standalone: true, installed: false, hasPrompt: true, iosSafari: false }, 'installed'],
    [{ standalone: false, installed: true, hasPrompt: false, iosSafari: false }, 'installed'],
    [{ standalone: false, installed: false, hasPrompt: true, iosSafari: false }, 'prompt'],
    [{ standalone: false, installed: false, hasPrompt: false, iosSafari: true }, 'ios'],
    [{ standalone: false, installed: false, hasPrompt: false, iosSafari: false }, 'unavailable'],
  ] as const)('state %o is %s', (opts, want) => {
    expect(installStateOf(opts)).toBe(want);
  });

  it('the feed nudges after a few visits, not when dismissed lately, never when it cannot install', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(shouldNudge({ state: 'prompt', visits: NUDGE_AFTER_VISITS - 1, dismissedAt: 0, now })).toBe(false);
    expect(shouldNudge({ state: 'prompt', visits: NUDGE_AFTER_VISITS, dismissedAt: 0, now })).toBe(true);
    expect(shouldNudge({ state: 'ios', visits: 10, dismissedAt: 0, now })).toBe(true);
    expect(shouldNudge({ state: 'prompt', visits: 10, dismissedAt: now - 1000, now })).toBe(false);
    expect(shouldNudge({ state: 'prompt', visits: 10, dismissedAt: now - NUDGE_SNOOZE_MS - 1, now })).toBe(true);
    expect(shouldNudge({ state: 'unavailable', visits: 10, dismissedAt: 0, now })).toBe(false);
    expect(shouldNudge({ state: 'installed', visits: 10, dismissedAt: 0, now })).toBe(false);
  });

  it('counts one visit per page load and remembers a dismissal', () => {
    expect(countFeedVisit()).toBe(1);
    expect(countFeedVisit()).toBe(1); // the same load
    resetInstallForTests(); // a new load
    expect(countFeedVisit()).toBe(2);
    expect(nudgeDismissedAt()).toBe(0);
    dismissNudge(1234);
    expect(nudgeDismissedAt()).toBe(1234);
  });

  it('keeps the browser prompt (no mini-infobar), shows it when asked, once, and notices the install', async () => {
    const win = new EventTarget() as unknown as Window;
    captureInstallPrompt(win);
    const changes = vi.fn();
    const off = subscribeInstall(changes);
    expect(installState()).toBe('unavailable');
    const prompt = vi.fn(async () => {});
    const e = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    win.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(installState()).toBe('prompt');
    expect(await promptInstall()).toBe(true);
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(installState()).toBe('installed');
    expect(await promptInstall()).toBe(false); // single use
    expect(changes).toHaveBeenCalled();
    off();
  });

  it('a dismissed prompt is gone until the browser offers it again', async () => {
    const win = new EventTarget() as unknown as Window;
    captureInstallPrompt(win);
    win.dispatchEvent(Object.assign(new Event('beforeinstallprompt'), { prompt: async () => {}, userChoice: Promise.resolve({ outcome: 'dismissed' as const }) }));
    expect(await promptInstall()).toBe(false);
    expect(installState()).toBe('unavailable');
    win.dispatchEvent(new Event('appinstalled'));
    expect(installState()).toBe('installed');
  });
});
