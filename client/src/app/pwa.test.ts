import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fake ServiceWorkerContainer: one registration whose update waits. */
function fakeContainer(opts: { controlled: boolean }) {
  const listeners: Record<string, (() => void)[]> = {};
  const waiting = { postMessage: vi.fn(), state: 'installed' };
  const reg = { waiting, installing: null, addEventListener: vi.fn(), update: vi.fn(() => Promise.resolve()) };
  const container = {
    controller: opts.controlled ? {} : null,
    register: vi.fn(() => Promise.resolve(reg)),
    addEventListener: (type: string, fn: () => void) => (listeners[type] ??= []).push(fn),
    fire: (type: string) => listeners[type]?.forEach((fn) => fn()),
  };
  return { container, waiting };
}

async function loadPwa(container: unknown) {
  vi.resetModules();
  vi.stubEnv('PROD', true);
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  const reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, reload });
  const pwa = await import('./pwa');
  pwa.registerServiceWorker();
  await vi.waitFor(() => expect((container as { register: ReturnType<typeof vi.fn> }).register).toHaveBeenCalledWith('/sw.js'));
  await Promise.resolve();
  return { pwa, reload };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe('service worker updates (issue 16)', () => {
  it('offers a waiting update and reloads only once the user asked and the new worker took over', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const { container, waiting } = fakeContainer({ controlled: true });
    const { pwa, reload } = await loadPwa(container);
    await vi.waitFor(() => expect(pwa.updateReady()).toBe(true));
    // A controller change nobody asked for (the first worker claiming) does not reload.
    container.fire('controllerchange');
    expect(reload).not.toHaveBeenCalled();
    pwa.applyUpdate();
    expect(waiting.postMessage).toHaveBeenCalledWith('skip-waiting');
    container.fire('controllerchange');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('offers nothing on the first install (no page was controlled yet)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const { container } = fakeContainer({ controlled: false });
    const { pwa } = await loadPwa(container);
    await Promise.resolve();
    expect(pwa.updateReady()).toBe(false);
  });
});
