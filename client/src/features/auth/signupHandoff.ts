// The signup handoff (docs/product.md §3): what the signup form collected, kept for the
// verify screen (the address) and for profile setup ('Skip profile setup'
// builds a default profile from it). Passwords are never stored.

import { isRecord, normalizeRole, str, type Role } from '../../api/models';
import { readJSON, removeKey, STORAGE_KEYS, writeJSON } from '../../lib/storage';

export interface SignupHandoff {
  role: Role;
  fullName: string;
  email: string;
  universityId: string;
  program: string;
  batch: string;
  department: string;
}

export function saveSignupHandoff(h: SignupHandoff): void {
  writeJSON(STORAGE_KEYS.signup, h);
}

export function readSignupHandoff(): SignupHandoff | null {
  const v = readJSON(STORAGE_KEYS.signup);
  if (!isRecord(v)) return null;
  return {
    role: normalizeRole(v.role),
    fullName: str(v.fullName),
    email: str(v.email),
    universityId: str(v.universityId),
    program: str(v.program),
    batch: str(v.batch),
    department: str(v.department),
  };
}

export function clearSignupHandoff(): void {
  removeKey(STORAGE_KEYS.signup);
}
