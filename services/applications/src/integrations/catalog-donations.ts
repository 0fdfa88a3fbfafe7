import { donationContactsAnswer } from '@furniture/contracts';
import type { InternalClient } from '@furniture/platform';
import type { DonationContactsSource } from '../domain/handovers';

/**
 * The catalog's donations as a driver needs them (issue 29): donor, phone, address, status, at
 * request time (contracts api/internal.ts). Unreachable or failing: DependencyUnavailableError.
 */
export function catalogDonations(catalog: InternalClient): DonationContactsSource {
  return {
    async contacts(ids) {
      const answer = await catalog.call('POST', '/internal/donations/contacts', {
        body: { ids },
        answer: donationContactsAnswer,
      });
      return answer.donations;
    },
  };
}
