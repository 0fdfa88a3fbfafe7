import express from 'express';
import { createMetricsApp, createServiceApp, finishApp, type ServiceAppOptions } from '../src';
import { api, listen, silentLogger } from '../src/testing';

/** A service app with one route, listening on a free port. */
async function start(opts: Omit<ServiceAppOptions, 'logger'>) {
  const app = createServiceApp({ ...opts, logger: silentLogger });
  const router = express.Router();
  router.get('/api/v1/things/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.use(router);
  const server = await listen(finishApp(app, silentLogger));
  // a test app with routes of its own, not the platform API: its answers are not in the document
  return { server, http: api(server.url, { contract: false }) };
}

describe('service app: health, readiness and metrics', () => {
  test('when metrics are on, then /metrics of the metrics port counts requests by route pattern and status under the service label, and the API port has none', async () => {
    const { server, http } = await start({ name: 'metrics-on-test', metrics: true });
    const metrics = await listen(createMetricsApp('metrics-on-test'));
    try {
      await http.get('/api/v1/things/1');
      await http.get('/api/v1/things/2');
      await http.get('/nowhere');
      expect((await http.get('/metrics')).status).toBe(404);
      const res = await api(metrics.url, { contract: false }).get<string>('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const count = (route: string, status: string) =>
        Number(
          res.body
            .split('\n')
            .find(
              (line) =>
                line.startsWith('http_request_duration_seconds_count{') &&
                line.includes(`route="${route}"`) &&
                line.includes(`status="${status}"`),
            )
            ?.split(' ')
            .pop(),
        );
      expect(count('/api/v1/things/:id', '200')).toBe(2);
      // /nowhere, and /metrics asked of the API port
      expect(count('unmatched', '404')).toBe(2);
      expect(res.body).toContain('service="metrics-on-test"');
      // the metrics listener serves nothing else
      expect((await api(metrics.url, { contract: false }).get('/ready')).status).toBe(404);
    } finally {
      await server.close();
      await metrics.close();
    }
  });

  test('when metrics are off (METRICS_ENABLED=false), then /metrics is not found', async () => {
    const { server, http } = await start({ name: 'metrics-off-test', metrics: false });
    try {
      expect((await http.get('/metrics')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  test('when a required check fails or the service stops accepting, then /ready answers 503 while /health stays 200', async () => {
    let mongo = true;
    let accepting = true;
    const { server, http } = await start({
      name: 'ready-test',
      metrics: false,
      checks: { mongo: () => mongo },
      info: {
        broker: () => {
          throw new Error('down');
        },
      },
      isAccepting: () => accepting,
    });
    try {
      const ready = await http.get('/ready');
      // the broker is only reported: events wait in the outbox meanwhile
      expect(ready.status).toBe(200);
      expect(JSON.stringify(ready.body)).toContain('"broker":false');
      mongo = false;
      expect((await http.get('/ready')).status).toBe(503);
      mongo = true;
      accepting = false;
      expect((await http.get('/ready')).status).toBe(503);
      expect(await http.get('/health')).toMatchObject({
        status: 200,
        body: { status: 'ok', service: 'ready-test' },
      });
    } finally {
      await server.close();
    }
  });
});
