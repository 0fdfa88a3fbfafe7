import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../use-session';

/** Where the login page sends the user back to. */
export interface LoginLocationState {
  from?: { pathname: string; search?: string; hash?: string };
}

/** Logged-in staff only: everyone else goes to /admin/login, which remembers where they were. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (!isAuthenticated) {
    const state: LoginLocationState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/admin/login" replace state={state} />;
  }
  return children;
}

/** Where a referrer (issue 44) works: its families; every staff address sends it there. */
export const REFERRER_HOME = '/admin/referrals';

/** Administrators only: a volunteer who gets here anyway lands on the profile (back-office §2). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user?.role === 'referrer') return <Navigate to={REFERRER_HOME} replace />;
  if (user?.role !== 'admin') return <Navigate to="/admin/profile" replace />;
  return children;
}

/**
 * The staff pages (layout route): a partner agency's referrer who types one of their addresses
 * is sent to its own view (the API answers it 403 anyway).
 */
export function RequireStaff() {
  const { user } = useSession();
  if (user?.role === 'referrer') return <Navigate to={REFERRER_HOME} replace />;
  return <Outlet />;
}

/** The referrer's pages: staff who open them land on the back-office's start. */
export function RequireReferrer() {
  const { user } = useSession();
  if (user?.role !== 'referrer') return <Navigate to="/admin" replace />;
  return <Outlet />;
}
