// npx tsx services/notification/bench/notification.ts — the notification service in-process on
// this machine's real servers (FerretDB on PostgreSQL or SQLite as the launcher chooses, see
// FERRETDB_BACKEND; RabbitMQ; Mailpit; started fresh under .data/bench-notification): how fast events become log entries and mails, and how long the
// admin's reads take over that log. Prints figures; asserts nothing.
import path from 'node:path';
import { Events, type DomainEvent } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { REPO_ROOT, startInfra } from '@furniture/infra';
import { startNotification } from '../test/harness';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const MAILS = Number(process.env.BENCH_MAILS ?? 300);
const READS = Number(process.env.BENCH_READS ?? 200);

const actor = { id: 1, name: 'Anna Admin', email: 'anna@example.org', role: 'admin' as const };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

async function main(): Promise<void> {
  const progress = (line: string) => console.error(`[bench] ${line}`);
  let backend = 'an external server';
  const infra = await startInfra({
    dataDir: path.join(REPO_ROOT, '.data', 'bench-notification'),
    fresh: true,
    dropDatabaseOnStop: true,
    log: (line) => {
      if (/FerretDB ready/.test(line)) backend = /PostgreSQL/.test(line) ? 'PostgreSQL' : 'SQLite';
      progress(line);
    },
  });
  Object.assign(process.env, infra.env);
  // the harness reads the URLs from the environment, as under jest
  const svc = await startNotification({ MAIL_CONCURRENCY: '4' });
  const lines: string[] = [];
  const stopAll = async () => {
    await svc.stop().catch(() => undefined);
    await infra.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().then(() => process.exit(1)));
  try {
    // 1. events → log entries
    const base = Date.UTC(2025, 0, 1);
    const events: DomainEvent[] = Array.from({ length: EVENTS }, (_, i) => {
      const lot = {
        id: i + 1,
        name: { de: `Los ${i + 1}`, uk: `Лот ${i + 1}` },
        status: 'available' as const,
        category_id: (i % 8) + 1,
        photos: [],
        version: 1,
        created_at: new Date(base).toISOString(),
        updated_at: new Date(base).toISOString(),
      };
      const e =
        i % 3 === 0
          ? createEvent(Events.LotCreated, { lot }, actor)
          : i % 3 === 1
            ? createEvent(
                Events.ApplicationNoteAdded,
                { application_id: i, lot_id: i, note: `Notiz ${i}` },
                actor,
              )
            : createEvent(Events.UserLoggedIn, { user: actor });
      return { ...e, occurredAt: new Date(base + i * 60_000).toISOString() };
    });
    const logs = svc.conn.collection('activity_logs');
    const [, ingestMs] = await timed(async () => {
      await Promise.all(events.map((e) => svc.publish(e)));
      progress(`published ${EVENTS} events`);
      for (let n = 0; n < EVENTS; n = await logs.countDocuments()) {
        await new Promise((r) => setTimeout(r, 1000));
        progress(`${n} entries`);
      }
    });
    lines.push(
      `events → log entries: ${EVENTS} in ${(ingestMs / 1000).toFixed(1)} s = ${Math.round((EVENTS / ingestMs) * 1000)} events/s (publish included)`,
    );

    // 2. events → mails through SMTP
    const mails = svc.conn.collection('mails');
    const [, mailMs] = await timed(async () => {
      await Promise.all(
        Array.from({ length: MAILS }, (_, i) =>
          svc.publish(
            createEvent(Events.ApplicationSubmitted, {
              application_id: 100_000 + i,
              lot_id: 1,
              status: 'pending',
              applicant_name: 'Olena Kovalenko',
              applicant_email: `bench-${i}@example.org`,
              language: i % 2 ? 'uk' : 'de',
              lot_name: { de: 'Ecksofa', uk: 'Кутовий диван' },
              queue_position: i + 1,
            }),
          ),
        ),
      );
      for (let n = 0; n < MAILS; n = await mails.countDocuments({ state: 'sent' })) {
        await new Promise((r) => setTimeout(r, 1000));
        progress(`${n} mails sent`);
      }
    });
    lines.push(
      `events → mails sent over SMTP: ${MAILS} in ${(mailMs / 1000).toFixed(1)} s = ${Math.round((MAILS / mailMs) * 1000)} mails/s (concurrency 4)`,
    );

    // 3. reads over the log
    const reads: [string, string][] = [
      ['list, page 1 of all', '/api/v1/activity-logs'],
      ['list, page 40', '/api/v1/activity-logs?page=40'],
      [
        'list, action + date range',
        '/api/v1/activity-logs?action_type=CREATE&date_from=2025-01-02&date_to=2025-01-03',
      ],
      ['list, user + target type', '/api/v1/activity-logs?user_id=1&target_type=lot'],
      ['list, search', '/api/v1/activity-logs?search=notiz%2012'],
      ['stats, all', '/api/v1/activity-logs/stats'],
      ['users', '/api/v1/activity-logs/users'],
    ];
    for (const [name, url] of reads) {
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const [res, ms] = await timed(() => svc.http.get(url, { token: svc.adminToken }));
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        times.push(ms);
      }
      times.sort((a, b) => a - b);
      lines.push(
        `${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  (${READS} sequential calls)`,
      );
    }
    const [csv, csvMs] = await timed(async () => {
      const res = await fetch(`${svc.url}/api/v1/activity-logs/export.csv`, {
        headers: { authorization: `Bearer ${svc.adminToken}` },
      });
      return Buffer.from(await res.arrayBuffer());
    });
    lines.push(
      `CSV export of every entry: ${(csv.length / 1024).toFixed(0)} KiB in ${csvMs.toFixed(0)} ms`,
    );
  } finally {
    await stopAll();
  }
  console.log(`\nnotification service, ${EVENTS} log entries, FerretDB on ${backend}:\n`);
  for (const line of lines) console.log(`  ${line}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
