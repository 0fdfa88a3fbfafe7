import {
  Events,
  type DomainEvent,
  type EventName,
  type EventPayload,
  type ImpactAgency,
  type ImpactCategory,
  type ImpactQuery,
  type ImpactReport,
} from '@furniture/contracts';
import { localDay } from '@furniture/platform/domain';

/** The storage the counters need (data-access/impact-repository.ts). */
export interface ImpactStore {
  count(
    eventId: string,
    at: Date,
    deltas: Record<string, number>,
    labels?: Record<string, string>,
  ): Promise<boolean>;
  all(): Promise<{
    counters: Map<string, number>;
    labels: Map<string, string>;
    since: Date | null;
  }>;
}

/** Waiting times beyond a year are counted as a year (the histogram's last bucket). */
const MAX_WAIT_DAYS = 365;
const DAY_MS = 24 * 3600 * 1000;

/** The events the counters follow. */
export const ImpactEvents: readonly EventName[] = [
  Events.LotCreated,
  Events.ApplicationSubmitted,
  Events.ApplicationCompleted,
  Events.WishCreated,
  Events.WishStatusChanged,
  Events.DonationSubmitted,
  Events.DonationStatusChanged,
  Events.DonationItemLotCreated,
];

const key = {
  received: (month: string) => `received:${month}`,
  given: (month: string) => `given:${month}`,
  total: (what: string) => `total:${what}`,
  wait: (days: number) => `wait:${days}`,
  /** days from the approval to the handover (issue 29) */
  sinceApproval: (days: number) => `approved:${days}`,
  category: (id: number, what: keyof Omit<ImpactCategory, 'category_id'>) => `cat:${id}:${what}`,
  /** issue 44: the families a partner agency referred, and what became of them */
  agency: (id: number, what: keyof Omit<ImpactAgency, 'agency_id' | 'name'>) =>
    `agency:${id}:${what}`,
  agencyName: (id: number) => `agency:${id}`,
};

/** The agency an event names (issue 44): a referral's, or a referred family's referrer's. */
function agencyOf(event: DomainEvent): { id: number; name: string } | null {
  switch (event.name) {
    case Events.ApplicationSubmitted:
      return (
        (event.payload as EventPayload<typeof Events.ApplicationSubmitted>).referral?.agency ?? null
      );
    case Events.WishCreated:
      return (event.payload as EventPayload<typeof Events.WishCreated>).referral?.agency ?? null;
    case Events.ApplicationCompleted: {
      const r = (event.payload as EventPayload<typeof Events.ApplicationCompleted>).referrer;
      return r?.agency_id !== undefined ? { id: r.agency_id, name: r.agency_name } : null;
    }
    default:
      return null;
  }
}

/**
 * The impact dashboard for donors' reports (issue 19): counters kept up to date by the events
 * (lots received, lots given per month, families served, waiting times as a histogram of days,
 * wishes and applications per category, donations received and accepted, lots made of donated
 * items, days from the approval to the handover as a histogram too), each event counted once. The report reads the few
 * hundred counters, never the applications, lots or wishes themselves.
 */
export class ImpactService {
  constructor(private readonly deps: { store: ImpactStore; timeZone: string }) {}

  /** The counter changes one event makes. */
  deltasOf(event: DomainEvent): Record<string, number> {
    const at = new Date(event.occurredAt);
    const month = localDay(at, this.deps.timeZone).slice(0, 7);
    const d: Record<string, number> = {};
    const add = (k: string, n = 1) => {
      d[k] = (d[k] ?? 0) + n;
    };
    const agency = agencyOf(event);
    switch (event.name) {
      case Events.LotCreated:
        add(key.received(month));
        add(key.total('lots_received'));
        break;
      case Events.ApplicationSubmitted: {
        const p = event.payload as EventPayload<typeof Events.ApplicationSubmitted>;
        add(key.total('applications'));
        if (p.category_id !== undefined) add(key.category(p.category_id, 'applications'));
        if (agency) add(key.agency(agency.id, 'applications'));
        break;
      }
      case Events.ApplicationCompleted: {
        const p = event.payload as EventPayload<typeof Events.ApplicationCompleted>;
        add(key.given(month));
        add(key.total('lots_given'));
        if (p.category_id !== undefined) add(key.category(p.category_id, 'lots_given'));
        if (p.first_handover) add(key.total('families_served'));
        if (agency) {
          add(key.agency(agency.id, 'lots_given'));
          if (p.first_handover) add(key.agency(agency.id, 'families_served'));
        }
        const daysSince = (iso: string) => {
          const days = Math.floor((at.getTime() - new Date(iso).getTime()) / DAY_MS);
          return Number.isFinite(days) ? Math.min(Math.max(days, 0), MAX_WAIT_DAYS) : null;
        };
        const waited = p.applied_at ? daysSince(p.applied_at) : null;
        if (waited !== null) add(key.wait(waited));
        const afterApproval = p.approved_at ? daysSince(p.approved_at) : null;
        if (afterApproval !== null) add(key.sinceApproval(afterApproval));
        break;
      }
      case Events.WishCreated: {
        const p = event.payload as EventPayload<typeof Events.WishCreated>;
        add(key.total('wishes'));
        if (agency) add(key.agency(agency.id, 'wishes'));
        if (p.furniture_category !== null) {
          add(key.category(p.furniture_category, 'wishes'));
          if (p.status === 'active') add(key.category(p.furniture_category, 'open_wishes'));
        }
        break;
      }
      case Events.WishStatusChanged: {
        const p = event.payload as EventPayload<typeof Events.WishStatusChanged>;
        const category = p.furniture_category;
        if (category === null || category === undefined || p.old_status === p.new_status) break;
        if (p.old_status === 'active') add(key.category(category, 'open_wishes'), -1);
        if (p.new_status === 'active') add(key.category(category, 'open_wishes'));
        break;
      }
      case Events.DonationSubmitted:
        add(key.total('donations_received'));
        break;
      case Events.DonationStatusChanged: {
        const p = event.payload as EventPayload<typeof Events.DonationStatusChanged>;
        // accepted once: a later collection or cancellation does not take it back
        if (p.new_status === 'accepted' && p.old_status !== 'accepted')
          add(key.total('donations_accepted'));
        break;
      }
      case Events.DonationItemLotCreated:
        add(key.total('lots_from_donations'));
        break;
    }
    return d;
  }

