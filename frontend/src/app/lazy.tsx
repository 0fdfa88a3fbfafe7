import { lazy, type ComponentType, type ReactNode } from 'react';

/*
 * Code splitting with the data layer. Redux Toolkit, RTK Query and react-redux are not part of
 * the first download: they arrive with the first lazily loaded page or island (the home page's
 * category grid), together with that code, so the header, the hero and the language switch
 * paint without them (the home page's JavaScript budget, scripts/report-size.mjs).
 */

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

async function withStore<P extends object>(load: Loader<P>): Promise<ComponentType<P>> {
  const [{ StoreProvider }, { default: Component }] = await Promise.all([
    import('./StoreProvider'),
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

/** A lazily loaded component that can be asked to load before it renders. */
export interface PreloadableComponent<P> {
  (props: P): ReactNode;
  displayName?: string;
  /** loads the code (once); once it is in, the component renders without suspending */
  preload(): Promise<unknown>;
}

/**
 * React.lazy for a page or a part of one that uses the store (render it inside Suspense).
 * `preload()` starts the load early (main.tsx does for a deep link, early-loads.ts): what has
 * loaded by the first render renders at once, without the Suspense fallback, whose replacement
 * React holds back for up to 300 ms (its throttling of revealed content).
 */
export function lazyWithStore<P extends object>(load: Loader<P>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= withStore(load).then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Preloadable(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  Preloadable.preload = preload;
  return Preloadable;
}
