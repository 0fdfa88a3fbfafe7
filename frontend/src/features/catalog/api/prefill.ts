import { getAppStore } from '../../../app/StoreProvider';
import { catalogApi } from './catalog-api';

/*
 * A deep link's data in the store before the first render (main.tsx waits for it, at most
 * EARLY_PAGE_WAIT_MS, through app/early-loads.ts): the page then paints with its content, not
 * with a spinner that its content replaces a moment later. The lot page's photo paints with the
 * page (its largest element, Lighthouse's LCP), and the category page's title and description
 * no longer push its list down when the categories come in (Lighthouse: a 0.05 layout shift).
 * The queries take the answers the boot script or early-loads.ts started; they never fail: the
 * page shows what went wrong itself.
 */

type Subscription = PromiseLike<unknown> & { unsubscribe(): void };

/** Waits for the queries, then lets go of them: the page subscribes on its first render. */
async function settle(queries: Subscription[]): Promise<void> {
  try {
    await Promise.all(queries);
  } finally {
    for (const query of queries) query.unsubscribe();
  }
}

/** The lot and the categories (its breadcrumb names the lot's category). */
export function prefillLot(lotId: number): Promise<void> {
  const { dispatch } = getAppStore();
  return settle([
    dispatch(catalogApi.endpoints.getLot.initiate(lotId)),
    dispatch(catalogApi.endpoints.getCategories.initiate()),
  ]);
}

/** The category's lots and the categories (its title and description). */
export function prefillCategory(ref: string): Promise<void> {
  const { dispatch } = getAppStore();
  return settle([
    dispatch(catalogApi.endpoints.getLotsByCategory.initiate(ref)),
    dispatch(catalogApi.endpoints.getCategories.initiate()),
  ]);
}

/** The categories of the home page's grid. */
export function prefillCategories(): Promise<void> {
  const { dispatch } = getAppStore();
  return settle([dispatch(catalogApi.endpoints.getCategories.initiate())]);
}
