export { AuthFlow } from './AuthFlow';
export { ServerStatus } from './ServerStatus';
export {
  currentUserAtom,
  isAuthenticatedAtom,
  logoutAtom,
  refreshCurrentUserAtom,
  sessionAtom,
  signInAtom,
  updateCurrentUserAtom,
  authTokenAtom,
} from './authAtoms';
export { showAuthScreenAtom, authScreenAtom } from './authFlowAtoms';
