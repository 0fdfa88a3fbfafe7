/**
 * `npm run admin -- demo` (make demo): fills an empty platform with a believable charity's data
 * for training and screenshots, through the gateway's public and staff API as the SPA and the
 * families would (events, activity log, impact counts and read models fill as in real use).
 * What it sends is decided by plan.ts from a seed; it refuses a platform that already has lots
 * unless forced, so that it never mixes invented families into real ones.
 */
import { randomUUID } from 'node:crypto';
import {
  DONATION_TOKEN_HEADER,
  DonationStatuses,
  WishStatuses,
  type Application,
  type ApplicationStats,
  type Category,
  type DonationCreated,
  type DonationsPage,
  type Lot,
} from '@furniture/contracts';
import { KNOWN_CATEGORIES } from '@furniture/catalog/service';
import { DemoApiError, DemoClient } from './client';
import { demoPlan, type DemoPlan } from './plan';
import { renderPhoto, type PhotoSpec } from './photos';

export interface DemoOptions {
  /** the gateway, e.g. http://127.0.0.1:8080 */
  url: string;
  /** an administrator's login */
  email: string;
  password: string;
  lots: number;
  seed: number;
  /** add to a platform that has lots already */
  force: boolean;
  say: (line: string) => void;
}

/** The platform already holds lots and --force was not given. */
export class NotEmptyError extends Error {}

/** Today in Germany plus `days`, YYYY-MM-DD. */
function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function photoForm(jpeg: Buffer, name: string, staff: boolean): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), name);
  if (staff) form.append('generate_thumbnails', 'true');
  return form;
}

