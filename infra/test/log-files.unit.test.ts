// make run's log files stay below a size with a few older ones kept (src/log-files.ts): the
// services' logs as they grow, through the supervisor; FerretDB's and MinIO's at each start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logRotation, rotateIfFull, RotatingLog } from '../src/log-files';
import { Supervisor } from '../src/run/supervisor';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-files-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const filesIn = (d: string) => fs.readdirSync(d).sort();

test('when a log grows past its size, then it is moved aside, the oldest beyond the kept ones deleted', () => {
  const file = path.join(dir, 'catalog.log');
  const log = new RotatingLog(file, { maxBytes: 100, keep: 2 });
  // 10 lines of 25 bytes: a file every 4 lines
  for (let i = 0; i < 10; i++) log.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(16)}`);
  log.close();
  expect(filesIn(dir)).toEqual(['catalog.log', 'catalog.log.1', 'catalog.log.2']);
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  // newest in the file itself, the oldest moved-aside file has the highest number
  expect(read('catalog.log')).toMatch(/^line 08 .*\nline 09 .*\n$/);
  expect(read('catalog.log.1')).toMatch(/^line 04 [^]*line 07 .*\n$/);
  expect(read('catalog.log.2')).toMatch(/^line 00 [^]*line 03 .*\n$/);
  for (const name of filesIn(dir)) expect(fs.statSync(path.join(dir, name)).size).toBeLessThan(101);
});

test('when nothing may be kept, then a full log starts afresh', () => {
  const file = path.join(dir, 'gateway.log');
  const log = new RotatingLog(file, { maxBytes: 10, keep: 0 });
  log.write('0123456789');
  log.write('abc');
  log.close();
  expect(filesIn(dir)).toEqual(['gateway.log']);
  expect(fs.readFileSync(file, 'utf8')).toBe('abc\n');
});

test('when a process starts on a full log of its own (FerretDB, MinIO), then the old one is moved aside first', () => {
  const file = path.join(dir, 'ferretdb.log');
  fs.writeFileSync(file, 'y'.repeat(50));
  rotateIfFull(file, { maxBytes: 100, keep: 3 });
  expect(filesIn(dir)).toEqual(['ferretdb.log']);
  fs.appendFileSync(file, 'y'.repeat(60));
  rotateIfFull(file, { maxBytes: 100, keep: 3 });
  expect(filesIn(dir)).toEqual(['ferretdb.log.1']);
});

test('when the limits are configured, then RUN_LOG_MAX_MB and RUN_LOG_KEEP are read, and nonsense refused', () => {
  expect(logRotation({})).toEqual({ maxBytes: 10 * 1024 * 1024, keep: 3 });
  expect(logRotation({ RUN_LOG_MAX_MB: '0.5', RUN_LOG_KEEP: '5' })).toEqual({
    maxBytes: 512 * 1024,
    keep: 5,
  });
  expect(() => logRotation({ RUN_LOG_MAX_MB: 'lots' })).toThrow(/RUN_LOG_MAX_MB/);
  expect(() => logRotation({ RUN_LOG_KEEP: '-1' })).toThrow(/RUN_LOG_KEEP/);
});

test('when a supervised service logs a lot, then its log file is rotated while it runs and keeps every line', async () => {
  const entry = path.join(dir, 'chatty.js');
  // 200 lines of 51 bytes on stdout and stderr, then it stays up until stopped
  fs.writeFileSync(
    entry,
    `for (let i = 0; i < 200; i++) (i % 2 ? console.error : console.log)('line ' + String(i).padStart(3, '0') + ' ' + 'z'.repeat(41));
     setInterval(() => {}, 1000);`,
  );
  const logDir = path.join(dir, 'logs');
  const printed: string[] = [];
  const supervisor = new Supervisor({
    logDir,
    print: (line) => printed.push(line),
    cwd: dir,
    rotation: { maxBytes: 2000, keep: 10 },
  });
  supervisor.start({ name: 'chatty', entry, env: process.env });
  try {
    const deadline = Date.now() + 20000;
    while (printed.length < 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
  } finally {
    await supervisor.stop();
  }
  expect(printed).toHaveLength(200);
  const files = filesIn(logDir);
  // 10 200 bytes in files of at most 2 000: the current one and five moved aside
  expect(files).toEqual(['chatty.log', ...[1, 2, 3, 4, 5].map((n) => `chatty.log.${n}`)]);
  const lines = files
    .slice()
    .reverse()
    .flatMap((name) => fs.readFileSync(path.join(logDir, name), 'utf8').split('\n'))
    .filter(Boolean);
  expect(lines).toHaveLength(200);
  for (const name of files) expect(fs.statSync(path.join(logDir, name)).size).toBeLessThan(2052);
});
