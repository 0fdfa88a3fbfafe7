// The client of another service's /internal routes with several processes of that service
// (make run REPLICAS=2): calls go round robin, and one whose connection a process refuses goes to
// the next — the call never reached it, so this is safe whatever its method; a read also when a
// kept-alive connection broke under it.
import express from 'express';
import { z } from 'zod';
import { DependencyUnavailableError, internalClient } from '../src';
import { listen } from '../src/testing';

async function instance(name: string) {
  const app = express();
  app.use(express.json());
  app.post('/internal/echo', (req, res) => res.json({ by: name, got: req.body as unknown }));
  app.get('/internal/echo', (_req, res) => res.json({ by: name, got: null }));
  return listen(app);
}

const answer = z.object({ by: z.string(), got: z.unknown() });

describe('an internal client with several addresses', () => {
  test('when both processes are up, then calls alternate; when one is gone, every call, a POST too, reaches the other', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    const client = internalClient({ service: 'catalog', baseUrl: `${a.url}, ${b.url}` });
    const call = (n: number) => client.call('POST', '/internal/echo', { answer, body: { n } });
    const both = [await call(1), await call(2)];
    expect(both.map((r) => r.by).sort()).toEqual(['a', 'b']);
    await a.close();
    // its kept-alive connection broke: a read goes on to the other at once
    for (let n = 0; n < 2; n++)
      expect(await client.call('GET', '/internal/echo', { answer })).toEqual({
        by: 'b',
        got: null,
      });
    for (let n = 0; n < 4; n++) expect(await call(n)).toEqual({ by: 'b', got: { n } });
    await b.close();
    await expect(call(9)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
