import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RevokedTokens, loadRevocations } from '../src/revocations';

/** A stand-in of the auth service's internal call: answers `answers` in turn, the last one after. */
async function fakeAuth(answers: { status: number; body?: unknown }[]) {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const a = answers[Math.min(asked.length - 1, answers.length - 1)]!;
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, close: () => new Promise((r) => server.close(r)) };
}

const token = (sessionId: string) => ({ sessionId, userId: 1, issuedAt: 1 });

describe('loading the ended sessions (a replica that starts or reconnects)', () => {
  it('asks for the sessions ended within the window and refuses their tokens, also after auth was away at first', async () => {
    const auth = await fakeAuth([
      { status: 503 },
      {
        status: 200,
        body: {
          sessions: [{ sid: 's-1', revoked_at: new Date().toISOString() }],
          truncated: false,
        },
      },
    ]);
    const revoked = new RevokedTokens();
    try {
      const loaded = await loadRevocations({
        authUrl: auth.url,
        revoked,
        windowMs: 60_000,
        firstPauseMs: 10,
      });
      expect(loaded).toBe(1);
      expect(revoked.isRevoked(token('s-1'))).toBe(true);
      expect(revoked.isRevoked(token('s-2'))).toBe(false);
      expect(auth.asked).toHaveLength(2);
      const since = new URL(auth.asked[1]!, auth.url).searchParams.get('since')!;
      expect(Date.now() - Date.parse(since)).toBeGreaterThanOrEqual(60_000);
      expect(Date.now() - Date.parse(since)).toBeLessThan(70_000);
    } finally {
      await auth.close();
    }
  });

  it('gives up after its attempts when auth does not answer (the events alone count then)', async () => {
    const auth = await fakeAuth([{ status: 500 }]);
    try {
      const loaded = await loadRevocations({
        authUrl: auth.url,
        revoked: new RevokedTokens(),
        windowMs: 1000,
        attempts: 3,
        firstPauseMs: 5,
      });
      expect(loaded).toBeNull();
      expect(auth.asked).toHaveLength(3);
    } finally {
      await auth.close();
    }
  });

  it('ignores an answer that breaks the contract instead of trusting part of it', async () => {
    const auth = await fakeAuth([{ status: 200, body: { sessions: [{ id: 'x' }] } }]);
    const revoked = new RevokedTokens();
    try {
      expect(
        await loadRevocations({ authUrl: auth.url, revoked, windowMs: 1000, attempts: 1 }),
      ).toBeNull();
    } finally {
      await auth.close();
    }
  });
});
