// npm run admin, as an operator runs it (a process of its own through tsx, as `npm run admin`
// does), against services started on the test servers: each command does what it says to the
// service's own database, and the running service sees it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Events, type DomainEvent } from '@furniture/contracts';
import { startMailpit, type Mailpit } from '@furniture/infra';
import { createEvent } from '@furniture/platform';
import { adminToken, eventually, testUrls } from '@furniture/platform/testing';
import { ADMIN, startAuth } from '@furniture/auth/testing';
import { lotBody, startCatalog } from '@furniture/catalog/testing';
import { startNotification } from '@furniture/notification/testing';

const root = path.resolve(__dirname, '../../..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command line with these databases (AUTH_MONGO_DB=…) on the test server. */
function admin(dbs: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'services/admin-cli/src/cli.ts'), ...args],
      { env: { ...process.env, MONGO_URL: testUrls().mongoUrl, ...dbs }, timeout: 60000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const passwordIn = (out: string) => /^password: (\S+)$/m.exec(out)?.[1];

describe('wrong arguments', () => {
  test.each([
    [[]],
    [['nonsense']],
    [['users']],
    [['users', 'reset-password']],
    [['users', 'unlock', 'a@example.org', 'b@example.org']],
    [['users', 'create', 'not-an-address', 'volunteer', 'Name']],
    [['users', 'create', 'neu@example.org', 'boss', 'Name']],
    [['mails', 'resend']],
    [['mails', 'resend', 'abc']],
    [['mails', 'resend', '3', '--all']],
    [['counts', 'rebuild', 'media']],
    [['version', 'now']],
    [['demo', '--lots', '3']],
    [['demo', '--seed']],
    [['demo', '--everything']],
  ])(
    'when the command line is given %j, then it prints the usage and exits with 2',
    async (args) => {
      const run = await admin({}, ...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run admin -- <command>');
      expect(run.stdout).toBe('');
    },
  );
});

test('when the version is asked for, then it is the root package.json one', async () => {
  const run = await admin({}, 'version');
  expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
});

describe('staff users (the auth service)', () => {
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let dbs: Record<string, string>;
  beforeAll(async () => {
    auth = await startAuth();
    dbs = { AUTH_MONGO_DB: auth.config.MONGO_DB };
  });
  afterAll(() => auth?.stop());

  const login = (email: string, password: string) =>
    auth.http.post('/api/v1/auth/login', { email, password });

  test('when users are listed, then the seeded administrator is there', async () => {
    const run = await admin(dbs, 'users', 'list');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^#1  admin +${ADMIN.email}  ${ADMIN.name}$`, 'm'));
    expect(run.stdout).toContain('1 user(s)');
  });

  test('when an administrator locked themself out, then unlock lets the right password in again, and it stays the same', async () => {
    for (let i = 0; i < 6; i++) await login(ADMIN.email, `wrong-password-${i}`);
    const locked = await login(ADMIN.email, ADMIN.password);
    expect([locked.status, locked.body.code]).toEqual([429, 'LOGIN_THROTTLED']);

    const run = await admin(dbs, 'users', 'unlock', ADMIN.email.toUpperCase());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`user #1 ${ADMIN.email}: login locks lifted`);
    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  test('when a password is reset, then only the printed one logs in, leads to the password change, and the sessions before end', async () => {
    const before = await login(ADMIN.email, ADMIN.password);
    expect(before.status).toBe(200);
    const cookie = before.headers.get('set-cookie')!.split(';')[0]!;

    const run = await admin(dbs, 'users', 'reset-password', ADMIN.email);
    expect(run.code).toBe(0);
    const password = passwordIn(run.stdout)!;
    expect(password.length).toBeGreaterThanOrEqual(20);

    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(401);
    const after = await login(ADMIN.email, password);
    expect(after.status).toBe(200);
    expect(after.body.must_change_password).toBe(true);
    // the refresh of the session opened before is refused
    const refresh = await auth.http.post('/api/v1/auth/refresh', undefined, {
      headers: { cookie },
    });
    expect(refresh.status).toBe(401);
    // the change is an event like any other (the log names no staff member)
    await auth.kit.flushOutbox();
    const updated = await auth.recorder.waitFor(Events.UserUpdated, (e) => e.payload.user.id === 1);
    expect(updated.actor ?? null).toBeNull();
    expect(updated.payload.changes).toHaveProperty('password');
  });

  test('when a user is created, then the printed password logs in and leads to the password change; the same address again is refused', async () => {
    const run = await admin(dbs, 'users', 'create', 'neu@example.org', 'volunteer', 'Nina', 'Neu');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^user #\d+ neu@example\.org \(volunteer\) created$/m);
    const login1 = await login('neu@example.org', passwordIn(run.stdout)!);
    expect(login1.status).toBe(200);
    expect(login1.body).toMatchObject({ must_change_password: true, user: { name: 'Nina Neu' } });

    const again = await admin(dbs, 'users', 'create', 'neu@example.org', 'admin', 'Noch', 'Mal');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('EMAIL_TAKEN');
  });

  test('when the e-mail address belongs to nobody, then reset and unlock say so and exit with 1', async () => {
    for (const command of ['reset-password', 'unlock']) {
      const run = await admin(dbs, 'users', command, 'niemand@example.org');
      expect([command, run.code]).toEqual([command, 1]);
      expect(run.stderr).toContain('USER_NOT_FOUND');
    }
  });
});

describe('failed mails (the notification service)', () => {
  // a Mailpit of this file's own: refusing its recipients disturbs no other test
  let catcher: Mailpit;
  let notification: Awaited<ReturnType<typeof startNotification>>;
  let dbs: Record<string, string>;
  beforeAll(async () => {
    catcher = await startMailpit();
    notification = await startNotification({
      SMTP_URL: catcher.smtpUrl,
      // the sender looks at its queue often: a mail queued by another process goes out soon
      MAIL_WAKE_MAX_MS: '300',
    });
    dbs = { NOTIFICATION_MONGO_DB: notification.config.MONGO_DB };
  });
  afterAll(async () => {
    await notification?.stop();
    await catcher?.stop();
  });

  const submitted = (applicationId: number, email: string): DomainEvent =>
    createEvent(Events.ApplicationSubmitted, {
      application_id: applicationId,
      lot_id: 7,
      status: 'pending',
      applicant_name: 'Olena Kovalenko',
      applicant_email: email,
      language: 'de',
      lot_name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
      queue_position: 1,
    });

  const mailOf = (applicationId: number) =>
    notification.conn.collection('mails').findOne({ application_id: applicationId });

  test('when mails failed for good, then they are listed, and resent they reach the family once the server takes them', async () => {
    expect((await admin(dbs, 'mails', 'failed')).stdout).toBe('no failed mails\n');
    await catcher.refuseRecipients({ code: 550 });
    try {
      for (const [id, email] of [
        [9101, 'olena.9101@example.org'],
        [9102, 'olena.9102@example.org'],
      ] as const)
        await notification.publish(submitted(id, email));
      await eventually(
        async () =>
          (await mailOf(9101))?.state === 'failed' && (await mailOf(9102))?.state === 'failed',
        { timeoutMs: 15000, what: 'both mails failed' },
      );
    } finally {
      await catcher.refuseRecipients(null);
    }
    const first = (await mailOf(9101))!;

    const listed = await admin(dbs, 'mails', 'failed');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^#${first.id}  submitted  application 9101  lot 7 `, 'm'),
    );
    expect(listed.stdout).toContain('550');
    expect(listed.stdout).toContain('2 failed mail(s)');

    const resent = await admin(dbs, 'mails', 'resend', String(first.id));
    expect(resent.code).toBe(0);
    expect(resent.stdout).toContain('1 mail(s) back in the queue');
    const [mail] = await eventually(
      async () => {
        const res = await fetch(
          `${catcher.apiUrl}/api/v1/search?query=${encodeURIComponent('to:olena.9101@example.org')}`,
        );
        const body = (await res.json()) as { messages: { Subject: string }[] };
        return body.messages.length > 0 ? body.messages : undefined;
      },
      { timeoutMs: 15000, what: 'the resent mail at the catcher' },
    );
    expect(mail!.Subject).toContain('Bewerbung Nr. 9101');
    expect(
      await eventually(async () => ((await mailOf(9101))?.state === 'sent' ? true : undefined)),
    ).toBe(true);
    // the other one still waits for the operator
    expect((await mailOf(9102))?.state).toBe('failed');

    // a sent mail, and one that does not exist, are not queued again
    const twice = await admin(dbs, 'mails', 'resend', String(first.id), '999999');
    expect(twice.code).toBe(1);
    expect(twice.stdout).toContain(`#${first.id}: not failed`);
    expect(twice.stdout).toContain('#999999: no such mail');

    const all = await admin(dbs, 'mails', 'resend', '--all');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('1 mail(s) back in the queue');
    await eventually(async () => ((await mailOf(9102))?.state === 'sent' ? true : undefined), {
      timeoutMs: 15000,
      what: 'the second mail sent',
    });
  });
});

describe('kept counts and what the databases hold', () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  let dbs: Record<string, string>;
  beforeAll(async () => {
    catalog = await startCatalog();
    dbs = { CATALOG_MONGO_DB: catalog.config.MONGO_DB };
  });
  afterAll(() => catalog?.stop());

  /** How many lots of category 1 staff see, as its page says (X-Total-Count, from the counts). */
  const total = async () => {
    const res = await catalog.http.get('/api/v1/lots/category/1?limit=24', {
      token: adminToken(),
    });
    expect(res.status).toBe(200);
    return Number(res.headers.get('x-total-count'));
  };

  test('when the kept counts went wrong, then counts rebuild counts them afresh and the lists say the truth again', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (await catalog.http.post('/api/v1/lots', lotBody(), { token: adminToken() })).status,
      ).toBe(201);
    expect(await total()).toBe(3);
    // a hand-made change, or a bug: the counts say nothing is there
    await catalog.conn
      .collection('lot_counts')
      .updateOne({ _id: 'all' as never }, { $set: { n: {} } });
    // and the shards each process adds to (the store's counts.ts)
    await catalog.conn.collection('lot_counts').deleteMany({ of: 'all' });
    expect(await total()).toBe(0);

    const run = await admin(dbs, 'counts', 'rebuild', 'catalog');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^catalog: counts rebuilt in \d+ ms \(lots 3, donations 0\)$/m);
    expect(await total()).toBe(3);
  });

  test("when what the databases hold is asked for, then each service's collections are counted", async () => {
    const run = await admin(dbs, 'info');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Möbelbrücke ${version}`);
    expect(run.stdout).toContain(`catalog (database ${catalog.config.MONGO_DB}):`);
    const catalogPart = run.stdout.slice(run.stdout.indexOf('catalog (database'));
    expect(catalogPart).toMatch(/^ {2}lots +3$/m);
    expect(catalogPart).toMatch(/^ {2}categories +8$/m);
    for (const service of ['auth', 'applications', 'media', 'notification'])
      expect(run.stdout).toContain(`${service} (database furniture_${service}`);
  });
});
