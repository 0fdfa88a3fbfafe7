import { useEffect } from 'react';
import { useSelector } from 'react-redux';
import { useAppDispatch } from '../../../app/hooks';
import {
  readStoredSession,
  selectSession,
  storageChanged,
  TOKEN_KEY,
  USER_KEY,
  type SessionState,
} from './session-slice';

/** The staff session (the slice is injected lazily, so the app's RootState does not name it). */
export function useSession(): SessionState {
  return useSelector(selectSession);
}

/**
 * Follows the session of other tabs of this browser: a login, a refreshed token (a password
 * change ends every other session, so the old token would no longer refresh) or a logout.
 */
export function useSessionStorageSync(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) {
        dispatch(storageChanged(readStoredSession()));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [dispatch]);
}
