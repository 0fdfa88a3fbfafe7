import type { ApplicationStatus, ApplicationStatusChange } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { startService } from '@furniture/platform/testing';
import { catalogService, type CatalogOptions } from '../src/compose';

export {
  TEST_ADMIN as ADMIN,
  TEST_VOLUNTEER as VOLUNTEER,
  adminToken,
  volunteerToken,
} from '@furniture/platform/testing';

/**
 * Starts the real catalog service against the test servers, on its own database and exchange,
 * consuming its events like in production.
 */
export async function startCatalog(env: Record<string, string> = {}, options: CatalogOptions = {}) {
  const svc = await startService(catalogService, { env, options });
  return {
    ...svc,
    catalog: svc.service,
    /**
     * Changes a stored lot behind the API (e.g. its creation date), through the store like every
     * write of the service (its one declaration of the lots): FerretDB would otherwise lose one of
     * two concurrent updates.
     */
    setLotFields: (id: number, set: Record<string, unknown>) =>
      svc.service.lotsRepo.stored.update({ _id: String(id) } as never, { $set: set }),
  };
}
export type CatalogHarness = Awaited<ReturnType<typeof startCatalog>>;

/** A valid lot form body; override what a test is about. */
export function lotBody(overrides: Record<string, unknown> = {}) {
  return {
    name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
    description: { de: 'Gut erhaltenes Ecksofa', uk: 'Кутовий диван у доброму стані' },
    category_id: 1,
    status: 'available',
    dimensions: '250 x 160 cm',
    condition: 'gut',
    donor: 'Familie Müller',
    location: 'Berlin-Neukölln',
    ...overrides,
  };
}

/** The payload of an application status event (application.approved and friends). */
export function applicationChange(
  applicationId: number,
  lotId: number,
  change: {
    old_status: ApplicationStatus;
    new_status: ApplicationStatus;
    reason?: ApplicationStatusChange['reason'];
  },
): ApplicationStatusChange {
  return {
    application_id: applicationId,
    lot_id: lotId,
    old_status: change.old_status,
    new_status: change.new_status,
    reason: change.reason ?? 'staff',
    note: null,
    applicant_name: 'Olena Kovalenko',
    applicant_email: null,
    language: 'uk',
    lot_name: { de: 'Ecksofa', uk: 'Диван' },
  };
}

/** A valid donation offer (public POST /donations/); override what a test is about. */
export function donationBody(overrides: Record<string, unknown> = {}) {
  return {
    donor_name: 'Sabine Gärtner',
    donor_phone: '0176 2345 6789',
    donor_email: 'sabine.gaertner@example.org',
    language: 'de',
    city: 'Berlin',
    address: 'Sonnenallee 12',
    floor: 3,
    has_elevator: false,
    available_until: '2099-12-31',
    items: [
      {
        category_id: 1,
        description: 'Dreisitzer-Sofa, grau, kaum benutzt',
        dimensions: '210 x 90 x 80 cm',
        condition: 'very_good',
        can_disassemble: true,
      },
    ],
    consent: true,
    ...overrides,
  };
}

/** A clock the test sets (the donations' "now": expiry, upload tokens, retention). */
export function testClock(start = new Date()) {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set: (d: Date) => {
      at = d.getTime();
    },
    advance: (ms: number) => {
      at += ms;
    },
  };
}

export { createEvent };
