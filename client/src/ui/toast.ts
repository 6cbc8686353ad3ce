// Short-lived messages at the bottom of the screen ('Link copied to
// clipboard!', upload failures). Primitive state private; actions exported.

import { atom } from 'jotai';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

const toastsBaseAtom = atom<Toast[]>([]);
let nextId = 1;

export const toastsAtom = atom((get) => get(toastsBaseAtom));

export const dismissToastAtom = atom(null, (get, set, id: number) => {
  set(toastsBaseAtom, get(toastsBaseAtom).filter((t) => t.id !== id));
});

/** Shows a toast for `ms` (default 3 s). */
export const showToastAtom = atom(null, (get, set, t: { message: string; tone?: ToastTone; ms?: number }) => {
  const toast: Toast = { id: nextId++, message: t.message, tone: t.tone ?? 'info' };
  set(toastsBaseAtom, [...get(toastsBaseAtom).slice(-2), toast]);
  setTimeout(() => set(dismissToastAtom, toast.id), t.ms ?? 3000);
});
