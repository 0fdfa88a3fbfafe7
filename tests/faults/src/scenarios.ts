/**
 * The faults of issue 13, each run against a FaultLab and reported with figures: what had to be
 * stored and mailed, what was, what was lost or duplicated, and how long after the dependency
 * came back the platform was consistent again. Used by the fault suite (which asserts) and by
 * `npm run bench:faults` (which prints).
 */
import { outboxPublished } from '@furniture/platform/testing';
import {
  family,
  sleep,
  type Application,
  type FaultLab,
  type Family,
  type ServiceName,
} from './lab';

export interface FaultReport {
  fault: string;
  /** applications answered 201 (each must be stored exactly once) */
  accepted: number;
  stored: number;
  /** mails the families must get (one per change of their application) */
  mailsExpected: number;
  mailsDelivered: number;
  lost: number;
  /** stored or mailed twice for any reason but the one below */
  duplicated: number;
  /**
   * mails delivered a second time, under their Message-ID, because the attempt that delivered
   * them first was cut short (the notification service killed between the SMTP server's taking
   * the mail and its record of that): at-least-once delivery, at most one per mail in flight
   */
  resentAfterCut: number;
  /** from the dependency's return (or the killed service's restart) to a consistent state */
  recoveryMs: number;
  /** messages left in any dead-letter queue */
  deadLetters: number;
  notes: string[];
}

interface Expectation {
  /** family → number of mails it must receive */
  mailsPer: Map<string, number>;
  accepted: { id: number; lotId: number }[];
}

/** Mails per recipient, and how many arrived twice (the same Message-ID more than once). */
async function mailFigures(lab: FaultLab, exp: Expectation) {
  const mails = await lab.mails();
  const ours = new Set(exp.mailsPer.keys());
  const byId = new Map<string, number>();
  const perFamily = new Map<string, number>();
  for (const m of mails) {
    const to = m.To[0]?.Address.toLowerCase() ?? '';
    if (!ours.has(to)) continue;
    byId.set(m.MessageID, (byId.get(m.MessageID) ?? 0) + 1);
    perFamily.set(to, (perFamily.get(to) ?? 0) + 1);
  }
  let missing = 0;
  let extra = 0;
  for (const [to, n] of exp.mailsPer) {
    const got = perFamily.get(to) ?? 0;
    if (got < n) missing += n - got;
    if (got > n) extra += got - n;
  }
  const twice = [...byId].filter(([, n]) => n > 1);
  const duplicatedIds = twice.reduce((a, [, n]) => a + n - 1, 0);
  // a second delivery is explained only by a cut attempt the mail's own record counts
  let resentAfterCut = 0;
  for (const [messageId, n] of twice) {
    const record = await lab
      .db('notification')
      .collection('mails')
      .findOne({ message_id: { $in: [messageId, `<${messageId}>`] } });
    const cut = Number(record?.interrupted_attempts ?? 0);
    resentAfterCut += Math.min(n - 1, cut);
  }
  const delivered = [...perFamily.values()].reduce((a, n) => a + n, 0);
  return {
    delivered,
    missing,
    resentAfterCut,
    duplicated: Math.max(extra, duplicatedIds) - resentAfterCut,
  };
}

async function storedFigures(lab: FaultLab, exp: Expectation) {
  const lots = [...new Set(exp.accepted.map((a) => a.lotId))];
  let stored = 0;
  let duplicated = 0;
  for (const lotId of lots) {
    const apps = await lab.applicationsOfLot(lotId);
    const ids = new Set(apps.map((a) => a.id));
    const wanted = exp.accepted.filter((a) => a.lotId === lotId);
    stored += wanted.filter((a) => ids.has(a.id)).length;
    duplicated += Math.max(apps.length - wanted.length, 0);
  }
  return { stored, duplicated };
}

