import { describe, expect, it } from 'vitest';
import { isDeleteConfirmed, maskEmail, validateEmailChange, validateOtpBoxes, validatePasswordChange } from './validation';

describe('settings validation (docs/product.md §5)', () => {
  it('checks an e-mail change', () => {
    expect(validateEmailChange('nope', 'a@b.co')).toBe('Please enter a valid email address');
    expect(validateEmailChange('A@B.co ', 'a@b.co')).toBe('The email address is the same as your current one');
    expect(validateEmailChange('new@b.co', 'a@b.co')).toBeNull();
  });

  it('checks a password change', () => {
    expect(validatePasswordChange('abcdefgh', 'abcdefgX')).toBe('New passwords do not match');
    expect(validatePasswordChange('short', 'short')).toBe('Password must be at least 8 characters long');
    expect(validatePasswordChange('abcdefgh', 'abcdefgh')).toBeNull();
  });

  it('needs DELETE exactly', () => {
    expect(isDeleteConfirmed('DELETE')).toBe(true);
    expect(isDeleteConfirmed('delete')).toBe(false);
    expect(isDeleteConfirmed(' DELETE')).toBe(false);
  });

  it('needs all 6 code digits', () => {
    expect(validateOtpBoxes('12345')).toBe('Please enter all 6 digits of the OTP.');
    expect(validateOtpBoxes('12 456')).toBe('Please enter all 6 digits of the OTP.');
    expect(validateOtpBoxes('123456')).toBeNull();
  });

  it('masks the e-mail: first 2 characters then ***', () => {
    expect(maskEmail('asha@uni.edu')).toBe('as***');
  });
});
