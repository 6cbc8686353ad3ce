// The auth rules of docs/product.md §5 and the messages of §5 and §8.2, as written there.
// Pure functions: the screens call them and the tests pin them.

import { isApiError } from '../../api/http';
import { hasStringId, isRecord, normalizeUser, type Role, type User } from '../../api/models';
import { MIN_PASSWORD_LENGTH, OTP_LENGTH } from '../../constants';

// --- messages ----------------------------------------------------------------

export const MSG_ALL_FIELDS_REQUIRED = 'All fields are required';
export const MSG_PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const MSG_STUDENT_FIELDS_REQUIRED = 'All fields are required for student registration';
export const MSG_FACULTY_DEPARTMENT_REQUIRED = 'Department is required for faculty registration';
export const MSG_INVALID_EMAIL = 'Please enter a valid email address';
export const MSG_PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long';
export const MSG_INVALID_UNIVERSITY_ID = 'Invalid university ID format. Example: BWU/BCA/20/123';
export const MSG_UNIVERSITY_ID_REQUIRED = 'University ID is required';
export const MSG_DEPARTMENT_REQUIRED = 'Department is required';

export const MSG_RESET_PASSWORDS_MISMATCH = "Passwords don't match";
export const MSG_PASSWORD_TOO_WEAK =
  'Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters.';
/** docs/product.md §5 uses this wording for an incomplete code in settings; we use it on every code screen. */
export const MSG_OTP_INCOMPLETE = 'Please enter all 6 digits of the OTP.';

export const MSG_INVALID_RESPONSE = 'Invalid response from server';
export const MSG_INVALID_USER = 'Invalid user data received';

export const MSG_LOGIN_FAILED = 'Login failed';
/** docs/product.md §5 says identifier and password are required without wording it; the server's words. */
export const MSG_IDENTIFIER_REQUIRED = 'Email or university ID is required';
export const MSG_PASSWORD_REQUIRED = 'Password is required';
export const MSG_STORED_DATA_HINT = 'Still having trouble? Your stored data might be corrupted.';
export const MSG_CLEAR_STORED_DATA = 'Clear stored data and try again';

export const MSG_SIGNUP_FAILED = 'Signup failed';
export const MSG_SIGNUP_DUPLICATE = 'This email or university ID is already registered';
export const MSG_SIGNUP_RETRY = 'Signup failed. Please try again.';

export const MSG_OTP_VERIFICATION_FAILED = 'OTP verification failed';
export const MSG_INVALID_OTP = 'Invalid OTP or server error.';
export const MSG_RESEND_FAILED = 'Failed to resend OTP.';
export const MSG_RESEND_OK = 'OTP has been resent successfully!';
export const MSG_SEND_OTP_FAILED = 'Failed to send OTP.';
export const MSG_RESET_FAILED = 'Failed to reset password.';
export const MSG_RESET_OK = 'Password Reset Successful!';

// --- identifiers -------------------------------------------------------------

/** docs/product.md §5: an identifier that looks like an e-mail address, without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** docs/product.md §5: uppercase letters / uppercase letters / digits / digits. */
export const UNIVERSITY_ID_PATTERN = /^[A-Z]+\/[A-Z]+\/[0-9]+\/[0-9]+$/;

export function isEmail(s: string): boolean {
  return EMAIL_PATTERN.test(s);
}

export type IdentifierKind = 'email' | 'universityId';

/** Login, forgot and reset: an e-mail if it looks like one, otherwise a university ID. */
export function identifierKind(identifier: string): IdentifierKind {
  return isEmail(identifier.trim()) ? 'email' : 'universityId';
}

/** The identifier as the auth calls take it: `{email}` or `{universityId}`. */
export function identifierPayload(identifier: string): { email: string } | { universityId: string } {
  const s = identifier.trim();
  return identifierKind(s) === 'email' ? { email: s.toLowerCase() } : { universityId: s.toUpperCase() };
}

export function normalizeUniversityId(s: string): string {
  return s.trim().toUpperCase();
}

