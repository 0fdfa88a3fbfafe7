import type { ApplicationStatus } from '@furniture/contracts/enums';
import type { Application, ApplicationLot } from '@furniture/contracts/api/applications';

export interface ApplicationGroup {
  lotId: number;
  lot: ApplicationLot | null;
  /** oldest first */
  applications: Application[];
  counts: Record<ApplicationStatus, number> & { total: number };
  /**
   * the application that holds the lot's reservation, or is about to: one of the group, or as
   * the server names it (`lot.held_by`) when it is listed on another page or filtered out
   */
  approved: LotHolder | null;
}

export type LotHolder = Pick<Application, 'id' | 'applicant_name'>;

const byAge = (a: Application, b: Application) =>
  a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;

/**
 * The applications of a page grouped by lot (back-office §2 Applications screen): lots that are
 * not 'taken' first, then by number of pending applications (most first), then by lot id; within
 * a group the oldest application first.
 */
export function groupByLot(applications: Application[]): ApplicationGroup[] {
  const groups = new Map<number, ApplicationGroup>();
  for (const application of applications) {
    let group = groups.get(application.lot_id);
    if (!group) {
      group = {
        lotId: application.lot_id,
        lot: application.lot,
        applications: [],
        counts: { total: 0, pending: 0, approved: 0, rejected: 0, completed: 0 },
        approved: null,
      };
      groups.set(application.lot_id, group);
    }
    group.lot ??= application.lot;
    group.applications.push(application);
    group.counts.total += 1;
    group.counts[application.status] += 1;
    if (application.status === 'approved' || application.approval?.state === 'requested')
      group.approved = application;
    else if (!group.approved && application.lot?.held_by) group.approved = application.lot.held_by;
  }
  const list = [...groups.values()];
  for (const group of list) group.applications.sort(byAge);
  const taken = (g: ApplicationGroup) => (g.lot?.status === 'taken' ? 1 : 0);
  return list.sort(
    (a, b) => taken(a) - taken(b) || b.counts.pending - a.counts.pending || a.lotId - b.lotId,
  );
}

/**
 * Queue places of a group's applications. The server answers each open (pending or approved)
 * application's place among all of the lot's open ones, also those on other pages; where it is
 * missing, the open applications of the group are counted oldest first.
 */
export function queuePositions(group: ApplicationGroup): Map<number, number> {
  const places = new Map<number, number>();
  let counted = 0;
  for (const application of group.applications) {
    if (application.status !== 'pending' && application.status !== 'approved') continue;
    counted += 1;
    places.set(application.id, application.queue_position ?? counted);
  }
  return places;
}

/** Position 1 that is still pending is the next family to ask. */
export const isNextInQueue = (application: Application, place: number | undefined) =>
  place === 1 && application.status === 'pending';

/**
 * Client-side search over name, phone, city and address (back-office §2: not sent to the
 * server). Phones match by their digits, so "0176 123" finds +49176123….
 */
export function matchesSearch(application: Application, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase('de');
  if (!needle) return true;
  const texts = [
    application.applicant_name,
    application.applicant_city,
    application.applicant_address,
  ];
  if (texts.some((text) => (text ?? '').toLocaleLowerCase('de').includes(needle))) return true;
  const digits = needle.replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length < 3) return false;
  const phones = [
    application.applicant_phone,
    application.applicant_phone_raw,
    application.applicant_whatsapp,
  ];
  return phones.some((phone) => (phone ?? '').replace(/\D/g, '').includes(digits));
}
