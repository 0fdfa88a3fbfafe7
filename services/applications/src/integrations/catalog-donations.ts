import { donationContactsAnswer } from '@furniture/contracts';
import { DependencyUnavailableError } from '@furniture/platform';
import type { DonationContactsSource } from '../domain/handovers';

/**
 * The catalog's donations as a driver needs them (issue 29): donor, phone, address, status, at
 * request time (contracts api/internal.ts). Unreachable or failing: DependencyUnavailableError.
 */
export function catalogDonations(baseUrl: string, timeoutMs = 10000): DonationContactsSource {
  return {
    async contacts(ids) {
      let res: Response;
      try {
        res = await fetch(new URL('/internal/donations/contacts', baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ids }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new DependencyUnavailableError('catalog', err);
      }
      if (!res.ok)
        throw new DependencyUnavailableError('catalog', new Error(`answered ${res.status}`));
      return donationContactsAnswer.parse(await res.json()).donations;
    },
  };
}
