import type { Application } from '@furniture/contracts/api/applications';

let nextId = 100;

/** An application as the applications service answers it to staff. */
export function application(overrides: Partial<Application> = {}): Application {
  const id = overrides.id ?? nextId++;
  const lotId = overrides.lot_id ?? 1;
  return {
    id,
    lot_id: lotId,
    status: 'pending',
    applicant_name: `Familie ${id}`,
    applicant_phone: '+4917612345678',
    applicant_phone_raw: '0176 12345678',
    applicant_whatsapp: '+4917612345678',
    applicant_email: null,
    applicant_city: 'Berlin',
    applicant_address: 'Hauptstraße 1',
    needs_delivery_help: false,
    language: 'uk',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    internal_notes: '',
    notes: [],
    queue_position: null,
    approval: null,
    pickup_by: null,
    pickup_overdue: false,
    pickup_reminded_at: null,
    next_in_queue_after: null,
    lot: {
      id: lotId,
      name: { de: `Lot ${lotId}`, uk: `Лот ${lotId}` },
      photo: null,
      status: 'available',
      deleted: false,
    },
    ...overrides,
  };
}

export const lotRef = (
  id: number,
  status: NonNullable<Application['lot']>['status'] = 'available',
) => ({
  id,
  name: { de: `Lot ${id}`, uk: `Лот ${id}` },
  photo: null,
  status,
  deleted: false,
});
