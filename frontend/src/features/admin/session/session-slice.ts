import { createSlice, type Dispatch, type PayloadAction } from '@reduxjs/toolkit';
import type { Role } from '@furniture/contracts/enums';
import { bindSession, type SessionEndReason, type TokenAnswer } from '../../../app/api';
import { rootReducer } from '../../../app/store';

/** A staff member as the auth service answers it. */
export interface StaffUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  created_at?: string;
  updated_at?: string;
}

/** Auth state of back-office §3: token, user, isAuthenticated; plus why the last session ended. */
export interface SessionState {
  token: string | null;
  user: StaffUser | null;
  isAuthenticated: boolean;
  endedReason: SessionEndReason | null;
}

/** Where the session lives in the browser (back-office §3: token and user persist). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

function isStaffUser(value: unknown): value is StaffUser {
  const u = value as StaffUser | null;
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof u.id === 'number' &&
    typeof u.email === 'string' &&
    (u.role === 'admin' || u.role === 'volunteer')
  );
}

function readStoredUser(): StaffUser | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null');
    return isStaffUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The session as the browser kept it (a token without a readable user is no session). */
export function readStoredSession(): SessionState {
  const token = localStorage.getItem(TOKEN_KEY);
  const user = readStoredUser();
  const ok = Boolean(token) && user !== null;
  return {
    token: ok ? token : null,
    user: ok ? user : null,
    isAuthenticated: ok,
    endedReason: null,
  };
}

function store(token: string | null, user: StaffUser | null) {
  if (token && user) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } else {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  }
}

const sessionSlice = createSlice({
  name: 'adminSession',
  initialState: readStoredSession,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; user: StaffUser }>) {
      state.token = action.payload.token;
      state.user = action.payload.user;
      state.isAuthenticated = true;
      state.endedReason = null;
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
    },
    /** another tab of this browser signed in, refreshed or signed out */
    storageChanged(_state, action: PayloadAction<SessionState>) {
      return action.payload;
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectToken: (state) => state.token,
    selectUser: (state) => state.user,
    selectIsAuthenticated: (state) => state.isAuthenticated,
    selectIsAdmin: (state) => state.user?.role === 'admin',
  },
});

/** The slice joins the app's store when the back-office's chunk loads (store.ts). */
export const injectedSessionSlice = sessionSlice.injectInto(rootReducer);
export const { selectSession, selectToken, selectUser, selectIsAuthenticated, selectIsAdmin } =
  injectedSessionSlice.selectors;
export const { storageChanged } = sessionSlice.actions;

const userOf = (answer: TokenAnswer): StaffUser | undefined =>
  isStaffUser(answer.user) ? answer.user : undefined;

/** After login: keeps token and user in the state and the browser. */
export function startSession(dispatch: Dispatch, answer: TokenAnswer): void {
  const user = userOf(answer);
  if (!user) throw new Error('Failed to get user profile');
  store(answer.access_token, user);
  dispatch(sessionSlice.actions.signedIn({ token: answer.access_token, user }));
}

/**
 * A fresh token (a refresh, or the answer of a password change, which ends every other session
 * of the user); ignored without a session.
 */
export function renewSession(dispatch: Dispatch, answer: TokenAnswer): void {
  const user = userOf(answer) ?? readStoredUser();
  if (!user || !localStorage.getItem(TOKEN_KEY)) return;
  store(answer.access_token, user);
  dispatch(sessionSlice.actions.tokenRefreshed({ token: answer.access_token, user }));
}

export function updateSessionUser(dispatch: Dispatch, token: string | null, user: StaffUser) {
  store(token, user);
  dispatch(sessionSlice.actions.userUpdated(user));
}

/** Logout, a failed refresh or a second 401: the browser forgets the session. */
export function endSession(dispatch: Dispatch, reason: SessionEndReason | null): void {
  store(null, null);
  dispatch(sessionSlice.actions.sessionEnded(reason));
}

bindSession({
  token: (state) => selectToken(state as never),
  refreshed: renewSession,
  ended: endSession,
});
