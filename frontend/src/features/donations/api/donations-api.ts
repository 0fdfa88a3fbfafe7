import type { DonationStatus, Language } from '@furniture/contracts/enums';
import { api } from '../../../app/api';
import { objectOf } from '../../../lib/json';

/*
 * The donor's calls of issue 28. The shapes are the issue's; they move to the contracts'
 * schemas (contracts/src/api) once the donation API has them.
 */

/** One offered piece of furniture in POST /donations/. */
export interface DonationItemPayload {
  category_id: number;
  description: string;
  dimensions?: string;
  /** one of LOT_CONDITIONS, so that a lot made of it keeps it */
  condition?: string;
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

/** 201 of POST /donations/: the token lets the browser add the photos for an hour. */
export interface DonationCreated {
  id: number;
  status: DonationStatus;
  created_at: string;
  items: { id: number }[];
  upload_token: string;
}

/** One donation of POST /donations/lookup. */
export interface DonationLookupItem {
  id: number;
  status: DonationStatus;
  created_at: string;
  items: { id: number; description: string; photos: string[] }[];
}

/**
 * A photo of an answer as the address to show: a string, or the media service's sizes
 * (thumbnail first, small on a list).
 */
export function photoAddressOf(photo: unknown): string {
  if (typeof photo === 'string') return photo;
  const p = objectOf(photo);
  const urls = objectOf(p.urls ?? p);
  for (const size of ['thumbnail', 'medium', 'large', 'url']) {
    if (typeof urls[size] === 'string' && urls[size] !== '') return urls[size];
  }
  return '';
}

/** Newest first, whatever order the server used. */
function lookupListOf(body: unknown): DonationLookupItem[] {
  const list = objectOf(body).donations;
  if (!Array.isArray(list)) return [];
  return list
    .map((raw) => {
      const d = objectOf(raw);
      const items = Array.isArray(d.items) ? d.items : [];
      return {
        id: Number(d.id),
        status: d.status as DonationStatus,
        created_at: String(d.created_at ?? ''),
        items: items.map((rawItem) => {
          const item = objectOf(rawItem);
          const photos = Array.isArray(item.photos) ? item.photos : [];
          return {
            id: Number(item.id),
            description: typeof item.description === 'string' ? item.description : '',
            photos: photos.map(photoAddressOf).filter((url) => url !== ''),
          };
        }),
      };
    })
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
