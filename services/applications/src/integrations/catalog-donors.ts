import {
  donorErasureAnswer,
  donorRecordsAnswer,
  type Actor,
  type DonorErasure,
} from '@furniture/contracts';
import { DependencyUnavailableError } from '@furniture/platform';
import type { DonorRecordsSource } from '../domain/privacy';

/**
 * The catalog's privacy calls for donations (contracts api/privacy.ts): a number's donations as
 * stored, and their erasure. Unreachable or failing: DependencyUnavailableError (503).
 */
export function catalogDonors(baseUrl: string, timeoutMs = 10000): DonorRecordsSource {
  const post = async (path: string, body: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new DependencyUnavailableError('catalog', err);
    }
    if (!res.ok)
      throw new DependencyUnavailableError('catalog', new Error(`answered ${res.status}`));
    return res.json();
  };
  return {
    async lookup(e164) {
      const answer = await post('/internal/privacy/donations', { phone: e164 });
      return donorRecordsAnswer.parse(answer).donations;
    },
    async erase(e164: string, actor: Actor | null): Promise<DonorErasure> {
      const answer = await post('/internal/privacy/donations/erase', { phone: e164, actor });
      return donorErasureAnswer.parse(answer);
    },
  };
}
