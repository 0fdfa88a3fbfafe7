import type { AddressInfo } from 'node:net';
import express from 'express';
import { Lifecycle } from '../src/lifecycle';
import { createLogger } from '../src/logger';

const quiet = createLogger('lifecycle-test', 'silent');

/** An app whose /ready follows the lifecycle, as every service's does. */
async function serve(lifecycle: Lifecycle): Promise<string> {
  const app = express();
  app.get('/ready', (_req, res) => {
    res.status(lifecycle.isAccepting() ? 200 : 503).end();
  });
  app.get('/work', (_req, res) => {
    res.json({ ok: true });
  });
  const server = await lifecycle.listen(app, 0, '127.0.0.1');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const status = (url: string) =>
  fetch(url).then(
    (r) => r.status,
    () => 'refused' as const,
  );

describe('Lifecycle drain (replicas: no request refused during a rollout)', () => {
  it('reports not-ready at once but goes on serving for the drain delay, then stops', async () => {
    const lifecycle = new Lifecycle(quiet, 1000, 400);
    const base = await serve(lifecycle);
    expect(await status(`${base}/ready`)).toBe(200);

    const stopped = lifecycle.shutdown();
    // during the drain the endpoints still send requests: they are answered
    expect(await status(`${base}/ready`)).toBe(503);
    expect(await status(`${base}/work`)).toBe(200);

    await stopped;
    expect(await status(`${base}/work`)).toBe('refused');
  });

  it('without a drain delay stops accepting at once (the single-machine run)', async () => {
    const lifecycle = new Lifecycle(quiet, 1000);
    const base = await serve(lifecycle);
    await lifecycle.shutdown();
    expect(await status(`${base}/work`)).toBe('refused');
  });
});
