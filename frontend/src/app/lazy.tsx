import { lazy, type ComponentType } from 'react';

/*
 * Code splitting with the data layer. Redux Toolkit, RTK Query and react-redux are not part of
 * the first download: they arrive with the first lazily loaded page or island (the home page's
 * category grid), together with that code, so the header, the hero and the language switch
 * paint without them (the home page's JavaScript budget, scripts/report-size.mjs).
 */

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/** The store's chunk (also loaded early for the pages that need data, early-loads.ts). */
export const loadStoreProvider = () => import('./StoreProvider');

async function withStore<P extends object>(load: Loader<P>): Promise<ComponentType<P>> {
  const [{ StoreProvider }, { default: Component }] = await Promise.all([
    loadStoreProvider(),
    load(),
  ]);
  function WithStore(props: P) {
    return (
      <StoreProvider>
        <Component {...props} />
      </StoreProvider>
    );
  }
  WithStore.displayName = `WithStore(${Component.displayName ?? Component.name})`;
  return WithStore;
}

/** React.lazy for a page or a part of one that uses the store (render it inside Suspense). */
export function lazyWithStore<P extends object>(load: Loader<P>) {
  return lazy(async () => ({ default: await withStore(load) }));
}
