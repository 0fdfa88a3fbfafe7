import type { TokenAnswer } from '../../../../app/api';
import { adminApi } from '../../api/admin-api';
import type { StaffUser } from '../session-slice';

export interface LoginBody {
  email: string;
  password: string;
}

export interface PasswordChangeAnswer extends TokenAnswer {
  success: boolean;
}

/** Auth calls of back-office §7 (POST login, GET me, POST logout, PATCH profile and password). */
export const authApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<TokenAnswer, LoginBody>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    getMe: build.query<StaffUser, void>({
      query: () => '/auth/me',
      providesTags: ['Me'],
    }),
    logout: build.mutation<unknown, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    updateProfile: build.mutation<StaffUser, { name: string; email: string }>({
      query: (body) => ({ url: '/auth/profile', method: 'PATCH', body }),
      invalidatesTags: ['Me', 'StaffUser'],
    }),
    changePassword: build.mutation<
      PasswordChangeAnswer,
      { current_password: string; new_password: string }
    >({
      query: (body) => ({ url: '/auth/password', method: 'PATCH', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useGetMeQuery,
  useLogoutMutation,
  useUpdateProfileMutation,
  useChangePasswordMutation,
} = authApi;
