import { http, HttpResponse, delay } from 'msw';
import { apiUrl, server } from './server';

/** A category as the catalog answers it. */
export function category(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    slug: null,
    name: { de: `Kategorie ${id}`, uk: `Категорія ${id}` },
    description: { de: '', uk: '' },
    icon: '📦',
    lot_count: 0,
    archived_lot_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

export const CATEGORIES = [
  category(1, {
    slug: 'sofas-chairs',
    name: { de: 'Sofas & Sessel', uk: 'Дивани та крісла' },
    lot_count: 2,
  }),
  category(2, { slug: 'beds-matresses', name: { de: 'Betten', uk: 'Ліжка' } }),
];

/** A lot as the catalog answers it. */
export function lot(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: { de: `Sofa ${id}`, uk: `Диван ${id}` },
    description: { de: 'Bequemes Sofa', uk: 'Зручний диван' },
    detailed_description: { de: 'Bequemes Sofa', uk: 'Зручний диван' },
    status: 'available',
    category_id: 1,
    photos: [],
    gallery_photos: [],
    dimensions: '200 × 90 cm',
    condition: 'gut',
    donor: 'Familie Weber',
    location: 'Berlin',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    created_by_user_id: 1,
    version: 1,
    ...overrides,
  };
}

export const photosOf = (lotId: number, count: number) =>
  Array.from({ length: count }, (_, i) => `/media/lots/${lotId}/p${i + 1}-medium.webp`);
export const largePhotosOf = (lotId: number, count: number) =>
  Array.from({ length: count }, (_, i) => `/media/lots/${lotId}/p${i + 1}-large.webp`);

/** Queue info of a lot with nobody queuing. */
export function queueInfo(overrides: Record<string, unknown> = {}) {
  return {
    success: true,
    data: {
      applications_count: 0,
      lot_status: 'available',
      user_has_application: false,
      can_apply: true,
      queue_position: null,
      user_application_status: null,
      ...overrides,
    },
  };
}

export function eligibility(overrides: Record<string, unknown> = {}) {
  return {
    success: true,
    data: {
      can_apply: true,
      reason: null,
      reason_code: null,
      total_applications: 0,
      max_open_applications: 5,
      ...overrides,
    },
  };
}

/** The error shape of every service (docs/decisions.md). */
export function apiError(status: number, code: string, message: string, detail?: unknown) {
  return HttpResponse.json(
    { success: false, code, message, detail: detail ?? message },
    { status },
  );
}

/** Handlers for a catalog with the given categories and lots (answers as the services do). */
export function catalogHandlers(
  opts: { categories?: unknown[]; lots?: ReturnType<typeof lot>[] } = {},
) {
  const categories = opts.categories ?? CATEGORIES;
  const lots = opts.lots ?? [];
  return [
    http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: categories })),
    // pages as the catalog answers them: `limit`, the lots after `before_id`, X-Total-Count
    http.get(apiUrl('/lots/category/:ref'), ({ params, request }) => {
      const all = lots.filter((l) => String(l.category_id) === params.ref);
      const query = new URL(request.url).searchParams;
      const before = query.get('before_id');
      const from = before ? all.findIndex((l) => String(l.id) === before) + 1 : 0;
      const limit = query.has('limit') ? Number(query.get('limit')) : all.length;
      return HttpResponse.json(all.slice(from, from + limit), {
        headers: { 'X-Total-Count': String(all.length) },
      });
    }),
    http.get(apiUrl('/lots/:id'), ({ params }) => {
      const found = lots.find((l) => String(l.id) === params.id);
      return found
        ? HttpResponse.json(found)
        : apiError(404, 'LOT_NOT_FOUND', 'Lot nicht gefunden');
    }),
    http.get(apiUrl('/lots/:id/applications-info'), () => HttpResponse.json(queueInfo())),
    http.get(apiUrl('/lots/:id/can-apply'), () => HttpResponse.json(eligibility())),
  ];
}

/** The catalog handlers, then `overrides`, which win over them (msw uses the latest first). */
export function serveCatalog(
  opts: Parameters<typeof catalogHandlers>[0] = {},
  ...overrides: Parameters<typeof server.use>
) {
  server.use(...catalogHandlers(opts));
  if (overrides.length > 0) server.use(...overrides);
}

export { delay };
