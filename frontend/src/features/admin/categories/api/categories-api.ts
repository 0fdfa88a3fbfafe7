import { toLocalizedText, type LocalizedText } from '../../../../lib/localized';
import { adminApi } from '../../api/admin-api';

/** A category as the back-office shows it (back-office §3). */
export interface AdminCategory {
  id: number;
  name: LocalizedText;
  description: LocalizedText;
  icon: string;
  /** lots visitors can find (not archived) */
  lotCount: number;
  /** archived lots: they still hold the category, so it cannot be deleted while any remain */
  archivedLotCount: number;
  createdAt: string;
  version: number;
}

export interface CategoryBody {
  name: LocalizedText;
  description: LocalizedText;
  icon: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

export function toAdminCategory(raw: unknown): AdminCategory {
  const c = obj(raw);
  const count = Number(c.lot_count ?? c.lotCount ?? 0);
  const archived = Number(c.archived_lot_count ?? 0);
  return {
    id: Number(c.id),
    name: toLocalizedText(c.name),
    description: toLocalizedText(c.description),
    icon: typeof c.icon === 'string' ? c.icon : '',
    lotCount: Number.isFinite(count) ? count : 0,
    archivedLotCount: Number.isFinite(archived) ? archived : 0,
    createdAt: typeof c.created_at === 'string' ? c.created_at : '',
    version: Number(c.version ?? 1),
  };
}

/** Category calls of back-office §7 (answers `{success, data}`). */
export const categoriesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminCategories: build.query<AdminCategory[], void>({
      query: () => '/categories/',
      transformResponse: (body: unknown) => {
        const data = obj(body).data ?? body;
        return Array.isArray(data) ? data.map(toAdminCategory) : [];
      },
      providesTags: ['Category'],
    }),
    getAdminCategory: build.query<AdminCategory, number>({
      query: (id) => `/categories/${id}`,
      transformResponse: (body: unknown) => toAdminCategory(obj(body).data ?? body),
      providesTags: (_c, _e, id) => [{ type: 'Category', id }],
    }),
    createCategory: build.mutation<AdminCategory, CategoryBody>({
      query: (body) => ({ url: '/categories/', method: 'POST', body }),
      transformResponse: (body: unknown) => toAdminCategory(obj(body).data ?? body),
      invalidatesTags: ['Category'],
    }),
    updateCategory: build.mutation<
      AdminCategory,
      { id: number; body: CategoryBody & { version: number } }
    >({
      query: ({ id, body }) => ({ url: `/categories/${id}`, method: 'PUT', body }),
      transformResponse: (body: unknown) => toAdminCategory(obj(body).data ?? body),
      invalidatesTags: ['Category'],
    }),
    deleteCategory: build.mutation<unknown, number>({
      query: (id) => ({ url: `/categories/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Category'],
    }),
  }),
});

export const {
  useGetAdminCategoriesQuery,
  useGetAdminCategoryQuery,
  useCreateCategoryMutation,
  useUpdateCategoryMutation,
  useDeleteCategoryMutation,
} = categoriesApi;