/** Waits until `consistent` holds, then measures what arrived where. */
async function settle(
  lab: FaultLab,
  fault: string,
  exp: Expectation,
  since: number,
  consistent: () => Promise<boolean>,
  notes: string[] = [],
): Promise<FaultReport> {
  let recoveryMs = -1;
  try {
    await lab.until(
      `${fault}: a consistent state`,
      async () => {
        if (!(await consistent())) return false;
        const m = await mailFigures(lab, exp);
        return m.missing === 0;
      },
      180_000,
      300,
    );
    recoveryMs = Date.now() - since;
  } catch (err) {
    notes.push(String(err));
  }
  // late duplicates would show up right after: look a little longer
  await sleep(3000);
  const mails = await mailFigures(lab, exp);
  const stored = await storedFigures(lab, exp);
  const dead = Object.values(await lab.deadLetters()).reduce((a, n) => a + n, 0);
  return {
    fault,
    accepted: exp.accepted.length,
    stored: stored.stored,
    mailsExpected: [...exp.mailsPer.values()].reduce((a, n) => a + n, 0),
    mailsDelivered: mails.delivered,
    lost: exp.accepted.length - stored.stored + mails.missing,
    duplicated: stored.duplicated + mails.duplicated,
    resentAfterCut: mails.resentAfterCut,
    recoveryMs,
    deadLetters: dead,
    notes,
  };
}

/**
 * A lot with applications of these families, in order; answers their ids. The first family
 * applies alone first so that queue places are the families' order.
 */
async function lotWithApplications(lab: FaultLab, name: string, families: Family[]) {
  const lotId = await lab.createLot(name);
  const ids: number[] = [];
  for (const f of families) {
    const { id } = await lab.apply(lotId, f);
    if (id === null) throw new Error(`${name}: the application of ${f.email} was refused`);
    ids.push(id);
  }
  return { lotId, ids };
}

/** Is the lot reserved for `winner`, the winner approved and every other one rejected? */
function approvedAndRejected(lab: FaultLab, lotId: number, winner: number, others: number[]) {
  return async () => {
    if ((await lab.lotStatus(lotId)) !== 'reserved') return false;
    const apps = await lab.applicationsOfLot(lotId);
    const status = new Map(apps.map((a) => [a.id, a.status]));
    return status.get(winner) === 'approved' && others.every((id) => status.get(id) === 'rejected');
  };
}

/**
 * The database is gone for `outageMs` right after an approval, while the catalog still has to
 * reserve the lot (it is held with SIGSTOP until the database has gone, then goes on).
 */
export async function databaseOutage(lab: FaultLab, outageMs = 40_000): Promise<FaultReport> {
  const families = [family('de'), family('uk'), family('de')];
  const { lotId, ids } = await lotWithApplications(lab, 'Sofa (Datenbank-Ausfall)', families);
  const [winner, ...rivals] = ids as [number, ...number[]];
  // the submission mails first, so that what follows is only about the approval
  await lab.until('submission mails', async () => {
    const mails = await lab.mails();
    return families.every((f) => mails.some((m) => m.To[0]?.Address === f.email));
  });
  lab.platform.supervisor.signal('catalog', 'SIGSTOP');
  try {
    await lab.requestApproval(winner);
    await lab.until('the approval request published', () =>
      outboxPublished(lab.db('applications').collection('applications'), { id: winner }),
    );
    await lab.stopDatabase();
  } finally {
    lab.platform.supervisor.signal('catalog', 'SIGCONT');
  }
  await sleep(outageMs);
  await lab.startDatabase();
  const back = Date.now();
  const mailsPer = new Map(families.map((f) => [f.email, 2]));
  return settle(
    lab,
    `database gone for ${Math.round(outageMs / 1000)} s after an approval`,
    { mailsPer, accepted: ids.map((id) => ({ id, lotId })) },
    back,
    approvedAndRejected(lab, lotId, winner, rivals),
  );
}