export async function fillDemo(opts: DemoOptions): Promise<DemoPlan> {
  const { say } = opts;
  const plan = demoPlan({ lots: opts.lots, seed: opts.seed });
  const api = new DemoClient(opts.url, { email: opts.email, password: opts.password }, say);
  await api.login();

  const existing = await api.call<{ count: number }>({ method: 'GET', path: '/api/v1/lots/count' });
  if (existing.count > 0 && !opts.force)
    throw new NotEmptyError(
      `${opts.url} already holds ${existing.count} lot(s): demo data is for an empty platform (make reset), or add it anyway with --force (make demo FORCE=1)`,
    );
  const started = Date.now();
  say(`filling ${opts.url} (seed ${opts.seed}, ${plan.lots.length} lots)`);

  // --- the eight known categories, with their texts where staff left them empty
  const categories = (
    await api.call<{ data: Category[] }>({ method: 'GET', path: '/api/v1/categories/' })
  ).data;
  const categoryIds = new Map<number, number>();
  let categoriesFixed = 0;
  for (const [key, known] of Object.entries(KNOWN_CATEGORIES)) {
    const id = Number(key);
    const found =
      categories.find((c) => c.id === id) ?? categories.find((c) => c.name.de === known.name.de);
    if (!found) {
      const made = await api.call<{ data: Category }>({
        method: 'POST',
        path: '/api/v1/categories/',
        body: known,
      });
      categoryIds.set(id, made.data.id);
      categoriesFixed++;
      continue;
    }
    categoryIds.set(id, found.id);
    const empty =
      !found.name.de.trim() ||
      !found.name.uk.trim() ||
      !found.description.de.trim() ||
      !found.description.uk.trim() ||
      found.icon === '📦';
    if (!empty) continue;
    await api.call({
      method: 'PUT',
      path: `/api/v1/categories/${found.id}`,
      body: {
        name: {
          de: found.name.de.trim() || known.name.de,
          uk: found.name.uk.trim() || known.name.uk,
        },
        description: {
          de: found.description.de.trim() || known.description.de,
          uk: found.description.uk.trim() || known.description.uk,
        },
        icon: found.icon === '📦' ? known.icon : found.icon,
      },
    });
    categoriesFixed++;
  }
  say(
    `categories: ${categoriesFixed === 0 ? 'the eight as seeded' : `${categoriesFixed} given names, texts or icons`}`,
  );

  // --- a volunteer besides the administrator
  let volunteer = 'created';
  try {
    await api.call({ method: 'POST', path: '/api/v1/users', body: plan.volunteer });
  } catch (err) {
    if (!(err instanceof DemoApiError && err.status === 409)) throw err;
    volunteer = 'there already (password unchanged)';
  }
  say(`volunteer ${plan.volunteer.email} / ${plan.volunteer.password}: ${volunteer}`);

  // --- lots with photos
  const lotIds: number[] = [];
  let photoCount = 0;
  for (const [i, lot] of plan.lots.entries()) {
    const made = await api.call<Lot>({
      method: 'POST',
      path: '/api/v1/lots/',
      body: { ...lot.body, category_id: categoryIds.get(lot.body.category_id) },
    });
    lotIds.push(made.id);
    for (const [n, spec] of lot.photos.entries()) {
      const jpeg = await renderPhoto(spec);
      await api.call({
        method: 'POST',
        path: `/api/v1/lots/${made.id}/photos`,
        form: () => photoForm(jpeg, `${spec.shape}-${made.id}-${n + 1}.jpg`, true),
      });
      photoCount++;
    }
    if ((i + 1) % 10 === 0 || i + 1 === plan.lots.length)
      say(`lots: ${i + 1} of ${plan.lots.length} with ${photoCount} photos`);
  }

  // --- applications: the lots must be known to the applications service first (an event)
  for (const id of lotIds)
    await api.until(`lot ${id} known to the applications service`, async () => {
      try {
        await api.call({ method: 'GET', path: `/api/v1/lots/${id}/applications-info` });
        return true;
      } catch (err) {
        if (err instanceof DemoApiError && err.status === 404) return undefined;
        throw err;
      }
    });
  const runKey = randomUUID().slice(0, 8);
  const applicationIds: number[] = [];
  for (const [i, app] of plan.applications.entries()) {
    const family = plan.families[app.family]!;
    const made = await api.call<{ id: number }>({
      method: 'POST',
      path: '/api/v1/applications/',
      headers: { 'idempotency-key': `demo-${runKey}-${i}` },
      body: {
        applicant_name: family.name.typed,
        applicant_phone: family.phone,
        applicant_whatsapp: family.whatsapp,
        applicant_email: family.email,
        applicant_city: family.city,
        applicant_address: family.address,
        needs_delivery_help: family.needs_delivery_help,
        lot_id: lotIds[app.lot],
        language: family.language,
      },
    });
    applicationIds.push(made.id);
  }
  say(`applications: ${applicationIds.length} from ${plan.families.length} families`);

  const statusOf = async (id: number) =>
    api.call<Application>({ method: 'GET', path: `/api/v1/applications/${id}` });
  const setStatus = (id: number, body: Record<string, unknown>) =>
    api.call({ method: 'PATCH', path: `/api/v1/applications/${id}/status`, body });
  for (const [i, app] of plan.applications.entries()) {
    const id = applicationIds[i]!;
    if (app.fate === 'contacted')
      await api.call({
        method: 'PATCH',
        path: `/api/v1/applications/${id}/notes`,
        body: { note: app.note, action: 'CONTACT' },
      });
    if (app.fate === 'approved' || app.fate === 'completed') {
      await setStatus(id, {
        status: 'approved',
        pickup_by: dayFromToday(app.pickupInDays),
        note: app.fate === 'approved' ? app.note : null,
      });
      // the approval is final once the catalog has reserved the lot (an event each way)
      await api.until(`application ${id} approved`, async () => {
        const now = await statusOf(id);
        if (now.approval?.state === 'failed')
          throw new Error(`application ${id}: the approval failed (${now.approval.reason})`);
        return now.status === 'approved' ? true : undefined;
      });
      if (app.fate === 'completed') await setStatus(id, { status: 'completed', note: app.note });
    }
    if (app.fate === 'rejected') await setStatus(id, { status: 'rejected', note: app.note });
  }
  // the families outranked by an approval are rejected by the platform
  for (const [i, app] of plan.applications.entries())
    if (app.fate === 'outranked')
      await api.until(`application ${applicationIds[i]} rejected after the approval`, async () =>
        (await statusOf(applicationIds[i]!)).status === 'rejected' ? true : undefined,
      );

  // --- wishes
  for (const wish of plan.wishes) {
    const family = plan.families[wish.family]!;
    const made = await api.call<{ id: number }>({
      method: 'POST',
      path: '/api/v1/wishes/',
      body: {
        applicant_name: family.name.typed,
        applicant_whatsapp: family.whatsapp ?? family.phone,
        applicant_email: family.email,
        furniture_category: categoryIds.get(wish.category),
        furniture_description: wish.description,
        language: family.language,
      },
    });
    if (wish.fate !== 'active')
      await api.call({
        method: 'PATCH',
        path: `/api/v1/wishes/${made.id}/status?status=${wish.fate}`,
        body: { admin_notes: wish.note },
      });
  }
  say(`wishes: ${plan.wishes.length}`);

  // --- donations with the donors' photos; the collected ones become lots
  let donationLots = 0;
  for (const donation of plan.donations) {
    const made = await api.call<DonationCreated>({
      method: 'POST',
      path: '/api/v1/donations/',
      body: {
        ...donation.body,
        available_until: dayFromToday(donation.availableInDays),
        items: donation.body.items.map((item) => ({
          ...item,
          category_id: categoryIds.get(item.category_id),
        })),
      },
    });
    for (const [n, item] of made.items.entries()) {
      const spec: PhotoSpec = donation.photos[n]!;
      const jpeg = await renderPhoto(spec);
      await api.call({
        method: 'POST',
        path: `/api/v1/donations/${made.id}/items/${item.id}/photos`,
        headers: { [DONATION_TOKEN_HEADER]: made.upload_token },
        anonymous: true,
        form: () => photoForm(jpeg, `spende-${made.id}-${n + 1}.jpg`, false),
      });
    }
    const status = (body: Record<string, unknown>) =>
      api.call({ method: 'PATCH', path: `/api/v1/donations/${made.id}/status`, body });
    if (donation.fate === 'declined') await status({ status: 'declined', reason: donation.note });
    if (donation.fate === 'accepted') await status({ status: 'accepted', note: donation.note });
    if (donation.fate === 'collected') {
      await status({ status: 'accepted' });
      await status({ status: 'collected', note: donation.note });
      const lot = await api.call<Lot>({
        method: 'POST',
        path: `/api/v1/donations/${made.id}/items/${made.items[0]!.id}/lot`,
        body: {},
      });
      lotIds.push(lot.id);
      donationLots++;
    }
  }
  say(`donations: ${plan.donations.length} (${donationLots} became lots)`);

  // --- the photos reach the lots through events: wait so that the summary is what one sees
  await api.until(
    'the photos on every lot',
    async () => {
      for (const id of lotIds) {
        const lot = await api.call<Lot>({ method: 'GET', path: `/api/v1/lots/${id}` });
        if (lot.photos.length === 0) return undefined;
      }
      return true;
    },
    120_000,
  );
  await summary(api, say, plan, Date.now() - started);
  return plan;
}

