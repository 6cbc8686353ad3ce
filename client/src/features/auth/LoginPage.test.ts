import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import { unverifiedInfo } from './LoginPage';

const MSG = 'Please verify your email address before logging in. Enter the code we sent to your email.';

describe('unverified-account 403', () => {
  it('uses the typed e-mail', () => {
    const err = new ApiError('http', 403, MSG, MSG, [{ field: 'email', msg: 'as***@uni.edu' }]);
    expect(unverifiedInfo(err, 'Asha@Uni.edu')).toEqual({ email: 'asha@uni.edu', masked: 'as***@uni.edu' });
  });

  it('never takes the masked address for a real one (university-ID login)', () => {
    const err = new ApiError('http', 403, MSG, MSG, [{ field: 'email', msg: 'as***@uni.edu' }]);
    expect(unverifiedInfo(err, 'BWU/BCA/20/123')).toEqual({ email: '', masked: 'as***@uni.edu' });
  });

  it('is not the wrong-role 403', () => {
    const m = 'This account is registered as student. Choose the student role to sign in.';
    expect(unverifiedInfo(new ApiError('http', 403, m, m), 'asha@uni.edu')).toBeNull();
  });
});
