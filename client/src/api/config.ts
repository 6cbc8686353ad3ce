// Public product configuration from GET /api/config (docs/architecture.md §3.2):
// {"productName":"Campus","supportEmail":"…"}. Until it answers, or if it
// fails, the product is called "Campus". It sits with the API calls (not in
// app/) because screens of every feature show the product's name.

import { atom } from 'jotai';
import { DEFAULT_PRODUCT_NAME } from '../constants';
import { apiGet } from './http';

/** A configured university sign-in: "Sign in with <name>". */
export interface SsoProvider {
  id: 'oidc' | 'saml';
  name: string;
}

export interface AppConfig {
  productName: string;
  supportEmail: string;
  /** University sign-ins, as buttons on the login and sign-up screens. */
  sso: SsoProvider[];
  /** False when the operator turned the password ways in off (SSO-only). */
  passwordSignup: boolean;
  passwordLogin: boolean;
}

export type ConfigStatus = 'idle' | 'loading' | 'ready' | 'failed';

export const DEFAULT_CONFIG: AppConfig = {
  productName: DEFAULT_PRODUCT_NAME,
  supportEmail: '',
  sso: [],
  passwordSignup: true,
  passwordLogin: true,
};

/** Keeps the defaults for anything missing or malformed in the server's answer. */
export function normalizeConfig(data: unknown): AppConfig {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const sso: SsoProvider[] = [];
  if (Array.isArray(d.sso)) {
    for (const p of d.sso) {
      const r = typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
      const id = str(r.id);
      const name = str(r.name);
      if ((id === 'oidc' || id === 'saml') && name !== '') sso.push({ id, name });
    }
  }
  // A password way in is closed only when the server says so and there is
  // a university sign-in to use instead.
  const closed = (v: unknown) => v === false && sso.length > 0;
  return {
    productName: str(d.productName) || DEFAULT_CONFIG.productName,
    supportEmail: str(d.supportEmail) || DEFAULT_CONFIG.supportEmail,
    sso,
    passwordSignup: !closed(d.passwordSignup),
    passwordLogin: !closed(d.passwordLogin),
  };
}

const configBaseAtom = atom<AppConfig>(DEFAULT_CONFIG);
const configStatusBaseAtom = atom<ConfigStatus>('idle');

export const configAtom = atom((get) => get(configBaseAtom));
export const configStatusAtom = atom((get) => get(configStatusBaseAtom));
export const productNameAtom = atom((get) => get(configBaseAtom).productName);
export const supportEmailAtom = atom((get) => get(configBaseAtom).supportEmail);
export const ssoProvidersAtom = atom((get) => get(configBaseAtom).sso);

/** Fetches the config once per store; later calls are no-ops unless the last one failed. */
export const loadConfigAtom = atom(null, async (get, set) => {
  const status = get(configStatusBaseAtom);
  if (status === 'loading' || status === 'ready') return;
  set(configStatusBaseAtom, 'loading');
  try {
    const data = await apiGet<unknown>('/config');
    set(configBaseAtom, normalizeConfig(data));
    set(configStatusBaseAtom, 'ready');
  } catch {
    set(configStatusBaseAtom, 'failed'); // keep the defaults
  }
});
