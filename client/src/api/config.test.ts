import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { installFakeFetch, json } from '../test/fakeFetch';
import {
  configAtom,
  configStatusAtom,
  loadConfigAtom,
  normalizeConfig,
  productNameAtom,
  supportEmailAtom,
} from './config';

describe('normalizeConfig', () => {
  it('takes the server values', () => {
    expect(normalizeConfig({ productName: 'Riverside Connect', supportEmail: 'help@riverside.edu' })).toEqual({
      productName: 'Riverside Connect',
      supportEmail: 'help@riverside.edu',
      sso: [],
      passwordSignup: true,
      passwordLogin: true,
    });
  });

  it('keeps Campus for a missing, blank or wrong-typed name', () => {
    expect(normalizeConfig({}).productName).toBe('Campus');
    expect(normalizeConfig({ productName: '   ' }).productName).toBe('Campus');
    expect(normalizeConfig({ productName: 42 }).productName).toBe('Campus');
    expect(normalizeConfig(null).productName).toBe('Campus');
  });
});

describe('loadConfigAtom', () => {
  it('defaults to Campus before loading', () => {
    const store = createStore();
    expect(store.get(productNameAtom)).toBe('Campus');
    expect(store.get(configStatusAtom)).toBe('idle');
  });

  it('loads GET /api/config once', async () => {
    const fetchMock = installFakeFetch({
      '/api/config': () =>
        json({ status: 'success', data: { productName: 'Riverside', supportEmail: 'help@riverside.edu' } }),
    });
    const store = createStore();
    await store.set(loadConfigAtom);
    expect(store.get(productNameAtom)).toBe('Riverside');
    expect(store.get(supportEmailAtom)).toBe('help@riverside.edu');
    expect(store.get(configStatusAtom)).toBe('ready');
    await store.set(loadConfigAtom);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('falls back to Campus when the call fails', async () => {
    installFakeFetch({
      '/api/config': () => json({ status: 'error', message: 'Server error' }, 500),
    });
    const store = createStore();
    await store.set(loadConfigAtom);
    expect(store.get(configAtom)).toEqual({ productName: 'Campus', supportEmail: '', sso: [], passwordSignup: true, passwordLogin: true });
    expect(store.get(configStatusAtom)).toBe('failed');
  });

  it('falls back to Campus when the server is unreachable', async () => {
    installFakeFetch({});
    const store = createStore();
    await store.set(loadConfigAtom);
    expect(store.get(productNameAtom)).toBe('Campus');
    expect(store.get(configStatusAtom)).toBe('failed');
  });
});
