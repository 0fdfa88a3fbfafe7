import { Router } from 'express';
import { revocationsQuerySchema, type RevocationsPage } from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { SessionsRepository } from '../../data-access/sessions-repository';

/** Sessions one answer lists at most (far more than end within an access token's lifetime). */
const REVOCATIONS_PAGE = 10000;

/**
 * /internal: calls of other services (never routed by the gateway; services are reachable only
 * inside the deployment). GET /internal/revocations: the sessions ended since a time, which a
 * starting or reconnected replica loads into its revoked-token set (contracts api/internal.ts).
 * Session ids only: no user, no address.
 */
export function internalRouter(sessions: SessionsRepository): Router {
  const r = Router();
  r.get('/revocations', async (req, res) => {
    const { since } = input.query(req, revocationsQuerySchema);
    const ended = await sessions.endedSince(new Date(since), REVOCATIONS_PAGE + 1);
    const page: RevocationsPage = {
      sessions: ended
        .slice(0, REVOCATIONS_PAGE)
        .map((s) => ({ sid: s.sid, revoked_at: s.revoked_at.toISOString() })),
      truncated: ended.length > REVOCATIONS_PAGE,
    };
    res.json(page);
  });
  return r;
}
