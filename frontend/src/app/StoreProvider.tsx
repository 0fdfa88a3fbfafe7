import { useContext, type ReactNode } from 'react';
import { Provider, ReactReduxContext } from 'react-redux';
import { makeStore, type AppStore } from './store';

let appStore: AppStore | undefined;

/** The app's one store, made when the first part of a page that needs server data loads. */
export function getAppStore(): AppStore {
  appStore ??= makeStore();
  return appStore;
}

/**
 * Gives its children the app's store. Every lazily loaded page and island renders inside one
 * (see lazy.tsx); they all share the same store. An outer Provider (a test's) wins.
 */
export function StoreProvider({ children }: { children: ReactNode }) {
  const outer = useContext(ReactReduxContext);
  if (outer) return children;
  return <Provider store={getAppStore()}>{children}</Provider>;
}
