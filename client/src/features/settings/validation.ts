// The settings flows' rules (docs/product.md §5, §2.16) and messages (§8.4), as pure
// functions for the settings screens.

import { MIN_PASSWORD_LENGTH, OTP_LENGTH } from '../../constants';
import { isApiError } from '../../api/http';
import { EMAIL_PATTERN } from '../auth/validation';

export const MSG_INVALID_EMAIL = 'Please enter a valid email address';
export const MSG_SAME_EMAIL = 'The email address is the same as your current one';
export const MSG_NEW_PASSWORDS_MISMATCH = 'New passwords do not match';
export const MSG_PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long';
export const MSG_OTP_INCOMPLETE = 'Please enter all 6 digits of the OTP.';

export const MSG_SEND_CODE_FAILED = 'Failed to send verification code. Please try again.';
export const MSG_VERIFY_FAILED = 'Failed to verify OTP. Please try again.';
export const MSG_RESEND_FAILED = 'Failed to resend OTP. Please try again.';
export const MSG_SEND_OTP_FAILED = 'Failed to send OTP. Please try again.';
export const MSG_CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect. Please try again.';
export const MSG_EMAIL_UPDATED = 'Email updated successfully!';
export const MSG_PASSWORD_UPDATED = 'Password updated successfully!';
export const MSG_OTP_RESENT = 'A new OTP has been sent to your email.';

/** docs/product.md §5 Email change: basic pattern, and different from the current address. */
export function validateEmailChange(newEmail: string, currentEmail: string): string | null {
  const e = newEmail.trim();
  if (!EMAIL_PATTERN.test(e)) return MSG_INVALID_EMAIL;
  if (e.toLowerCase() === currentEmail.trim().toLowerCase()) return MSG_SAME_EMAIL;
  return null;
}

/** docs/product.md §5 Password change: new passwords match, at least 8 characters. */
export function validatePasswordChange(newPassword: string, confirmPassword: string): string | null {
  if (newPassword !== confirmPassword) return MSG_NEW_PASSWORDS_MISMATCH;
  if (newPassword.length < MIN_PASSWORD_LENGTH) return MSG_PASSWORD_TOO_SHORT;
  return null;
}

/** docs/product.md §5 Delete: the confirmation text must equal DELETE exactly. */
export function isDeleteConfirmed(text: string): boolean {
  return text === 'DELETE';
}

/** docs/product.md §5: fewer than 6 filled boxes gives the incomplete-code message. */
export function validateOtpBoxes(value: string): string | null {
  return new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(value) ? null : MSG_OTP_INCOMPLETE;
}

/** docs/product.md §2.16: code prompts mask the e-mail — the first 2 characters, then ***. */
export function maskEmail(email: string): string {
  const e = email.trim();
  if (e === '') return '';
  return `${e.slice(0, 2)}***`;
}

/**
 * docs/product.md §8.4: the server's response message when present, else the flow's
 * fallback. A 5xx answer's text never reaches the user (docs/product.md §8.1); neither
 * does a missing answer's, which gets the fallback too.
 */
export function settingsErrorMessage(err: unknown, fallback: string): string {
  if (isApiError(err) && err.kind === 'http' && err.status < 500 && err.serverMessage) return err.serverMessage;
  return fallback;
}
