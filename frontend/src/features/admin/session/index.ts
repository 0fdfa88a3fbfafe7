// The staff session's public entry: what the back-office shell and its other features use of it
// (frontend/README.md, feature boundaries).
export {
  useChangePasswordMutation,
  useGetMeQuery,
  useLogoutMutation,
  useUpdateProfileMutation,
} from './api/auth-api';
export {
  REFERRER_HOME,
  RequireAdmin,
  RequireAuth,
  RequireReferrer,
  RequireStaff,
} from './components/RequireAuth';
export { emailProblem } from './login-form';
export {
  SESSION_HINT_KEY,
  endSession,
  renewSession,
  selectToken,
  selectUser,
  updateSessionUser,
  type StaffUser,
} from './session-slice';
export { useSession, useSessionRestore, useSessionStorageSync } from './use-session';
