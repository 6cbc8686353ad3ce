import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64UrlToBytes, disablePush } from './push';

describe('base64UrlToBytes', () => {
  it.each([
    ['', []],
    ['AA', [0]],
    ['_-8', [255, 239]],
    ['AQID', [1, 2, 3]],
    ['AQIDBA', [1, 2, 3, 4]],
  ])('%s', (s, want) => {
    expect(Array.from(base64UrlToBytes(s))).toEqual(want);
  });

  it('decodes a 65-byte VAPID key', () => {
    const key = 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4';
    const bytes = base64UrlToBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
});

describe('disablePush', () => {
  function fakePush(deleteStatus: number) {
    const sub = { endpoint: 'https://push.example/device-1', unsubscribe: vi.fn(() => Promise.resolve(true)) };
    const reg = { pushManager: { getSubscription: () => Promise.resolve(sub) } };
    Object.defineProperty(navigator, 'serviceWorker', { value: { getRegistration: () => Promise.resolve(reg) }, configurable: true });
    vi.stubGlobal('PushManager', function PushManager() {});
    vi.stubGlobal('Notification', { permission: 'granted' });
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        calls.push({ method: init.method ?? 'GET', url, body: JSON.parse(String(init.body ?? 'null')) });
        return Promise.resolve(
          new Response(JSON.stringify(deleteStatus < 300 ? { status: 'success', data: {} } : { status: 'error', message: 'Bad' }), {
            status: deleteStatus,
            headers: { 'Content-Type': 'application/json' },
          }),
        );
      }),
    );
    return { sub, calls };
  }

  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('tells the server and unsubscribes the browser', async () => {
    const { sub, calls } = fakePush(200);
    await disablePush();
    expect(calls).toEqual([{ method: 'DELETE', url: '/api/push/subscriptions', body: { endpoint: sub.endpoint } }]);
    expect(sub.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes the browser even when the server cannot be told', async () => {
    const { sub } = fakePush(400);
    await expect(disablePush()).rejects.toThrow();
    expect(sub.unsubscribe).toHaveBeenCalledTimes(1);
  });
});
