import { Writable } from 'node:stream';
import { createLogger, createServiceApp, finishApp, maskLogValue } from '../src';
import { api, listen } from '../src/testing';

/** A stream that keeps the log lines; `entries()` parses them. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const entries = <T>() =>
    lines
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as T);
  return { lines, stream, entries };
}

describe('personal data in logs', () => {
  test('when a request URL, an error or a message carries a phone number or an e-mail address, then no log line shows it', async () => {
    const { lines, stream } = capture();
    const logger = createLogger('privacy-test', 'info', stream);
    const app = createServiceApp({ name: 'privacy-test', logger: logger, metrics: false });
    app.get('/api/v1/applications/public/check-status/:phone', () => {
      throw new Error('lookup of +49 176 1234 5678 by anna@example.org failed');
    });
    const server = await listen(finishApp(app, logger));
    try {
      const http = api(server.url, { contract: false });
      await http.get('/api/v1/applications/public/check-status/%2B4917612345678');
      await http.get('/api/v1/lots/4/can-apply?phone=0176%2012345678');
      logger.info({ applicant: { phone: '+380501234567' } }, 'mail to anna@example.org');
    } finally {
      await server.close();
    }
    const text = lines.join('');
    expect(text).toContain('[phone]');
    for (const secret of [
      '4917612345678',
      '12345678',
      '380501234567',
      'anna@example.org',
      '1234 5678',
    ])
      expect(text).not.toContain(secret);
    // timestamps and dates stay readable
    expect(maskLogValue({ at: '2026-11-24T02:00:00.000Z' })).toEqual({
      at: '2026-11-24T02:00:00.000Z',
    });
  });

  test('when requests end, then one line each with the request id, masked URL, status and time, at a level by status; probes write none', async () => {
    const { stream, entries: logged } = capture();
    const logger = createLogger('request-log-test', 'info', stream);
    const app = createServiceApp({ name: 'request-log-test', logger: logger, metrics: false });
    app.get('/api/v1/things/:phone', (_req, res) => void res.json({ ok: true }));
    const server = await listen(finishApp(app, logger));
    try {
      const ok = await fetch(`${server.url}/api/v1/things/%2B4917612345678`, {
        headers: { 'x-request-id': 'req-1' },
      });
      expect(ok.headers.get('x-request-id')).toBe('req-1');
      await fetch(`${server.url}/api/v1/nothing`);
      await fetch(`${server.url}/health`);
    } finally {
      await server.close();
    }
    const entries = logged<{
      msg: string;
      req: { id: string; url: string };
      responseTime: unknown;
    }>().filter((e) => e.msg === 'request completed');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      level: 30,
      req: { id: 'req-1', method: 'GET' },
      res: { statusCode: 200 },
    });
    expect(entries[0]!.req.url).toContain('[phone]');
    expect(typeof entries[0]!.responseTime).toBe('number');
    expect(entries[1]).toMatchObject({ level: 40, res: { statusCode: 404 } });
    expect(entries[1]!.req.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when a client goes away before the answer, then the line says aborted at warn, not error', async () => {
    const { stream, entries: logged } = capture();
    const logger = createLogger('request-abort-test', 'info', stream);
    const app = createServiceApp({ name: 'request-abort-test', logger: logger, metrics: false });
    let reached!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    app.get('/api/v1/slow', (_req, res) => {
      reached();
      setTimeout(() => res.json({ ok: true }), 300);
    });
    const server = await listen(finishApp(app, logger));
    try {
      const client = new AbortController();
      const call = fetch(`${server.url}/api/v1/slow`, { signal: client.signal }).catch(() => null);
      await arrived;
      client.abort();
      await call;
      await new Promise((r) => setTimeout(r, 400));
    } finally {
      await server.close();
    }
    const entries = logged<{ level: number; msg: string; req?: { url: string } }>().filter(
      (e) => e.req?.url === '/api/v1/slow',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 40, msg: 'request aborted' });
  });
});

describe('bearer secrets in logs (issue 43)', () => {
  test('when a URL carries a booking link token, a feed key or another secret parameter, then the line shows it redacted and keeps ids, UUIDs and other parameters readable', () => {
    const token = '4f9c0a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789ab';
    const uuid = '6f1c2b7e-3d4a-4e5f-8a9b-0c1d2e3f4a5b';
    const cases: [string, string][] = [
      [`/api/v1/handovers/${token}/booking`, '/api/v1/handovers/[redacted]/booking'],
      [`https://moebel.example/handover/${token}`, 'https://moebel.example/handover/[redacted]'],
      [
        '/api/v1/locations/3/calendar.ics?key=Zx9_abcDEF-1234567890&lang=de',
        '/api/v1/locations/3/calendar.ics?key=[redacted]&lang=de',
      ],
      [
        '/callbacks/whatsapp?hub.verify_token=abc&hub.challenge=4',
        '/callbacks/whatsapp?hub.verify_token=[redacted]&hub.challenge=4',
      ],
      [`/media/lots/5/${uuid}-large.webp`, `/media/lots/5/${uuid}-large.webp`],
      [
        `/internal/donations/7/items/1/photo-claims/${uuid}`,
        `/internal/donations/7/items/1/photo-claims/${uuid}`,
      ],
      ['/api/v1/lots?limit=10&status=available', '/api/v1/lots?limit=10&status=available'],
    ];
    for (const [url, shown] of cases)
      expect(maskLogValue({ req: { url } })).toEqual({ req: { url: shown } });
  });
});
