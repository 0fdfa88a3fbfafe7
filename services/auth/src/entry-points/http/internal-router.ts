import { Router } from 'express';
import { revocationsQuerySchema, type RevocationsPage } from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { AuthService } from '../../domain/auth-service';

/** Sessions one answer lists at most (far more than end within an access token's lifetime). */
const REVOCATIONS_PAGE = 10000;

/**
 * /internal: calls of other services (never routed by the gateway; services are reachable only
 * inside the deployment). GET /internal/revocations: the sessions ended since a time, which a
 * starting or reconnected replica loads into its revoked-token set (contracts api/internal.ts).
 * Session ids only: no user, no address.
 */
export function internalRouter(auth: AuthService): Router {
  const r = Router();
  r.get('/revocations', async (req, res) => {
    const { since } = input.query(req, revocationsQuerySchema);
    const page: RevocationsPage = await auth.endedSessionsSince(new Date(since), REVOCATIONS_PAGE);
    res.json(page);
  });
  return r;
}