/** The broker restarts in the middle of a burst of 30 applications on 3 lots and 3 approvals. */
export async function brokerRestartDuringBurst(lab: FaultLab): Promise<FaultReport> {
  const lots = await Promise.all([1, 2, 3].map((n) => lab.createLot(`Schrank ${n} (Broker)`)));
  const families = Array.from({ length: 30 }, () => family());
  const byLot = new Map<number, { id: number; f: Family }[]>(lots.map((l) => [l, []]));
  // the first family of each lot applies first: that is the application approved mid-burst
  const firsts: number[] = [];
  for (const [i, lotId] of lots.entries()) {
    const { id } = await lab.apply(lotId, families[i]!);
    if (id === null) throw new Error('first application refused');
    byLot.get(lotId)!.push({ id, f: families[i]! });
    firsts.push(id);
  }
  let answered = 0;
  let restarted: Promise<void> | undefined;
  let back = 0;
  const rest = families.slice(3).map(async (f, i) => {
    await sleep(i * 60);
    const lotId = lots[i % 3]!;
    const { id } = await lab.apply(lotId, f);
    answered++;
    if (answered === 8) {
      restarted = lab.rabbit.restart().then(() => void (back = Date.now()));
    }
    if (i === 12) await Promise.all(firsts.map((id) => lab.requestApproval(id)));
    if (id !== null) byLot.get(lotId)!.push({ id, f });
  });
  await Promise.all(rest);
  await restarted;
  if (!back) back = Date.now();

  const accepted = [...byLot.entries()].flatMap(([lotId, apps]) =>
    apps.map((a) => ({ id: a.id, lotId })),
  );
  const mailsPer = new Map<string, number>();
  for (const apps of byLot.values()) for (const a of apps) mailsPer.set(a.f.email, 2);
  const refused = families.length - accepted.length;
  return settle(
    lab,
    'broker restarted during 30 applications and 3 approvals',
    { mailsPer, accepted },
    back,
    async () => {
      for (const [i, lotId] of lots.entries()) {
        const others = byLot
          .get(lotId)!
          .map((a) => a.id)
          .filter((id) => id !== firsts[i]);
        if (!(await approvedAndRejected(lab, lotId, firsts[i]!, others)())) return false;
      }
      return true;
    },
    [`${refused} application(s) came after their lot was reserved (409, as they should)`],
  );
}

/**
 * `kill -9` of one service in the middle of a burst of applications (and, for the catalog, an
 * approval it still has to reserve). Refused calls are sent again with the same Idempotency-Key.
 */
export async function killDuringBurst(lab: FaultLab, service: ServiceName): Promise<FaultReport> {
  const families = Array.from({ length: 10 }, () => family());
  const lotId = await lab.createLot(`Tisch (kill -9 ${service})`);
  const first = await lab.apply(lotId, families[0]!);
  if (first.id === null) throw new Error('first application refused');
  const statuses: number[] = [];
  let killedAt = 0;
  const accepted: { id: number; lotId: number; f: Family }[] = [
    { id: first.id, lotId, f: families[0]! },
  ];
  // what the killed service itself does meanwhile: staff accounts, photos
  const users =
    service === 'auth' ? [1, 2, 3].map((n) => `staff-${n}-${lotId}@faults.example`) : [];
  const photos = service === 'media' ? 3 : 0;
  const sideWork: Promise<void>[] = [];
  await Promise.all(
    families.slice(1).map(async (f, i) => {
      await sleep(i * 80);
      if (i === 4) {
        // the catalog dies with an approval request on its way: it must still reserve the lot
        if (service === 'catalog') await lab.requestApproval(first.id!);
        lab.platform.supervisor.signal(service, 'SIGKILL');
        killedAt = Date.now();
        for (const email of users) {
          sideWork.push(
            lab.retried(`user ${email}`, statuses, () =>
              lab.call('POST', '/users', {
                body: { name: 'Helfer', email, role: 'volunteer', password: 'volunteer-pass-12' },
              }),
            ),
          );
        }
        for (let n = 0; n < photos; n++) {
          sideWork.push(lab.retried(`photo ${n}`, statuses, () => lab.uploadPhoto(lotId, n)));
        }
      }
      const res = await lab.apply(lotId, f);
      statuses.push(...res.statuses);
      if (res.id !== null) accepted.push({ id: res.id, lotId, f });
    }),
  );
  await Promise.all(sideWork);
  // the supervisor starts it again; from then on the platform must catch up
  await lab.until(`${service} back`, async () => {
    const res = await fetch(`${lab.platform.serviceUrls[service]}/ready`).catch(() => null);
    return res?.ok === true;
  });
  const back = Date.now();
  const mailsPer = new Map(
    accepted.map((a) => [a.f.email, service === 'catalog' ? 2 : 1] as const),
  );
  const refusedCleanly = statuses.filter((s) => s === 503 || s === 502).length;
  const noAnswer = statuses.filter((s) => s === 0).length;
  const report = await settle(
    lab,
    `kill -9 of ${service} during a burst`,
    { mailsPer, accepted },
    back,
    async () => {
      for (const email of users) {
        const found = await lab.call<{ total: number }>(
          'GET',
          `/users?search=${encodeURIComponent(email)}`,
        );
        if (found.status !== 200 || found.body.total !== 1) return false;
      }
      if (photos > 0 && (await lab.lotPhotos(lotId)) !== photos) return false;
      const apps = await lab.applicationsOfLot(lotId);
      if (service === 'catalog') {
        const others = accepted.map((a) => a.id).filter((id) => id !== first.id);
        return approvedAndRejected(lab, lotId, first.id!, others)();
      }
      // every stored application pending, with the queue places 1..n in arrival order
      const places = apps
        .filter((a: Application) => a.status === 'pending')
        .sort((a, b) => a.id - b.id)
        .map((a) => a.queue_position);
      return places.length === accepted.length && places.every((p, i) => p === i + 1);
    },
    [
      `ready again ${killedAt ? back - killedAt : '?'} ms after the kill; answers while it was ` +
        `down: ${refusedCleanly}× 502/503, ${noAnswer}× none (each sent again)` +
        (users.length ? `; ${users.length} staff accounts created once each` : '') +
        (photos ? `; ${photos} photos stored once each` : ''),
    ],
  );
  return report;
}

