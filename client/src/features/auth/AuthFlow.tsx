import { useAtomValue } from 'jotai';
import { authScreenAtom } from './authFlowAtoms';
import { LoginPage } from './LoginPage';
import { ForgotPasswordPage, ResetPasswordPage } from './PasswordResetPages';
import { SignupPage } from './SignupPage';
import { VerifyEmailPage } from './VerifyEmailPage';

/**
 * The signed-out screens (docs/product.md §4 Auth screen modes). Each remounts fresh when
 * shown. onVerified: a new account's code was accepted (see VerifyEmailPage).
 */
export function AuthFlow({ onVerified }: { onVerified?: () => void }) {
  const screen = useAtomValue(authScreenAtom);
  switch (screen.name) {
    case 'signup':
      return <SignupPage key="signup" />;
    case 'verify':
      return <VerifyEmailPage key={`verify-${screen.email}`} onVerified={onVerified} />;
    case 'forgot':
      return <ForgotPasswordPage key="forgot" />;
    case 'reset':
      return <ResetPasswordPage key={`reset-${screen.identifier}`} />;
    case 'login':
      return <LoginPage key={`login-${screen.identifier ?? ''}`} />;
  }
}
