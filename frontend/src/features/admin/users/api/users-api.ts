import { Limits } from '@furniture/contracts/limits';
import type { Role } from '@furniture/contracts/enums';
import { adminApi } from '../../api/admin-api';
import type { StaffUser } from '../../session';

export interface UsersQuery {
  page: number;
  search: string;
  role: Role | '';
}

export interface UsersPage {
  users: StaffUser[];
  total: number;
}

export interface UserBody {
  name: string;
  email: string;
  role: Role;
  /** required on create; on edit an empty one keeps the current password */
  password?: string;
  /** a referrer's partner agency (issue 44): required when a referrer is made */
  agency_id?: number;
}

export const USERS_PAGE_SIZE = Limits.defaultPageSize;

/** Users calls of back-office §7 (administrators only). */
export const usersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<UsersPage, UsersQuery>({
      query: ({ page, search, role }) => ({
        url: '/users',
        params: {
          page,
          limit: USERS_PAGE_SIZE,
          ...(search.trim() ? { search: search.trim() } : {}),
          ...(role ? { role } : {}),
        },
      }),
      providesTags: ['StaffUser'],
    }),
    createUser: build.mutation<StaffUser, UserBody>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      invalidatesTags: ['StaffUser'],
    }),
    updateUser: build.mutation<StaffUser, { id: number; body: Partial<UserBody> }>({
      query: ({ id, body }) => ({ url: `/users/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['StaffUser', 'Me'],
    }),
    deleteUser: build.mutation<unknown, number>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: ['StaffUser'],
    }),
  }),
});

export const {
  useGetUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
} = usersApi;
