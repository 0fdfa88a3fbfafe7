// npm run bench:approval — the approval chain on the `make run` default (FerretDB on this
// machine's PostgreSQL, RabbitMQ, Mailpit; the built services and the gateway as separate
// processes, started fresh under .data/bench-approval): BENCH_APPROVALS (50) lots, each with one
// application to approve and BENCH_RIVALS (3) rivals; the approvals are asked for one after
// another through the gateway while the bench watches, without adding load to the services, for
// each lot's lot.reserved and its rivals' application.rejected on the broker (published once the
// state is stored) and for every family's mail at Mailpit (its arrival time there). Prints p50/p95/max of the time
// from each approve call to each of those, then checks through the API that every lot is reserved
// and every rival rejected. Asserts nothing.
import path from 'node:path';
import amqp from 'amqplib';
import { topologyQueues } from '@furniture/platform';
import { deleteBrokerObjects, searchMails } from '@furniture/platform/testing';
import { ensureFerretIndexes } from '../src/ferret-pg-indexes';
import { REPO_ROOT } from '../src/paths';
import { startPlatform, type Platform } from '../src/run/platform';
import { startInfra } from '../src/start-infra';
import { freePort, waitUntil } from '../src/util';

const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 50);
const RIVALS = Number(process.env.BENCH_RIVALS ?? 3);
const ADMIN = { email: 'bench@example.org', password: 'bench-password-1' };
/** its own exchange: a `make run` or another bench on the same RabbitMQ must not take its events */
const EXCHANGE = `bench.approval.${process.pid}`;
const progress = (line: string) => console.error(`[bench] ${line}`);

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(base + url, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: { text } };
  }
}

