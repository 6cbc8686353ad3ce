import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import {
  collegeIdOf,
  identifierKind,
  identifierPayload,
  loginFailure,
  parseSessionData,
  passwordStrength,
  sanitizeOtp,
  signupErrorMessage,
  signupPayload,
  validateLogin,
  validateReset,
  validateSignup,
  type SignupForm,
} from './validation';

const student: SignupForm = {
  role: 'student',
  name: 'Asha Rao',
  email: 'asha@uni.edu',
  universityId: 'BWU/BCA/20/123',
  program: 'BCA',
  batch: '2020',
  department: '',
  password: 'secret-pass',
  confirmPassword: 'secret-pass',
};
const faculty: SignupForm = { ...student, role: 'faculty', universityId: '', program: '', batch: '', department: 'Physics' };

describe('signup validation (docs/product.md §5, in order)', () => {
  it('accepts a complete student and a complete faculty form', () => {
    expect(validateSignup(student)).toBeNull();
    expect(validateSignup(faculty)).toBeNull();
  });

  it.each([
    ['name', { name: '  ' }],
    ['email', { email: '' }],
    ['password', { password: '' }],
    ['confirm', { confirmPassword: '' }],
  ])('requires all fields (%s missing)', (_what, patch) => {
    expect(validateSignup({ ...student, ...patch })).toBe('All fields are required');
  });

  it('checks the passwords match before the role fields', () => {
    expect(validateSignup({ ...student, confirmPassword: 'other-pass', universityId: '' })).toBe('Passwords do not match');
  });

  it.each(['universityId', 'program', 'batch'] as const)('requires the student field %s', (field) => {
    expect(validateSignup({ ...student, [field]: ' ' })).toBe('All fields are required for student registration');
  });

  it('requires a department for faculty', () => {
    expect(validateSignup({ ...faculty, department: '' })).toBe('Department is required for faculty registration');
  });

  it('checks the e-mail, then the password length, then the ID format', () => {
    expect(validateSignup({ ...student, email: 'asha@uni', universityId: 'bad' })).toBe('Please enter a valid email address');
    expect(validateSignup({ ...student, email: 'as ha@uni.edu' })).toBe('Please enter a valid email address');
    expect(validateSignup({ ...student, password: 'short', confirmPassword: 'short', universityId: 'bad' })).toBe(
      'Password must be at least 8 characters long',
    );
    expect(validateSignup({ ...student, universityId: 'BWU-BCA-20-123' })).toBe(
      'Invalid university ID format. Example: BWU/BCA/20/123',
    );
    expect(validateSignup({ ...student, universityId: 'BWU/BCA/2O/123' })).toBe(
      'Invalid university ID format. Example: BWU/BCA/20/123',
    );
  });

  it('accepts a lower-case ID by upper-casing it, and ignores the ID for faculty', () => {
    expect(validateSignup({ ...student, universityId: 'bwu/bca/20/123' })).toBeNull();
    expect(validateSignup({ ...faculty, universityId: 'whatever' })).toBeNull();
  });

  it('sends the college id: university ID for students, department for faculty', () => {
    expect(collegeIdOf({ role: 'student', universityId: ' bwu/bca/20/123 ', department: 'X' })).toBe('BWU/BCA/20/123');
    expect(collegeIdOf({ role: 'faculty', universityId: 'X', department: ' Physics ' })).toBe('Physics');
    expect(signupPayload(student)).toEqual({
      name: 'Asha Rao',
      email: 'asha@uni.edu',
      password: 'secret-pass',
      role: 'student',
      collegeId: 'BWU/BCA/20/123',
      universityId: 'BWU/BCA/20/123',
      program: 'BCA',
      batch: '2020',
    });
    expect(signupPayload(faculty)).toEqual({
      name: 'Asha Rao',
      email: 'asha@uni.edu',
      password: 'secret-pass',
      role: 'faculty',
      collegeId: 'Physics',
      department: 'Physics',
    });
  });
});

describe('identifier detection (docs/product.md §5)', () => {
  it.each([
    ['asha@uni.edu', 'email'],
    ['  asha@uni.edu  ', 'email'],
    ['a.b+c@dept.uni.ac.in', 'email'],
    ['BWU/BCA/20/123', 'universityId'],
    ['asha@uni', 'universityId'],
    ['as ha@uni.edu', 'universityId'],
    ['asha', 'universityId'],
  ])('%s is a %s', (input, kind) => {
    expect(identifierKind(input)).toBe(kind);
  });

  it('builds {email} or {universityId}', () => {
    expect(identifierPayload(' Asha@Uni.edu ')).toEqual({ email: 'asha@uni.edu' });
    expect(identifierPayload(' bwu/bca/20/123 ')).toEqual({ universityId: 'BWU/BCA/20/123' });
  });
});

