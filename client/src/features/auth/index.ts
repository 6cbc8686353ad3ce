export { SignInPage, type Role } from './SignInPage';
export { ServerStatus } from './ServerStatus';