/** Mailpit (SMTP and API) is gone for `outageMs` while applications and an approval happen. */
export async function smtpOutage(lab: FaultLab, outageMs = 120_000): Promise<FaultReport> {
  await lab.mail.stopServer();
  const families = [family('de'), family('uk'), family('de'), family('uk')];
  let back = 0;
  let lotId = 0;
  let ids: number[] = [];
  try {
    ({ lotId, ids } = await lotWithApplications(lab, 'Bett (SMTP-Ausfall)', families));
    await lab.requestApproval(ids[0]!);
    await sleep(outageMs);
  } finally {
    await lab.mail.startServer();
    back = Date.now();
  }
  const [winner, ...rivals] = ids as [number, ...number[]];
  return settle(
    lab,
    `SMTP gone for ${Math.round(outageMs / 1000)} s`,
    {
      mailsPer: new Map(families.map((f) => [f.email, 2])),
      accepted: ids.map((id) => ({ id, lotId })),
    },
    back,
    approvedAndRejected(lab, lotId, winner, rivals),
  );
}

/**
 * A shutdown (SIGTERM) while the broker is gone: the service ends within its grace time, and
 * the event it could not publish goes out after the next start.
 */
export async function shutdownWithoutBroker(
  lab: FaultLab,
): Promise<FaultReport & { shutdownMs: number }> {
  const lotId = await lab.createLot('Regal (Shutdown)');
  await lab.rabbit.stopApp();
  const f = family();
  let shutdownMs = -1;
  let id: number | null = null;
  try {
    ({ id } = await lab.apply(lotId, f));
    if (id === null) throw new Error('application refused while the broker is away');
    const exited = lab.platform.supervisor.exited('applications');
    const t = Date.now();
    lab.platform.supervisor.signal('applications', 'SIGTERM');
    await exited;
    shutdownMs = Date.now() - t;
    const doc = await lab.db('applications').collection('applications').findOne({ id });
    if (doc?._outbox_pending !== true) throw new Error('the event did not wait in the outbox');
  } finally {
    await lab.rabbit.startApp();
  }
  const back = Date.now();
  const report = await settle(
    lab,
    'SIGTERM while the broker is gone',
    { mailsPer: new Map([[f.email, 1]]), accepted: [{ id: id!, lotId }] },
    back,
    () => outboxPublished(lab.db('applications').collection('applications'), { id }),
    [`applications ended ${shutdownMs} ms after SIGTERM with the broker gone`],
  );
  return { ...report, shutdownMs };
}

/**
 * A partner agency's referrer refers a family (issue 44) while the broker is gone, and staff
 * approve it: both are answered at once (their events wait in the outbox), and once the broker is
 * back the family gets its two mails and the referrer its approval mail, each once.
 */
