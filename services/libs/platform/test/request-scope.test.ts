// The last-resort handler (request-scope.ts, issue 48): an error nothing caught on one request's
// path answers that request 502 and leaves the process serving; one outside any request still
// ends it. A child process, as these handlers are the process's own.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const FIXTURE = path.join(__dirname, 'fixtures', 'last-resort-server.js');

async function start(env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr!.on('data', (c: Buffer) => errors.push(c.toString()));
  const logs: string[] = [];
  const lines = readline.createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      logs.push(line);
      const parsed = JSON.parse(line) as { port?: number };
      if (parsed.port) resolve(parsed.port);
    });
    child.once('exit', () => reject(new Error(`exited: ${errors.join('')}`)));
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { url: `http://127.0.0.1:${port}`, child, logs, exited };
}

describe('an error nothing caught', () => {
  test('when it is thrown on a request’s path, then that request is answered 502 and the process serves on', async () => {
    const server = await start();
    try {
      for (const route of ['/throws-later', '/rejects-later']) {
        const res = await fetch(`${server.url}${route}`);
        expect(res.status).toBe(502);
        expect(((await res.json()) as { code: string }).code).toBe('BAD_GATEWAY');
      }
      // begun answers are cut: the client sees the connection end, not a second status
      await expect(
        fetch(`${server.url}/throws-mid-answer`).then((res) => res.text()),
      ).rejects.toThrow();
      const ok = await fetch(`${server.url}/ok`);
      expect(ok.status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.logs.join('\n')).toMatch(/on a request's path; answered 502/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  test('when it is thrown outside any request, then the process logs it and exits', async () => {
    const server = await start({ THROW_OUTSIDE_MS: '50' });
    expect(await server.exited).toBe(1);
    expect(server.logs.join('\n')).toMatch(/outside a request; last-resort exits/);
  });
});
