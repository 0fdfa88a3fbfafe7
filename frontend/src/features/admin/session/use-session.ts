import { useEffect } from 'react';
import { useSelector, useStore } from 'react-redux';
import { restoreSession } from '../../../app/api';
import { useAppDispatch } from '../../../app/hooks';
import {
  endSession,
  restoreRequested,
  selectSession,
  SESSION_HINT_KEY,
  type SessionState,
} from './session-slice';

/** The staff session (the slice is injected lazily, so the app's RootState does not name it). */
export function useSession(): SessionState {
  return useSelector(selectSession);
}

/**
 * Picks up the session of an earlier visit or another tab: while `restoring`, one refresh with
 * the refresh cookie either brings the access token and the user, or ends in the login page.
 */
export function useSessionRestore(): void {
  const { restoring } = useSession();
  const store = useStore();
  useEffect(() => {
    if (restoring) void restoreSession(store);
  }, [restoring, store]);
}

/**
 * Follows the session of other tabs of this browser: a logout there ends this tab's session (the
 * server has ended it already), a login there lets this tab pick it up.
 */
export function useSessionStorageSync(): void {
  const dispatch = useAppDispatch();
  const { isAuthenticated } = useSession();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== SESSION_HINT_KEY) return;
      const signedIn = localStorage.getItem(SESSION_HINT_KEY) !== null;
      if (!signedIn && isAuthenticated) endSession(dispatch, null);
      if (signedIn && !isAuthenticated) dispatch(restoreRequested());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [dispatch, isAuthenticated]);
}