  /** Counts the event once (a redelivery counts nothing); an agency's name as last heard. */
  async onEvent(event: DomainEvent): Promise<void> {
    const deltas = this.deltasOf(event);
    if (Object.keys(deltas).length === 0) return;
    const agency = agencyOf(event);
    const labels = agency ? { [key.agencyName(agency.id)]: agency.name } : {};
    await this.deps.store.count(event.eventId, new Date(event.occurredAt), deltas, labels);
  }

  /** GET /impact: the last `months` months (this one included) and everything since counting began. */
  async report(q: ImpactQuery, now = new Date()): Promise<ImpactReport> {
    const { counters, labels, since } = await this.deps.store.all();
    const n = (k: string) => counters.get(k) ?? 0;

    const [y, m] = localDay(now, this.deps.timeZone).split('-').map(Number) as [number, number];
    const months = Array.from({ length: q.months }, (_, i) => {
      const date = new Date(Date.UTC(y, m - 1 - (q.months - 1 - i), 1));
      const month = date.toISOString().slice(0, 7);
      return { month, lots_received: n(key.received(month)), lots_given: n(key.given(month)) };
    });

    const histogram = (bucket: (days: number) => string) =>
      Array.from({ length: MAX_WAIT_DAYS + 1 }, (_, days) => n(bucket(days)));
    const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
    const waits = histogram(key.wait);
    const sinceApproval = histogram(key.sinceApproval);

    const categories = new Map<number, ImpactCategory>();
    for (const [k, v] of counters) {
      const match = /^cat:(\d+):(\w+)$/.exec(k);
      if (!match) continue;
      const id = Number(match[1]);
      const c = categories.get(id) ?? {
        category_id: id,
        applications: 0,
        wishes: 0,
        lots_given: 0,
        open_wishes: 0,
      };
      const field = match[2] as keyof Omit<ImpactCategory, 'category_id'>;
      if (field in c) c[field] = Math.max(0, v);
      categories.set(id, c);
    }

    const agencies = new Map<number, ImpactAgency>();
    for (const [k, v] of counters) {
      const match = /^agency:(\d+):(\w+)$/.exec(k);
      if (!match) continue;
      const id = Number(match[1]);
      const a = agencies.get(id) ?? {
        agency_id: id,
        name: labels.get(key.agencyName(id)) ?? '',
        applications: 0,
        wishes: 0,
        lots_given: 0,
        families_served: 0,
      };
      const field = match[2] as keyof Omit<ImpactAgency, 'agency_id' | 'name'>;
      if (field in a) a[field] = Math.max(0, v);
      agencies.set(id, a);
    }

    return {
      counting_since: since ? since.toISOString() : null,
      months,
      totals: {
        lots_received: n(key.total('lots_received')),
        lots_given: n(key.total('lots_given')),
        families_served: n(key.total('families_served')),
        applications: n(key.total('applications')),
        wishes: n(key.total('wishes')),
        donations_received: n(key.total('donations_received')),
        donations_accepted: n(key.total('donations_accepted')),
        lots_from_donations: n(key.total('lots_from_donations')),
      },
      median_days_to_pickup: medianOfHistogram(waits),
      handovers_measured: sum(waits),
      median_days_approval_to_handover: medianOfHistogram(sinceApproval),
      handovers_measured_since_approval: sum(sinceApproval),
      categories: [...categories.values()]
        .filter((c) => c.applications + c.wishes + c.lots_given + c.open_wishes > 0)
        .sort(
          (a, b) =>
            b.applications - a.applications || b.wishes - a.wishes || a.category_id - b.category_id,
        ),
      agencies: [...agencies.values()].sort(
        (a, b) =>
          b.families_served - a.families_served ||
          b.applications + b.wishes - (a.applications + a.wishes) ||
          a.name.localeCompare(b.name, 'de') ||
          a.agency_id - b.agency_id,
      ),
    };
  }
}

/** The median of values given as a histogram (counts[v] = how often v occurred); null when empty. */
export function medianOfHistogram(counts: number[]): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (let v = 0; v < counts.length; v++) {
      seen += counts[v]!;
      if (seen > rank) return v;
    }
    return counts.length - 1;
  };
  const lower = valueAt(Math.floor((total - 1) / 2));
  const upper = valueAt(Math.floor(total / 2));
  return (lower + upper) / 2;
}
