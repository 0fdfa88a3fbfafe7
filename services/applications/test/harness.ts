import type { LotSnapshot, LotStatus } from '@furniture/contracts';
import { Events } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import type { LotSnapshotSource } from '@furniture/platform';
import { api, eventually, TEST_ADMIN, startService, testLot } from '@furniture/platform/testing';
import { applicationsService } from '../src/compose';
import type { Calendar } from '../src/domain/calendar';
import type { DonorRecordsSource } from '../src/domain/privacy';

/**
 * The catalog's donations of a number as a stand-in (the catalog's own tests and the system
 * test cover the real ones): `donations` by E.164, erased as the catalog does, open ones kept.
 */
export function donorsStub() {
  const donations = new Map<string, Record<string, unknown>[]>();
  const erasures: { phone: string; actor: unknown }[] = [];
  const isOpen = (d: Record<string, unknown>) =>
    d.status === 'submitted' || d.status === 'accepted';
  const source: DonorRecordsSource = {
    lookup: async (e164) => donations.get(e164) ?? [],
    async erase(e164, actor) {
      erasures.push({ phone: e164, actor });
      const found = donations.get(e164) ?? [];
      const open = found.filter(isOpen);
      donations.set(e164, open);
      return { erased: found.length - open.length, open: open.length };
    },
  };
  return { source, donations, erasures };
}

export {
  TEST_ADMIN as ADMIN,
  TEST_VOLUNTEER as VOLUNTEER,
  adminToken,
  volunteerToken,
} from '@furniture/platform/testing';

/**
 * Starts the real applications service against the test servers, on its own database, consuming
 * its events from `exchange` (a new one unless given) like in production.
 */
export async function startApplications(
  opts: {
    env?: Record<string, string>;
    exchange?: string;
    lotSource?: LotSnapshotSource;
    calendar?: Calendar;
    /** the retention job's clock */
    now?: () => Date;
    /** the catalog's donations of a number (none by default) */
    donors?: DonorRecordsSource;
  } = {},
) {
  const svc = await startService(applicationsService, {
    exchange: opts.exchange,
    // one machine sends every lookup and write, many with one phone: the limits have their own
    // test (limits.test.ts)
    env: {
      LOT_SNAPSHOT_SYNC: 'never',
      PHONE_LOOKUPS_PER_IP: '100000',
      PUBLIC_WRITES_PER_IP: '100000',
      PUBLIC_WRITES_PER_PHONE: '100000',
      ...opts.env,
    },
    options: {
      lotSource: opts.lotSource,
      calendar: opts.calendar,
      now: opts.now,
      donors: opts.donors ?? donorsStub().source,
    },
  });
  return svc;
}
export type ApplicationsHarness = Awaited<ReturnType<typeof startApplications>>;

let lotIds = 1000;
/** A lot as the catalog's events carry it; override what a test is about. */
export function lotSnapshot(overrides: Partial<LotSnapshot> = {}): LotSnapshot {
  return testLot({
    id: ++lotIds,
    name: { de: 'Kleiderschrank weiß', uk: 'Шафа біла' },
    category_id: 4,
    photos: ['/media/lots/1/a-medium.webp'],
    ...overrides,
  });
}

/**
 * Makes a lot known to the service the way the catalog does (lot.created) and waits until the
 * service's read model has it.
 */
export async function publishLot(
  h: ApplicationsHarness,
  overrides: Partial<LotSnapshot> = {},
): Promise<LotSnapshot> {
  const lot = lotSnapshot(overrides);
  await h.publish(createEvent(Events.LotCreated, { lot }, TEST_ADMIN));
  await waitForLot(h.url, lot.id, lot.status);
  return lot;
}

/** Waits until the service answers the lot's queue info with the given lot status. */
export async function waitForLot(url: string, lotId: number, status?: LotStatus): Promise<void> {
  const http = api(url);
  await eventually(
    async () => {
      const res = await http.get(`/api/v1/lots/${lotId}/applications-info`);
      return res.status === 200 && (!status || res.body.data.lot_status === status);
    },
    { what: `lot ${lotId}${status ? ` ${status}` : ''} in the read model` },
  );
}

let phoneSeq = 1000000;
/** A German mobile number no other test uses (national form). */
export function newPhone(): string {
  phoneSeq += 1;
  return `0176 ${String(phoneSeq).padStart(8, '0')}`;
}

/** A valid application body; override what a test is about. */
export function applicationBody(lotId: number, overrides: Record<string, unknown> = {}) {
  return {
    applicant_name: 'Olena Kovalenko',
    applicant_phone: newPhone(),
    applicant_whatsapp: '+380 67 123 4567',
    applicant_email: 'olena@example.org',
    applicant_city: 'Berlin',
    applicant_address: 'Sonnenallee 1',
    needs_delivery_help: false,
    lot_id: lotId,
    ...overrides,
  };
}

export function wishBody(overrides: Record<string, unknown> = {}) {
  return {
    applicant_name: 'Iryna Shevchenko',
    applicant_whatsapp: '+380 50 765 4321',
    furniture_category: 2,
    furniture_description: 'Ein Kinderbett mit Matratze für zwei Kinder',
    ...overrides,
  };
}

/** "+49176…" as E.164 from newPhone()'s national form. */
export function e164(national: string): string {
  return `+49${national.replace(/\D/g, '').replace(/^0/, '')}`;
}

export { createEvent, eventually };

/** A clock the test moves: starts at `start`, `advanceDays` jumps whole days. */
export function testCalendar(start = '2026-11-24T09:00:00Z') {
  let now = new Date(start);
  return {
    timeZone: 'Europe/Berlin',
    now: () => now,
    advanceDays(days: number) {
      now = new Date(now.getTime() + days * 86_400_000);
    },
  };
}
