// Several processes of one service behind the gateway (issue 42, make run REPLICAS=2): requests
// spread round robin; one that is gone is passed over, and a request whose connection it refused
// goes to the other, its body sent again; /api/v1/health counts the ready ones.
import express from 'express';
import { listen } from '@furniture/platform/testing';
import { startTestGateway } from './harness';
import { Upstreams } from '../src/upstreams';

/** A process of a stand-in catalog: answers its name and the body it got. */
async function instance(name: string) {
  const seen: string[] = [];
  let ready = true;
  const app = express();
  app.get('/ready', (_req, res) => res.status(ready ? 200 : 503).json({ status: 'x' }));
  app.use(express.json());
  app.use((req, res) => {
    seen.push(`${req.method} ${req.originalUrl}`);
    res.json({ instance: name, body: req.body as unknown });
  });
  const server = await listen(app);
  return { ...server, seen, setReady: (value: boolean) => (ready = value) };
}

describe('several processes of a service', () => {
  test('when both are up, then requests alternate between them; health counts two', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    const gateway = await startTestGateway({ CATALOG_URL: `${a.url},${b.url}` });
    try {
      const names: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${gateway.url}/api/v1/lots/search?q=${i}`);
        names.push(((await res.json()) as { instance: string }).instance);
      }
      expect(names.filter((n) => n === 'a')).toHaveLength(3);
      expect(names.filter((n) => n === 'b')).toHaveLength(3);
      const health = (await (await fetch(`${gateway.url}/api/v1/health`)).json()) as {
        services: Record<string, { instances: number }>;
      };
      expect(health.services.catalog!.instances).toBe(2);
    } finally {
      await gateway.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('when one is gone, then every request, a POST with its body too, is served by the other; health counts one', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    const gateway = await startTestGateway(
      { CATALOG_URL: `${a.url},${b.url}` },
      { RATE_LIMIT_PUBLIC_WRITES: '1000' },
    );
    try {
      await a.close();
      for (let i = 0; i < 6; i++) {
        const get = await fetch(`${gateway.url}/api/v1/lots/search?q=${i}`);
        expect(get.status).toBe(200);
        expect(((await get.json()) as { instance: string }).instance).toBe('b');
        const post = await fetch(`${gateway.url}/api/v1/donations/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ n: i }),
        });
        expect(post.status).toBe(200);
        expect(await post.json()).toEqual({ instance: 'b', body: { n: i } });
      }
      const health = (await (await fetch(`${gateway.url}/api/v1/health`)).json()) as {
        status: string;
        services: Record<string, { ready: boolean; instances: number }>;
      };
      expect(health.services.catalog).toMatchObject({ ready: true, instances: 1 });
    } finally {
      await gateway.close();
      await b.close();
    }
  });

  test('when both are gone, then 503 SERVICE_UNAVAILABLE', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    const gateway = await startTestGateway({ CATALOG_URL: `${a.url},${b.url}` });
    try {
      await Promise.all([a.close(), b.close()]);
      const res = await fetch(`${gateway.url}/api/v1/lots/search`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await gateway.close();
    }
  });
});

describe('the pool of one service', () => {
  test('when a process is not ready, then the probe passes it over until it is again', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    try {
      const pool = Upstreams.parse('catalog', `${a.url}, ${b.url}`);
      a.setReady(false);
      await pool.probe();
      expect([pool.pick(), pool.pick(), pool.pick()]).toEqual([b.url, b.url, b.url]);
      a.setReady(true);
      await pool.probe();
      expect(new Set([pool.pick(), pool.pick()])).toEqual(new Set([a.url, b.url]));
      // one a request saw refuse a connection is passed over even before the next probe
      pool.failed(`${b.url}/api/v1/lots`);
      expect([pool.pick(), pool.pick()]).toEqual([a.url, a.url]);
      // with every one down, the next is tried anyway (it may be back before the probe says so)
      pool.failed(a.url);
      expect(pool.pick()).toBeDefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