describe('login validation and failures (docs/product.md §5, §8.2)', () => {
  it('requires identifier and password', () => {
    expect(validateLogin({ identifier: ' ', password: 'x' })).toBe('Email or university ID is required');
    expect(validateLogin({ identifier: 'a@b.co', password: '' })).toBe('Password is required');
    expect(validateLogin({ identifier: 'a@b.co', password: 'x' })).toBeNull();
  });

  it('needs data.user and data.token, and a user with a string id', () => {
    expect(() => parseSessionData({ token: 't' })).toThrow('Invalid response from server');
    expect(() => parseSessionData({ user: { id: 'u1' } })).toThrow('Invalid response from server');
    expect(() => parseSessionData(null)).toThrow('Invalid response from server');
    expect(() => parseSessionData({ token: 't', user: { id: 7 } })).toThrow('Invalid user data received');
    expect(() => parseSessionData({ token: 't', user: { name: 'x' } })).toThrow('Invalid user data received');
    const s = parseSessionData({ token: 't', user: { id: 'u1', name: 'Asha', avatar: 'http://x/a.png' } });
    expect(s.token).toBe('t');
    expect(s.user.id).toBe('u1');
    expect(s.user.avatar).toEqual({ url: 'http://x/a.png' });
  });

  it('suggests signing up when the account may not exist, worded for the identifier', () => {
    expect(loginFailure('Incorrect credentials', 'a@b.co')).toEqual({
      message: 'Incorrect credentials',
      suggestSignup: 'This email might not be registered. Would you like to sign up instead?',
    });
    expect(loginFailure('User not found', 'BWU/BCA/20/1').suggestSignup).toBe(
      'This university ID might not be registered. Would you like to sign up instead?',
    );
    expect(loginFailure('Server error. Please try again later.', 'a@b.co').suggestSignup).toBeNull();
    expect(loginFailure(undefined, 'a@b.co').message).toBe('Login failed');
  });
});

describe('signup errors (docs/product.md §8.2)', () => {
  it('reads duplicates as one message', () => {
    expect(signupErrorMessage(new ApiError('http', 409, 'A user with this email already exists', 'A user with this email already exists'))).toBe(
      'This email or university ID is already registered',
    );
    expect(signupErrorMessage(new ApiError('http', 409, 'x', 'A user with this University ID already exists'))).toBe(
      'This email or university ID is already registered',
    );
    expect(signupErrorMessage(new ApiError('http', 409, 'x', 'Duplicate key'))).toBe('This email or university ID is already registered');
  });

  it('otherwise the server message, else the first field error, else the retry message', () => {
    expect(signupErrorMessage(new ApiError('http', 400, 'Name too long', 'Name too long'))).toBe('Name too long');
    expect(signupErrorMessage(new ApiError('http', 400, 'Invalid request', undefined, [{ field: 'email', msg: 'Bad e-mail' }]))).toBe(
      'Bad e-mail',
    );
    expect(signupErrorMessage(new ApiError('http', 400, 'Invalid request'))).toBe('Signup failed. Please try again.');
    expect(signupErrorMessage(undefined)).toBe('Signup failed. Please try again.');
  });

  it('keeps the docs/product.md §8.1 messages for no answer and 5xx', () => {
    expect(signupErrorMessage(new ApiError('timeout', 0, 'Request timed out. The server might be busy. Please try again later.'))).toBe(
      'Request timed out. The server might be busy. Please try again later.',
    );
    expect(signupErrorMessage(new ApiError('http', 500, 'Server error. Please try again later.', 'pq: boom'))).toBe(
      'Server error. Please try again later.',
    );
  });
});

describe('password strength (docs/product.md §5)', () => {
  it.each([
    ['', 'weak'],
    ['Ab1!', 'weak'], // under 8 characters
    ['abcdefgh', 'weak'], // one class
    ['ABCDEFGH', 'weak'],
    ['12345678', 'weak'],
    ['abcdefg1', 'medium'], // two classes
    ['Abcdefgh', 'medium'],
    ['Abcdefg1', 'medium'], // three classes
    ['abcdef1!', 'medium'],
    ['Abcdef1!', 'strong'], // all four
  ])('%j is %s', (pw, strength) => {
    expect(passwordStrength(pw)).toBe(strength);
  });
});

describe('reset validation (docs/product.md §5)', () => {
  it('takes digits only, at most 6', () => {
    expect(sanitizeOtp('12a3 4-5678')).toBe('123456');
    expect(sanitizeOtp('abc')).toBe('');
  });

  it('checks the code, then the match, then the strength', () => {
    expect(validateReset({ otp: '123', newPassword: 'Abcdef1!', confirmPassword: 'Abcdef1!' })).toBe(
      'Please enter all 6 digits of the OTP.',
    );
    expect(validateReset({ otp: '123456', newPassword: 'Abcdef1!', confirmPassword: 'Abcdef1?' })).toBe("Passwords don't match");
    expect(validateReset({ otp: '123456', newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' })).toBe(
      'Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters.',
    );
    expect(validateReset({ otp: '123456', newPassword: 'abcdefg1', confirmPassword: 'abcdefg1' })).toBeNull();
  });
});