// --- passwords ---------------------------------------------------------------

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/**
 * docs/product.md §5: under 8 characters is weak; otherwise count the classes among
 * uppercase, lowercase, digit, special: fewer than 2 weak, 2 or 3 medium, 4 strong.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < MIN_PASSWORD_LENGTH) return 'weak';
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2) return 'weak';
  if (classes < 4) return 'medium';
  return 'strong';
}

// --- codes -------------------------------------------------------------------

/** Verify and reset: digits only, at most 6. */
export function sanitizeOtp(input: string): string {
  return input.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export function isCompleteOtp(otp: string): boolean {
  return new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(otp);
}

// --- forms -------------------------------------------------------------------

export interface LoginForm {
  identifier: string;
  password: string;
}

export function validateLogin(f: LoginForm): string | null {
  if (f.identifier.trim() === '') return MSG_IDENTIFIER_REQUIRED;
  if (f.password === '') return MSG_PASSWORD_REQUIRED;
  return null;
}

export interface SignupForm {
  role: Role;
  name: string;
  email: string;
  universityId: string;
  program: string;
  batch: string;
  department: string;
  password: string;
  confirmPassword: string;
}

/** docs/product.md §5, checked in the order the spec lists them; null when the form is fine. */
export function validateSignup(f: SignupForm): string | null {
  const blank = (s: string) => s.trim() === '';
  if (blank(f.name) || blank(f.email) || f.password === '' || f.confirmPassword === '') {
    return MSG_ALL_FIELDS_REQUIRED;
  }
  if (f.password !== f.confirmPassword) return MSG_PASSWORDS_DO_NOT_MATCH;
  if (f.role === 'student' && (blank(f.universityId) || blank(f.program) || blank(f.batch))) {
    return MSG_STUDENT_FIELDS_REQUIRED;
  }
  if (f.role === 'faculty' && blank(f.department)) return MSG_FACULTY_DEPARTMENT_REQUIRED;
  if (!isEmail(f.email.trim())) return MSG_INVALID_EMAIL;
  if (f.password.length < MIN_PASSWORD_LENGTH) return MSG_PASSWORD_TOO_SHORT;
  if (f.role === 'student' && !UNIVERSITY_ID_PATTERN.test(normalizeUniversityId(f.universityId))) {
    return MSG_INVALID_UNIVERSITY_ID;
  }
  if (blank(collegeIdOf(f))) {
    return f.role === 'student' ? MSG_UNIVERSITY_ID_REQUIRED : MSG_DEPARTMENT_REQUIRED;
  }
  return null;
}

/** docs/product.md §5: the college id sent is the university ID (students) or department (faculty). */
export function collegeIdOf(f: Pick<SignupForm, 'role' | 'universityId' | 'department'>): string {
  return f.role === 'student' ? normalizeUniversityId(f.universityId) : f.department.trim();
}

export interface SignupPayload {
  name: string;
  email: string;
  password: string;
  role: Role;
  collegeId: string;
  universityId?: string;
  program?: string;
  batch?: string;
  department?: string;
}

export function signupPayload(f: SignupForm): SignupPayload {
  const base = {
    name: f.name.trim(),
    email: f.email.trim().toLowerCase(),
    password: f.password,
    role: f.role,
    collegeId: collegeIdOf(f),
  };
  return f.role === 'student'
    ? { ...base, universityId: normalizeUniversityId(f.universityId), program: f.program.trim(), batch: f.batch.trim() }
    : { ...base, department: f.department.trim() };
}

export interface ResetForm {
  otp: string;
  newPassword: string;
  confirmPassword: string;
}

export function validateReset(f: ResetForm): string | null {
  if (!isCompleteOtp(f.otp)) return MSG_OTP_INCOMPLETE;
  if (f.newPassword !== f.confirmPassword) return MSG_RESET_PASSWORDS_MISMATCH;
  if (passwordStrength(f.newPassword) === 'weak') return MSG_PASSWORD_TOO_WEAK;
  return null;
}

// --- answers -----------------------------------------------------------------

export interface SessionData {
  token: string;
  user: User;
}

/**
 * docs/product.md §5: a login (or verify) answer must contain data.user and data.token,
 * else 'Invalid response from server'; the user must have a string id, else
 * 'Invalid user data received'.
 */
export function parseSessionData(data: unknown): SessionData {
  if (!isRecord(data) || !('user' in data) || typeof data.token !== 'string' || data.token === '' || !data.user) {
    throw new Error(MSG_INVALID_RESPONSE);
  }
  if (!hasStringId(data.user)) throw new Error(MSG_INVALID_USER);
  return { token: data.token, user: normalizeUser(data.user) };
}

// --- errors ------------------------------------------------------------------

export interface LoginFailure {
  message: string;
  /** docs/product.md §8.2: offer sign-up instead ('Sign Up Now'). */
  suggestSignup: string | null;
}

/** docs/product.md §8.2: the login failure and, for unknown accounts, the sign-up suggestion. */
export function loginFailure(message: string | undefined, identifier: string): LoginFailure {
  const msg = message && message.trim() !== '' ? message : MSG_LOGIN_FAILED;
  const unknown = /Incorrect credentials|User not found/i.test(msg);
  const what = identifierKind(identifier) === 'email' ? 'email' : 'university ID';
  return {
    message: msg,
    suggestSignup: unknown ? `This ${what} might not be registered. Would you like to sign up instead?` : null,
  };
}

/**
 * docs/product.md §8.2: what the signup screen shows for a failed call. Duplicates read
 * as one message; otherwise the server's message, else the first field error,
 * else the retry message. Failures without an answer (offline, timeout) and
 * 5xx keep their docs/product.md §8.1 message.
 */
export function signupErrorMessage(err: unknown): string {
  if (isApiError(err)) {
    const server = err.serverMessage ?? '';
    if (/email already exists|University ID already exists|Duplicate/i.test(server)) return MSG_SIGNUP_DUPLICATE;
    if (err.kind !== 'http' || err.status >= 500) return err.message;
    return err.serverMessage ?? err.errors[0]?.msg ?? MSG_SIGNUP_RETRY;
  }
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return MSG_SIGNUP_RETRY;
}