export async function referralDuringBrokerOutage(
  lab: FaultLab,
  outageMs = 60_000,
): Promise<FaultReport> {
  const lotId = await lab.createLot('Kleiderschrank (Vermittlung, Broker)');
  // an agency and its referrer, as an admin and the invitee make them
  const agency = await lab.call<{ id: number }>('POST', '/agencies/', {
    body: {
      name: `Caritas Faults ${Date.now()}`,
      city: 'Leipzig',
      contact_email: 'beratung@caritas.example',
    },
  });
  if (agency.status !== 201) throw new Error(`agency: ${agency.status}`);
  const referrer = {
    email: `referrer-${Date.now()}@faults.example`,
    password: 'Sozialarbeit-im-Viertel-7',
  };
  const invited = await lab.call<{ invite_url: string }>(
    'POST',
    `/agencies/${agency.body.id}/invitations`,
    { body: { email: referrer.email, language: 'de' } },
  );
  if (invited.status !== 201) throw new Error(`invitation: ${invited.status}`);
  const secret = invited.body.invite_url.split('/').pop()!;
  const accepted = await lab.call('POST', `/invitations/${secret}/accept`, {
    body: { name: 'Petra Sozial', password: referrer.password },
    token: null,
  });
  if (accepted.status !== 201) throw new Error(`acceptance: ${accepted.status}`);
  const login = await lab.call<{ access_token: string }>('POST', '/auth/login', {
    body: referrer,
    token: null,
  });
  if (login.status !== 200) throw new Error(`referrer login: ${login.status}`);
  // the invitation's mail first, so that the referrer's mail after the outage is the approval's
  await lab.until('the invitation mail', async () =>
    (await lab.mails()).some((m) => m.To[0]?.Address === referrer.email),
  );

  const f = family('uk');
  await lab.rabbit.stopApp();
  let applicationId = 0;
  const notes: string[] = [];
  try {
    const referred = await lab.call<{ application_id: number }>('POST', '/referrals/', {
      token: login.body.access_token,
      headers: { 'accept-language': 'de' },
      body: {
        lot_id: lotId,
        family: {
          name: f.name,
          phone: f.phone,
          whatsapp: f.phone,
          email: f.email,
          city: 'Leipzig',
          address: 'Eisenbahnstraße 5',
          household_size: 4,
          language: f.language,
          needs_delivery_help: false,
        },
        note: 'während der Broker fehlt',
      },
    });
    if (referred.status !== 201)
      throw new Error(`referral refused while the broker is away: ${referred.status}`);
    applicationId = referred.body.application_id;
    await lab.requestApproval(applicationId);
    const doc = await lab
      .db('applications')
      .collection('applications')
      .findOne({ id: applicationId });
    if (doc?._outbox_pending !== true) throw new Error('the events did not wait in the outbox');
    await sleep(outageMs);
    const early = (await lab.mails()).filter((m) =>
      [f.email, referrer.email].includes(m.To[0]?.Address ?? ''),
    );
    // only the invitation: nothing of the referral could go out without the broker
    if (early.length !== 1) notes.push(`Error: ${early.length - 1} mail(s) during the outage`);
  } finally {
    await lab.rabbit.startApp();
  }
  const back = Date.now();
  const report = await settle(
    lab,
    `broker gone for ${Math.round(outageMs / 1000)} s during a referral and its approval`,
    {
      // the family: submitted and approved; the referrer: the invitation and the approval
      mailsPer: new Map([
        [f.email, 2],
        [referrer.email, 2],
      ]),
      accepted: [{ id: applicationId, lotId }],
    },
    back,
    approvedAndRejected(lab, lotId, applicationId, []),
    notes,
  );
  const toReferrer = (await lab.mails()).filter((m) => m.To[0]?.Address === referrer.email);
  if (!toReferrer.some((m) => m.Subject.includes(`${f.name}: genehmigt`)))
    report.notes.push(
      `Error: no approval mail for the referrer (${toReferrer.map((m) => m.Subject).join(' | ')})`,
    );
  return report;
}

/** Formats reports as one table. */
export function table(reports: FaultReport[]): string {
  const rows = [
    ['fault', 'accepted', 'stored', 'mails', 'lost', 'dup', 'resent', 'recovery', 'dead'],
    ...reports.map((r) => [
      r.fault,
      String(r.accepted),
      String(r.stored),
      `${r.mailsDelivered}/${r.mailsExpected}`,
      String(r.lost),
      String(r.duplicated),
      String(r.resentAfterCut),
      r.recoveryMs >= 0 ? `${(r.recoveryMs / 1000).toFixed(1)} s` : 'never',
      String(r.deadLetters),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '),
  );
  const notes = reports.flatMap((r) => r.notes.map((n) => `  ${r.fault}: ${n}`));
  return [
    lines[0],
    '-'.repeat(lines[0]!.length),
    ...lines.slice(1),
    ...(notes.length ? ['', ...notes] : []),
  ].join('\n');
}
