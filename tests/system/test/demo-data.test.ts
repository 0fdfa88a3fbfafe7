/**
 * `make demo` (npm run admin -- demo, issue 31): the command, as an operator runs it, fills a
 * fresh platform through the gateway with lots and their photos, applications in every state,
 * wishes, donations and a volunteer; what it made is read back through the staff API. A second
 * run without --force refuses and changes nothing.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ApplicationStatuses, DonationStatuses, WishStatuses } from '@furniture/contracts';
import { startSystem, SYSTEM_ADMIN, type System } from '../src/stack';

const root = path.resolve(__dirname, '../../..');
const LOTS = 10;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function demo(url: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'services/admin-cli/src/cli.ts'), 'demo', '--url', url, ...args],
      {
        env: {
          ...process.env,
          ADMIN_EMAIL: SYSTEM_ADMIN.email,
          ADMIN_PASSWORD: SYSTEM_ADMIN.password,
        },
        timeout: 240_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The Bundesnetzagentur's numbers for media productions, as E.164 prefixes. */
const DRAMA_NUMBERS = /^\+49(3023125|4066969|6990009|2214710|8999998)\d{3}$/;

let s: System | undefined;
afterAll(async () => {
  await s?.stop();
});

test('when the demo filler runs against an empty platform, then it holds lots with photos, applications in every state, wishes, donations and a volunteer, and a second run without --force refuses and changes nothing', async () => {
  s = await startSystem({ full: true });
  const sys = s;
  const staff = sys.staff();
  const get = async (url: string) => {
    const res = await sys.http.get(url, staff);
    expect(res.status).toBe(200);
    return res.body;
  };

  const run = await demo(sys.url, '--lots', String(LOTS));
  if (run.code !== 0) throw new Error(`demo failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  expect(run.stdout).toMatch(/demo {2}done in \d+ s/);

  // lots, each with a photo (the collected donations became lots too)
  const lots = (await get('/api/v1/lots/?limit=100')) as { id: number; photos: string[] }[];
  expect(lots.length).toBeGreaterThanOrEqual(LOTS);
  expect(lots.filter((l) => l.photos.length === 0)).toEqual([]);
  const image = await fetch(`${sys.url}${lots[0]!.photos[0]}`);
  expect(image.status).toBe(200);

  // every application status; approvals with a pickup date, staff's rejections with a note
  const stats = await get('/api/v1/applications/stats');
  for (const status of ApplicationStatuses)
    expect({ status, n: stats[status] > 0 }).toEqual({ status, n: true });
  const apps = (await get('/api/v1/applications?limit=100')).applications as {
    status: string;
    pickup_by: string | null;
    applicant_name: string;
    applicant_phone: string;
    language: string;
    notes: { action: string }[];
  }[];
  expect(apps).toHaveLength(stats.total);
  for (const a of apps.filter((x) => x.status === 'approved')) expect(a.pickup_by).not.toBeNull();
  expect(apps.some((a) => a.notes.some((n) => n.action === 'REJECT'))).toBe(true);
  expect(apps.some((a) => a.notes.some((n) => n.action === 'CONTACT'))).toBe(true);
  for (const a of apps) expect(a.applicant_phone).toMatch(DRAMA_NUMBERS);
  // German and Ukrainian families, mails in both languages
  expect(apps.some((a) => /[А-Яа-яІіЇїЄєҐґ]/.test(a.applicant_name))).toBe(true);
  expect(new Set(apps.map((a) => a.language))).toEqual(new Set(['de', 'uk']));

  // wishes and donations in every state the demo makes
  for (const status of WishStatuses) {
    const page = await get(`/api/v1/wishes/?status=${status}&limit=1`);
    expect({ status, n: page.total > 0 }).toEqual({ status, n: true });
  }
  const donations = await get('/api/v1/donations/?limit=100');
  for (const status of DonationStatuses.filter((d) => !['cancelled', 'expired'].includes(d)))
    expect({ status, n: donations.counts[status] > 0 }).toEqual({ status, n: true });
  for (const d of donations.donations as {
    items: { photos: unknown[] }[];
    donor_phone: string;
  }[]) {
    expect(d.donor_phone).toMatch(DRAMA_NUMBERS);
    for (const item of d.items) expect(item.photos.length).toBeGreaterThan(0);
  }

  // a volunteer besides the administrator, and the activity log of it all
  const users = await get('/api/v1/users?limit=100');
  expect(users.users.map((u: { role: string }) => u.role).sort()).toEqual(['admin', 'volunteer']);
  const approvals = await get('/api/v1/activity-logs?action_type=APPROVE&limit=1');
  expect(approvals.total ?? approvals.data.length).toBeGreaterThan(0);

  // --- a second run without --force refuses before it changes anything
  const counts = async () => ({
    lots: (await get('/api/v1/lots/count')).count,
    applications: (await get('/api/v1/applications/stats')).total,
    wishes: (await get('/api/v1/wishes/?limit=1')).total,
    donations: (await get('/api/v1/donations/?limit=1')).total,
    users: (await get('/api/v1/users?limit=100')).total,
  });
  const before = await counts();
  const again = await demo(sys.url, '--lots', String(LOTS));
  expect(again.code).toBe(3);
  expect(again.stderr).toContain('demo refused');
  expect(again.stderr).toContain(`${before.lots} lot(s)`);
  expect(await counts()).toEqual(before);
}, 300_000);
