import { Events, type Actor, type LapseInput, type PickupUpdate } from '@furniture/contracts';
import { AppError, createEvent, type LotLookup, type Logger } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import { requestApproval } from './approvals';
import { addDays, today, type Calendar } from './calendar';
import type { HandoverLinks } from './handover-links';
import { authorOf, noteLine, SYSTEM_AUTHOR } from './notes';
import type { ApplicationRecord } from './records';
import { changeStatus, familyFields } from './status-changes';

export interface PickupsDeps {
  /** the booking given back when the pickup lapses (issue 29) */
  handoverLinks?: HandoverLinks;
  applications: ApplicationsRepository;
  lots: LotLookup;
  calendar: Calendar;
  logger: Logger;
  /** days from the approval to the default pickup date */
  pickupDays: number;
  /** the family is reminded this many days before the pickup date */
  reminderDays: number;
  /** a lapsed lot is approved for the next family at once (else staff are shown who is next) */
  autoApproveNext: boolean;
}

const germanDay = (day: string) => day.split('-').reverse().join('.');

/**
 * Pickup dates (issue 19): an approval carries the last day to pick the lot up; the family is
 * reminded before it; once it has passed the reservation is overdue and staff extend it or let
 * it lapse. A lapse ends the application, the catalog frees the lot, the families rejected
 * because of it come back to the queue, and the first of the queue is next: approved at once
 * when the organisation says so, otherwise marked for staff.
 */
export class Pickups {
  constructor(private readonly deps: PickupsDeps) {}

  /** The default pickup date of an approval made today. */
  defaultPickupBy(): string {
    return addDays(today(this.deps.calendar), this.deps.pickupDays);
  }

  /** A date staff chose: today or later. */
  checkDate(day: string): string {
    if (day < today(this.deps.calendar)) throw new AppError('PICKUP_DATE_IN_PAST');
    return day;
  }

  /** Approved and its pickup date has passed (or its booked slot passed unconfirmed). */
  isOverdue(
    app: Pick<ApplicationRecord, 'status' | 'pickup_by'> &
      Partial<Pick<ApplicationRecord, 'pickup_overdue_at'>>,
  ): boolean {
    if (app.status !== 'approved') return false;
    if (app.pickup_overdue_at) return true;
    return app.pickup_by !== null && app.pickup_by < today(this.deps.calendar);
  }

  /**
   * A booked slot passed without the family (issue 29): the pickup is overdue like a passed
   * pickup date (announced once), and staff extend it or let it lapse.
   */
  async markOverdue(app: ApplicationRecord): Promise<boolean> {
    if (app.status !== 'approved' || app.pickup_overdue_at) return false;
    return this.deps.applications.markPickup(app.id, 'pickup_overdue_at', app.pickup_by ?? null, [
      createEvent(Events.ApplicationPickupOverdue, {
        application_id: app.id,
        lot_id: app.lot_id,
        pickup_by: app.pickup_by ?? '',
      }),
    ]);
  }

  /** PATCH /applications/{id}/pickup: a new date, mailed to the family and logged. */
  async extend(actor: Actor, app: ApplicationRecord, input: PickupUpdate): Promise<void> {
    if (app.status !== 'approved') throw new AppError('PICKUP_NOT_APPROVED');
    const day = this.checkDate(input.pickup_by);
    const lot = await this.deps.lots.get(app.lot_id);
    const comment = input.note
      ? `Abholung bis ${germanDay(day)}: ${input.note}`
      : `Abholung bis ${germanDay(day)} (vorher: ${app.pickup_by ? germanDay(app.pickup_by) : '–'})`;
    const updated = await this.deps.applications.setPickup(
      app.id,
      day,
      noteLine(authorOf(actor), 'PICKUP_EXTEND', comment),
      [
        createEvent(
          Events.ApplicationPickupExtended,
          {
            ...familyFields(app, lot),
            old_pickup_by: app.pickup_by,
            pickup_by: day,
            note: input.note,
          },
          actor,
        ),
      ],
    );
    if (!updated) throw new AppError('PICKUP_NOT_APPROVED');
  }