async function summary(
  api: DemoClient,
  say: (line: string) => void,
  plan: DemoPlan,
  ms: number,
): Promise<void> {
  const stats = await api.call<ApplicationStats>({
    method: 'GET',
    path: '/api/v1/applications/stats',
  });
  const lots = await api.call<{ count: number }>({ method: 'GET', path: '/api/v1/lots/count' });
  const wishCounts: string[] = [];
  for (const status of WishStatuses) {
    const page = await api.call<{ total: number }>({
      method: 'GET',
      path: `/api/v1/wishes/?status=${status}&limit=1`,
    });
    wishCounts.push(`${status} ${page.total}`);
  }
  const donations = await api.call<DonationsPage>({
    method: 'GET',
    path: '/api/v1/donations/?limit=1',
  });
  say('');
  say(`done in ${(ms / 1000).toFixed(0)} s; the platform now holds:`);
  say(`  lots          ${lots.count}`);
  say(
    `  applications  ${stats.total}: pending ${stats.pending}, approved ${stats.approved}, rejected ${stats.rejected}, completed ${stats.completed}`,
  );
  say(`  wishes        ${wishCounts.join(', ')}`);
  say(
    `  donations     ${DonationStatuses.filter((s) => donations.counts[s] > 0)
      .map((s) => `${s} ${donations.counts[s]}`)
      .join(', ')}`,
  );
  say(
    `  families      ${plan.families.length} (phone numbers: the Bundesnetzagentur's Drama Numbers)`,
  );
  say(`  staff         the administrator, and the volunteer ${plan.volunteer.email}`);
}
