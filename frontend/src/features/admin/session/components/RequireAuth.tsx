import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
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

/** Administrators only: a volunteer who gets here anyway lands on the profile (back-office §2). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user?.role !== 'admin') return <Navigate to="/admin/profile" replace />;
  return children;
}