  /**
   * POST /applications/{id}/lapse: the family did not come; the lot goes to the next family.
   * `actor` null: the system (a missed slot's follow-up has no staff member).
   */
  async lapse(actor: Actor | null, app: ApplicationRecord, input: LapseInput): Promise<void> {
    if (app.status !== 'approved') throw new AppError('PICKUP_NOT_APPROVED');
    const until = app.pickup_by ? ` (bis ${germanDay(app.pickup_by)})` : '';
    const updated = await changeStatus(this.deps, app, 'rejected', {
      reason: 'pickup_lapsed',
      note: input.note ?? `Abholfrist abgelaufen${until}: Das Lot geht an die nächste Familie.`,
      author: actor ? authorOf(actor) : SYSTEM_AUTHOR,
      actor,
    });
    if (!updated) throw new AppError('APPLICATION_CHANGED', { params: { status: app.status } });
  }

  /**
   * The scheduled look at the pickup dates: a reminder for each approved application whose date
   * is at most `reminderDays` away, an overdue notice for each whose date has passed, each once.
   */
  /**
   * One pass of the pickup-date job; `held` is its lease (one replica at a time: a reminder
   * marked by two would be mailed twice), asked before each write.
   */
  async checkDeadlines(
    held: () => boolean = () => true,
  ): Promise<{ reminded: number; overdue: number }> {
    const day = today(this.deps.calendar);
    const due = await this.deps.applications.approvedDueBy(addDays(day, this.deps.reminderDays));
    let reminded = 0;
    let overdue = 0;
    for (const app of due) {
      const pickupBy = app.pickup_by!;
      const late = pickupBy < day;
      if (late ? app.pickup_overdue_at : app.pickup_reminded_at) continue;
      if (!held()) break;
      const event = late
        ? createEvent(Events.ApplicationPickupOverdue, {
            application_id: app.id,
            lot_id: app.lot_id,
            pickup_by: pickupBy,
          })
        : createEvent(Events.ApplicationPickupReminderDue, {
            ...familyFields(app, await this.deps.lots.get(app.lot_id)),
            pickup_by: pickupBy,
          });
      const field = late ? 'pickup_overdue_at' : 'pickup_reminded_at';
      if (!(await this.deps.applications.markPickup(app.id, field, pickupBy, [event]))) continue;
      if (late) overdue++;
      else reminded++;
    }
    return { reminded, overdue };
  }

  /**
   * The lot of a lapsed application is free again (its rivals are back in the queue): the first
   * family of the queue is next. Announced (application.next_in_queue), and approved at once
   * when the organisation turned that on.
   */
  async offerNext(lotId: number, afterId: number): Promise<void> {
    const [next] = await this.deps.applications.ofLot(lotId, ['pending']);
    if (!next || next.approval?.state === 'requested') return;
    const auto = this.deps.autoApproveNext;
    const marked = await this.deps.applications.markNextInQueue(next.id, afterId, [
      createEvent(Events.ApplicationNextInQueue, {
        application_id: next.id,
        lot_id: lotId,
        after_application_id: afterId,
        auto_approved: auto,
      }),
    ]);
    if (!marked || !auto) return;
    try {
      await requestApproval(this.deps, next, {
        requestedBy: null,
        note: `Automatisch genehmigt: Bewerbung #${afterId} hat das Lot nicht abgeholt.`,
        pickupBy: this.defaultPickupBy(),
      });
    } catch (err) {
      // someone (staff, or an earlier run of this handler) was faster: nothing to do
      if (!(err instanceof AppError)) throw err;
      this.deps.logger.info(
        { lotId, applicationId: next.id, code: err.code },
        'next family not approved automatically',
      );
    }
  }
}
