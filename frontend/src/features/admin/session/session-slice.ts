import { createSlice, type Dispatch, type PayloadAction } from '@reduxjs/toolkit';
import { Roles, type Role } from '@furniture/contracts/enums';
import { bindSession, type SessionEndReason, type TokenAnswer } from '../../../app/api';
import { rootReducer } from '../../../app/store';

/** A back-office user as the auth service answers it: staff, or a partner agency's referrer. */
export interface StaffUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  /** a referrer's partner agency (issue 44) */
  agency_id?: number;
  created_at?: string;
  updated_at?: string;
}

/**
 * Auth state of back-office §3: token, user, isAuthenticated; plus why the last session ended and
 * whether a session of an earlier visit is being picked up (docs/decisions.md "Sessions"). The
 * access token lives in this state only, never in browser storage; the refresh token is an
 * httpOnly cookie the page cannot read.
 */
export interface SessionState {
  token: string | null;
  user: StaffUser | null;
  isAuthenticated: boolean;
  endedReason: SessionEndReason | null;
  /** a session may live on in the refresh cookie: a refresh is asked before the login shows */
  restoring: boolean;
}

/**
 * A flag (no token, no personal data) that this browser has a staff session: a reload or a new
 * tab asks for a fresh access token with the refresh cookie; other tabs follow its changes.
 */
export const SESSION_HINT_KEY = 'staff-session';
/** Where earlier versions kept the token and the user: removed at start. */
const LEGACY_KEYS = ['token', 'user'];

function isStaffUser(value: unknown): value is StaffUser {
  const u = value as StaffUser | null;
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof u.id === 'number' &&
    typeof u.email === 'string' &&
    (Roles as readonly unknown[]).includes(u.role)
  );
}

function hasHint(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) !== null;
  } catch {
    return false;
  }
}

function setHint(on: boolean) {
  try {
    if (on) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // storage blocked: a reload then shows the login page
  }
}

/** The state a page load starts with: nobody signed in, a restore pending when there was a session. */
export function initialSessionState(): SessionState {
  try {
    for (const key of LEGACY_KEYS) localStorage.removeItem(key);
  } catch {
    // nothing to clean
  }
  return {
    token: null,
    user: null,
    isAuthenticated: false,
    endedReason: null,
    restoring: hasHint(),
  };
}

const sessionSlice = createSlice({
  name: 'adminSession',
  initialState: initialSessionState,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; user: StaffUser }>) {
      state.token = action.payload.token;
      state.user = action.payload.user;
      state.isAuthenticated = true;
      state.endedReason = null;
      state.restoring = false;
    },
    tokenRefreshed(state, action: PayloadAction<{ token: string; user?: StaffUser }>) {
      if (!state.isAuthenticated) return;
      state.token = action.payload.token;
      if (action.payload.user) state.user = action.payload.user;
    },
    userUpdated(state, action: PayloadAction<StaffUser>) {
      if (state.isAuthenticated) state.user = action.payload;
    },
    sessionEnded(state, action: PayloadAction<SessionEndReason | null>) {
      state.token = null;
      state.user = null;
      state.isAuthenticated = false;
      state.endedReason = action.payload;
      state.restoring = false;
    },
    /** another tab signed in: this one asks for its own access token */
    restoreRequested(state) {
      if (!state.isAuthenticated) state.restoring = true;
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectToken: (state) => state.token,
    selectUser: (state) => state.user,
    selectIsAuthenticated: (state) => state.isAuthenticated,
    selectIsAdmin: (state) => state.user?.role === 'admin',
    selectIsReferrer: (state) => state.user?.role === 'referrer',
  },
});

/** The slice joins the app's store when the back-office's chunk loads (store.ts). */
export const injectedSessionSlice = sessionSlice.injectInto(rootReducer);
export const { selectSession, selectToken, selectUser, selectIsAuthenticated, selectIsAdmin } =
  injectedSessionSlice.selectors;
export const { restoreRequested } = sessionSlice.actions;

const userOf = (answer: TokenAnswer): StaffUser | undefined =>
  isStaffUser(answer.user) ? answer.user : undefined;

/** After login (or a restored session): keeps token and user in the state, in memory only. */
export function startSession(dispatch: Dispatch, answer: TokenAnswer): void {
  const user = userOf(answer);
  if (!user) throw new Error('Failed to get user profile');
  setHint(true);
  dispatch(sessionSlice.actions.signedIn({ token: answer.access_token, user }));
}

/**
 * A fresh token (a refresh, or the answer of a password change, which ends every other session
 * of the user); a refresh without a session in this page (a reload) starts it.
 */
export function renewSession(dispatch: Dispatch, answer: TokenAnswer, signedIn: boolean): void {
  if (!signedIn) {
    if (userOf(answer)) startSession(dispatch, answer);
    return;
  }
  dispatch(
    sessionSlice.actions.tokenRefreshed({ token: answer.access_token, user: userOf(answer) }),
  );
}

export function updateSessionUser(dispatch: Dispatch, user: StaffUser) {
  dispatch(sessionSlice.actions.userUpdated(user));
}

/** Logout, a failed refresh or a second 401: the page forgets the session. */
export function endSession(dispatch: Dispatch, reason: SessionEndReason | null): void {
  setHint(false);
  dispatch(sessionSlice.actions.sessionEnded(reason));
}

bindSession({
  token: (state) => selectToken(state as never),
  refreshed: (dispatch, answer, state) =>
    renewSession(dispatch, answer, selectIsAuthenticated(state as never)),
  ended: endSession,
});
