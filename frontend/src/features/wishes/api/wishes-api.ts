import type { WishCreated } from '@furniture/contracts/api/applications';
import type { Language } from '@furniture/contracts/enums';
import { api } from '../../../app/api';

/** POST /wishes/ (public-site §3), plus the page language and the honeypot. */
export interface WishPayload {
  applicant_name: string;
  applicant_whatsapp: string;
  furniture_category: number;
  furniture_description: string;
  language: Language;
  website: string;
}

export const wishesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createWish: build.mutation<WishCreated, WishPayload>({
      query: (body) => ({ url: '/wishes/', method: 'POST', body }),
    }),
  }),
});

export const { useCreateWishMutation } = wishesApi;
