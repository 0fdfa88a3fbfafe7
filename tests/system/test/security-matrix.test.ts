/**
 * The authorization matrix (issue 14): every route the gateway publishes × every kind of caller
 * (anonymous, volunteer, admin, expired token, revoked token, forged token), each answer
 * compared with what the route's access in the document says. Nothing answers 5xx; a refused
 * caller gets 401 or 403 with the stable code; an allowed one never does.
 */
import { contractProblem } from '@furniture/platform/testing';
import {
  CALLERS,
  callerTokens,
  errorShapeProblem,
  fillPath,
  routeTable,
  send,
  type Answer,
  type Caller,
  type Route,
} from '../src/security';
import { startSystem, type System } from '../src/stack';

let s: System;
beforeAll(async () => {
  s = await startSystem({ full: true });
});
afterAll(async () => {
  await s?.stop();
});

/** The answer a caller must get, as a status class: 'allowed' means neither 401 nor 403. */
function expected(route: Route, caller: Caller): { status: 'allowed' | 401 | 403; code?: string } {
  if (route.gatewayOwn) return { status: 'allowed' };
  if (caller === 'revoked' || caller === 'forged') return { status: 401, code: 'TOKEN_INVALID' };
  // refresh takes the refresh cookie (none of these callers has one) or the bearer token of a
  // live session, expired or not (the expired one here names no session)
  if (route.method === 'post' && route.path === '/api/v1/auth/refresh')
    return caller === 'admin' || caller === 'volunteer'
      ? { status: 'allowed' }
      : { status: 401, code: 'SESSION_EXPIRED' };
  if (caller === 'expired') return { status: 401, code: 'TOKEN_EXPIRED' };
  if (route.who === 'anyone') return { status: 'allowed' };
  // no caller here has the donation's upload token; a bearer token is no substitute
  if (route.who === 'upload-token') return { status: 401, code: 'DONATION_TOKEN_INVALID' };
  // no caller here signs like a messaging provider (issue 30); a staff token is no substitute
  if (route.who === 'provider-signed') return { status: 403, code: 'MESSAGE_CALLBACK_FORBIDDEN' };
  if (caller === 'anonymous') return { status: 401, code: 'AUTH_REQUIRED' };
  if (route.who === 'admin' && caller === 'volunteer') return { status: 403, code: 'FORBIDDEN' };
  // a referral belongs to a partner agency: only its referrers make one (issue 44)
  if (route.who === 'referrer-only') return { status: 403, code: 'FORBIDDEN' };
  return { status: 'allowed' };
}

/**
 * Calls that end the caller's own session are made with a session of their own; so is the
 * refresh, which uses the token up (a second refresh with it would end the session).
 */
const ENDS_SESSION = new Set([
  'post /api/v1/auth/logout',
  'patch /api/v1/auth/password',
  'post /api/v1/auth/refresh',
]);

test('when every kind of caller calls every route, then each answer is the one its access says, never 5xx', async () => {
  const routes = await routeTable(s);
  const { tokens, fresh } = await callerTokens(s);
  expect(routes.length).toBeGreaterThanOrEqual(50);

  const problems: string[] = [];
  let calls = 0;
  for (const route of routes) {
    for (const caller of CALLERS) {
      let token = tokens[caller];
      if (ENDS_SESSION.has(`${route.method} ${route.path}`) && token) {
        if (caller === 'admin' || caller === 'volunteer') token = await fresh(caller);
      }
      const hasBody = route.method !== 'get' && route.method !== 'delete';
      const path = fillPath(route.path);
      const answer: Answer = await send(s.url, route.method, path, {
        token,
        ...(hasBody ? { body: '{}', contentType: 'application/json' } : {}),
      });
      calls += 1;
      const want = expected(route, caller);
      const where = `${route.method.toUpperCase()} ${route.path} as ${caller} → ${answer.status}`;
      const code = (answer.body as { code?: string } | undefined)?.code;
      if (answer.status >= 500 && !(route.gatewayOwn && answer.status === 503))
        problems.push(`${where}: server error ${code ?? ''}`);
      if (want.status === 'allowed') {
        if (answer.status === 401 || answer.status === 403)
          problems.push(`${where}: refused (${code}) but allowed`);
      } else if (answer.status !== want.status || code !== want.code) {
        problems.push(`${where} ${code}: expected ${want.status} ${want.code}`);
      }
      const shape = errorShapeProblem(answer);
      if (shape) problems.push(`${where}: error shape: ${shape}`);
      const contract = contractProblem({
        method: route.method,
        url: `${s.url}${path}`,
        status: answer.status,
        contentType: answer.contentType,
        body: answer.body,
      });
      if (contract) problems.push(`${where}: ${contract.split('\n')[0]}`);
    }
  }
  expect(calls).toBe(routes.length * CALLERS.length);
  expect(problems).toEqual([]);
});
