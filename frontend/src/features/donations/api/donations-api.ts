import type { DonationCreated, DonationLookup } from '@furniture/contracts/api/donations';
import type { DonationStatus, ItemCondition, Language } from '@furniture/contracts/enums';
import { api } from '../../../app/api';

/* The donor's calls of issue 28 (contracts/src/api/donations.ts). */

/** One offered piece of furniture in POST /donations/ (what the form sends of the schema). */
export interface DonationItemPayload {
  category_id: number;
  description: string;
  dimensions?: string;
  /** one of the lot form's conditions, so that a lot made of it keeps it */
  condition?: ItemCondition;
  can_disassemble?: boolean;
}

/** POST /donations/ */
export interface DonationPayload {
  donor_name: string;
  /** normalized like an application's (the server stores E.164) */
  donor_phone: string;
  donor_email?: string;
  language: Language;
  city: string;
  address: string;
  floor?: number;
  has_elevator?: boolean;
  /** YYYY-MM-DD, not in the past */
  available_until: string;
  items: DonationItemPayload[];
  consent: true;
  /** "my name may be shown as the lot's donor" */
  donor_name_public: boolean;
}

export type { DonationCreated };

/** One donation of POST /donations/lookup, its photos as the addresses to show. */
export interface DonationLookupItem {
  id: number;
  status: DonationStatus;
  created_at: string;
  available_until: string;
  items: { id: number; description: string; photos: string[] }[];
}

/** Newest first, whatever order the server used; each photo's small size. */
function lookupListOf(body: DonationLookup): DonationLookupItem[] {
  return (body.donations ?? [])
    .map((d) => ({
      ...d,
      items: d.items.map((item) => ({
        ...item,
        photos: item.photos.map((p) => p.thumbnail || p.medium || p.large).filter(Boolean),
      })),
    }))
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
}

export const donationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    submitDonation: build.mutation<DonationCreated, DonationPayload>({
      query: (body) => ({ url: '/donations/', method: 'POST', body }),
    }),
    /** a POST (the phone stays out of the address), limited like check-status */
    lookupDonations: build.mutation<DonationLookupItem[], string>({
      query: (phone) => ({ url: '/donations/lookup', method: 'POST', body: { phone } }),
      transformResponse: lookupListOf,
    }),
  }),
});

export const { useSubmitDonationMutation, useLookupDonationsMutation } = donationsApi;
