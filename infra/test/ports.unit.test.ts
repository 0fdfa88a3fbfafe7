import net from 'node:net';
import { freePort, freePortRun, isPortFree } from '../src/util';

// CI once failed because MinIO was given a port that the mail catcher's listen(0) had taken a
// moment later: the kernel hands ports of its ephemeral range to anyone who asks.
const EPHEMERAL_LOW = 32_768;

describe('free ports', () => {
  it('are below the ephemeral range and never handed out twice by one process', async () => {
    const ports = await Promise.all(Array.from({ length: 300 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(EPHEMERAL_LOW);
    }
  });

  it('give a run of consecutive ports that overlaps no port handed out before', async () => {
    const single = new Set(await Promise.all(Array.from({ length: 100 }, () => freePort())));
    const base = await freePortRun(5);
    const run = Array.from({ length: 5 }, (_, i) => base + i);
    expect(run.some((p) => single.has(p))).toBe(false);
    expect(base + 4).toBeLessThan(EPHEMERAL_LOW);
    expect(await freePort()).not.toBe(base);
  });

  it('skip a port someone else listens on', async () => {
    const taken = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(taken, '127.0.0.1', resolve));
    try {
      expect(await isPortFree(taken)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await isPortFree(taken)).toBe(true);
  });
});