async function ok(
  p: Promise<{ status: number; body: Record<string, unknown> }>,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await p;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Case {
  lot: number;
  winner: number;
  rivals: number[];
  /** every family's e-mail address (winner first) */
  emails: string[];
  /** mails each address had before the approval (the submission's confirmation) */
  mailsBefore: Map<string, number>;
  approvedAt?: number;
  reservedAt?: number;
  rejectedAt?: number;
  /** the hops, from the events' own times (occurredAt: when the service stored the change) */
  requestPublishedAt?: number;
  reservationStoredAt?: number;
  rejectionStoredAt?: number;
  mailedAt?: number;
}

async function main(): Promise<void> {
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-approval');
  let backend = 'an external server';
  const infra = await startInfra({
    dataDir,
    fresh: true,
    dropDatabaseOnStop: true,
    log: (line) => {
      if (/FerretDB ready/.test(line)) backend = /PostgreSQL/.test(line) ? 'PostgreSQL' : 'SQLite';
      progress(line);
    },
  });
  /** recipient → times its mails reached Mailpit, in order (read from its API now and then) */
  let mailTimes = new Map<string, number[]>();
  let mailsReadAt = 0;
  const readMailTimes = async (): Promise<void> => {
    if (Date.now() - mailsReadAt < 500) return;
    mailsReadAt = Date.now();
    const times = new Map<string, number[]>();
    for (const m of await searchMails(infra.mailApiUrl, '')) {
      for (const to of m.To) {
        const address = to.Address.toLowerCase();
        times.set(address, [...(times.get(address) ?? []), Date.parse(m.Created)]);
      }
    }
    for (const list of times.values()) list.sort((a, b) => a - b);
    mailTimes = times;
  };
  let platform: Platform | undefined;
  const stopAll = async () => {
    await platform?.stop().catch(() => undefined);
    await deleteBrokerObjects(infra.env.AMQP_URL, EXCHANGE, topologyQueues(EXCHANGE)).catch(
      () => undefined,
    );
    await infra.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().then(() => process.exit(1)));
  try {
    platform = await startPlatform({
      infraEnv: infra.env,
      dataDir,
      gatewayPort: await freePort(),
      servicePortBase: 4600 + Math.floor(Math.random() * 300) * 5,
      publicUrl: 'http://localhost',
      admin: ADMIN,
      overrides: {
        AMQP_EXCHANGE: EXCHANGE,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PUBLIC_WRITES: '1000000',
        PUBLIC_WRITES_PER_IP: '1000000',
        PUBLIC_WRITES_PER_PHONE: '1000000',
        RATE_LIMIT_PUBLIC_LOOKUPS: '1000000',
        RATE_LIMIT_LOGIN: '1000000',
      },
      print: (line) => progress(line),
    });
    if (infra.ferretPostgresUrl) await ensureFerretIndexes(infra.ferretPostgresUrl);
    const gw = platform.gatewayUrl;
    const token = (await ok(call(gw, 'POST', '/api/v1/auth/login', ADMIN), 'login'))
      .access_token as string;
    // the broker's view: lot.reserved and application.rejected as they are published
    const amqpConnection = await amqp.connect(infra.env.AMQP_URL);
    const amqpChannel = await amqpConnection.createChannel();
    const { queue } = await amqpChannel.assertQueue('', { exclusive: true, autoDelete: true });
    const exchange = EXCHANGE;
    await amqpChannel.bindQueue(queue, exchange, 'application.approval_requested');
    await amqpChannel.bindQueue(queue, exchange, 'lot.reserved');
    await amqpChannel.bindQueue(queue, exchange, 'application.rejected');
    const reservedAt = new Map<number, number>();
    const rejectedAt = new Map<number, number>();
    /** application id → when its approval request reached the broker */
    const requestedAt = new Map<number, number>();
    /** lot id / application id → the event's occurredAt */
    const reservationStored = new Map<number, number>();
    const rejectionStored = new Map<number, number>();
    await amqpChannel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        const at = Date.now();
        const event = JSON.parse(msg.content.toString('utf8')) as {
          name: string;
          occurredAt: string;
          payload: { lot?: { id: number }; application_id: number };
        };
        const stored = Date.parse(event.occurredAt);
        if (event.name === 'application.approval_requested')
          requestedAt.set(event.payload.application_id, at);
        if (
          event.name === 'lot.reserved' &&
          event.payload.lot &&
          !reservedAt.has(event.payload.lot.id)
        ) {
          reservedAt.set(event.payload.lot.id, at);
          reservationStored.set(event.payload.lot.id, stored);
        }
        if (event.name === 'application.rejected') {
          rejectedAt.set(event.payload.application_id, at);
          rejectionStored.set(event.payload.application_id, stored);
        }
      },
      { noAck: true },
    );

    // 1. the lots and their applications, through the real write paths
    const cases: Case[] = [];
    let phone = 0;
    for (let i = 0; i < APPROVALS; i++) {
      const lot = (
        await ok(
          call(
            gw,
            'POST',
            '/api/v1/lots/',
            {
              name: { de: `Ecksofa ${i}`, uk: `Кутовий диван ${i}` },
              description: { de: 'Gut erhalten', uk: 'У доброму стані' },
              category_id: (i % 8) + 1,
              status: 'available',
            },
            token,
          ),
          'lot',
        )
      ).id as number;
      await waitUntil(
        async () => {
          const res = await call(gw, 'GET', `/api/v1/lots/${lot}/applications-info`);
          if (res.status !== 200) throw new Error(`status ${res.status}`);
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `lot ${lot} known to applications` },
      );
      const ids: number[] = [];
      const emails: string[] = [];
      for (let f = 0; f <= RIVALS; f++) {
        phone++;
        const email = `familie-${i}-${f}@example.org`;
        const app = await ok(
          call(gw, 'POST', '/api/v1/applications/', {
            applicant_name: `Familie ${i}-${f}`,
            applicant_phone: `+49176${String(10_000_000 + phone).slice(-8)}`,
            applicant_whatsapp: null,
            applicant_email: email,
            applicant_city: 'Berlin',
            applicant_address: 'Sonnenallee 1',
            needs_delivery_help: false,
            lot_id: lot,
            language: f % 2 ? 'uk' : 'de',
          }),
          'application',
        );
        ids.push(app.id as number);
        emails.push(email);
      }
      cases.push({ lot, winner: ids[0]!, rivals: ids.slice(1), emails, mailsBefore: new Map() });
      if ((i + 1) % 10 === 0) progress(`${i + 1}/${APPROVALS} lots with their applications`);
    }
    // every submission's confirmation mail first, so that the approval's mails can be told apart
    await waitUntil(
      async () => {
        await readMailTimes();
        for (const c of cases)
          for (const e of c.emails)
            if ((mailTimes.get(e)?.length ?? 0) < 1)
              throw new Error('confirmations still on their way');
      },
      { timeoutMs: 300_000, intervalMs: 500, what: 'the confirmation mails' },
    );
    for (const c of cases) for (const e of c.emails) c.mailsBefore.set(e, mailTimes.get(e)!.length);
    const watching = waitUntil(
      async () => {
        await readMailTimes();
        for (const c of cases) {
          c.reservedAt ??= reservedAt.get(c.lot);
          c.requestPublishedAt ??= requestedAt.get(c.winner);
          c.reservationStoredAt ??= reservationStored.get(c.lot);
          if (c.rejectedAt === undefined && c.rivals.every((id) => rejectedAt.has(id))) {
            c.rejectedAt = Math.max(...c.rivals.map((id) => rejectedAt.get(id)!));
            c.rejectionStoredAt = Math.max(...c.rivals.map((id) => rejectionStored.get(id)!));
          }
          if (
            c.mailedAt === undefined &&
            c.emails.every((e) => (mailTimes.get(e)?.length ?? 0) > c.mailsBefore.get(e)!)
          )
            c.mailedAt = Math.max(
              ...c.emails.map((e) => mailTimes.get(e)![c.mailsBefore.get(e)!]!),
            );
          if (!c.reservedAt || !c.rejectedAt || !c.mailedAt) throw new Error('not yet');
        }
      },
      { timeoutMs: 300_000, intervalMs: 100, what: 'every approval to settle' },
    ).catch(() => undefined);

    // 3. the approvals, one after another (each approve call answers 202 at once)
    progress('approving');
    for (const c of cases) {
      c.approvedAt = Date.now();
      await ok(
        call(
          gw,
          'PATCH',
          `/api/v1/applications/${c.winner}/status`,
          { status: 'approved', note: 'Abholung Freitag' },
          token,
        ),
        'approve',
      );
    }
    await watching;
    await amqpConnection.close();
    // what the broker said, checked against what the API shows
    let wrong = 0;
    for (const c of cases) {
      const lot = await call(gw, 'GET', `/api/v1/lots/${c.lot}`, undefined, token);
      if (lot.body.status !== 'reserved') wrong++;
      for (const id of c.rivals) {
        const app = await call(gw, 'GET', `/api/v1/applications/${id}`, undefined, token);
        if (app.body.status !== 'rejected') wrong++;
      }
    }

    const figuresOf = (all: (number | undefined)[]) => {
      const times = all.filter((t): t is number => t !== undefined).sort((a, b) => a - b);
      const missing = all.length - times.length;
      return `p50 ${percentile(times, 50).toFixed(0)} ms  p95 ${percentile(times, 95).toFixed(0)} ms  max ${(times.at(-1) ?? NaN).toFixed(0)} ms${missing ? `  (${missing} not within 5 min)` : ''}`;
    };
    const figures = (pick: (c: Case) => number | undefined) =>
      figuresOf(cases.map((c) => (pick(c) === undefined ? undefined : pick(c)! - c.approvedAt!)));
    console.log(
      `\nbench:approval — ${APPROVALS} approvals, each with ${RIVALS} rivals, asked one after another through the gateway; FerretDB on ${backend}; watched on the broker and at Mailpit${wrong ? `; ${wrong} lots or rivals NOT in their expected state through the API` : '; the API shows every lot reserved and every rival rejected'}\n`,
    );
    console.log(`  approve → lot reserved                 ${figures((c) => c.reservedAt)}`);
    console.log(`  approve → every rival rejected         ${figures((c) => c.rejectedAt)}`);
    const hop = (from: (c: Case) => number | undefined, to: (c: Case) => number | undefined) =>
      figuresOf(
        cases.map((c) =>
          from(c) === undefined || to(c) === undefined ? undefined : to(c)! - from(c)!,
        ),
      );
    console.log(`\n  where the time goes (each hop's own p50/p95):`);
    console.log(
      `    approve call → request on the broker (applications' outbox)  ${hop(
        (c) => c.approvedAt,
        (c) => c.requestPublishedAt,
      )}`,
    );
    console.log(
      `    → reservation stored (catalog's queue and handler)           ${hop(
        (c) => c.requestPublishedAt,
        (c) => c.reservationStoredAt,
      )}`,
    );
    console.log(
      `    → lot.reserved on the broker (catalog's outbox)              ${hop(
        (c) => c.reservationStoredAt,
        (c) => c.reservedAt,
      )}`,
    );
    console.log(
      `    → last rejection stored (applications' queue and handler)    ${hop(
        (c) => c.reservedAt,
        (c) => c.rejectionStoredAt,
      )}`,
    );
    console.log(
      `    → last rejection on the broker (applications' outbox)        ${hop(
        (c) => c.rejectionStoredAt,
        (c) => c.rejectedAt,
      )}`,
    );
    console.log(
      `    → last mail at SMTP (notification)                           ${hop(
        (c) => c.rejectedAt,
        (c) => c.mailedAt,
      )}`,
    );
    console.log(`  approve → every family's mail in SMTP  ${figures((c) => c.mailedAt)}`);
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
