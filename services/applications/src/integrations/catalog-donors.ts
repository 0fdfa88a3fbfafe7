import {
  donorErasureAnswer,
  donorRecordsAnswer,
  type Actor,
  type DonorErasure,
} from '@furniture/contracts';
import type { InternalClient } from '@furniture/platform';
import type { DonorRecordsSource } from '../domain/privacy';

/**
 * The catalog's privacy calls for donations (contracts api/privacy.ts): a number's donations as
 * stored, and their erasure. Unreachable or failing: DependencyUnavailableError (503).
 */
export function catalogDonors(catalog: InternalClient): DonorRecordsSource {
  return {
    async lookup(e164) {
      const answer = await catalog.call('POST', '/internal/privacy/donations', {
        body: { phone: e164 },
        answer: donorRecordsAnswer,
      });
      return answer.donations;
    },
    async erase(e164: string, actor: Actor | null): Promise<DonorErasure> {
      return catalog.call('POST', '/internal/privacy/donations/erase', {
        body: { phone: e164, actor },
        answer: donorErasureAnswer,
      });
    },
  };
}
