// What the page checks of pages.e2e.ts show, put on their platform through the API:
// the scenarios of platform.e2e.ts leave the same behind through the browser (family.ts,
// queue.ts, wish.ts), which takes minutes; the pages only need it to be there.
import { FAMILY_PHONE } from '../scenarios/family';
import type { World } from './world';

export async function seedWhatThePagesShow(world: World): Promise<void> {
  const first = world.lots[0]!;
  const second = world.lots[1]!;
  await world.waitForApplicable(first.id);
  await world.waitForApplicable(second.id);
  const apply = (body: Record<string, unknown>) =>
    world.admin.call<{ id: number }>('POST', '/applications/', {
      body: { applicant_city: 'Berlin', needs_delivery_help: false, ...body },
    });
  // the family of the first scenario waits for the first lot (/check-status, the approve dialog)
  await apply({
    applicant_name: 'Olena Kowalenko',
    applicant_phone: FAMILY_PHONE,
    applicant_whatsapp: FAMILY_PHONE,
    applicant_email: 'olena.kowalenko@familie.example',
    lot_id: first.id,
    language: 'de',
  });
  // two families ask for the second lot and the staff approve one of them (the queue's states)
  const approved = await apply({
    applicant_name: 'Iryna Melnyk',
    applicant_phone: '+49 157 3456 7802',
    applicant_email: 'iryna.melnyk@familie.example',
    needs_delivery_help: true,
    lot_id: second.id,
    language: 'uk',
  });
  await apply({
    applicant_name: 'Andrii Bondarenko',
    applicant_phone: '+49 157 3456 7803',
    lot_id: second.id,
    language: 'uk',
  });
  await world.admin.call('PATCH', `/applications/${approved.id}/status`, {
    body: { status: 'approved' },
  });
  await world.admin.call('POST', '/wishes/', {
    body: {
      applicant_name: 'Oksana Hnatiuk',
      applicant_whatsapp: '+49 160 4567 8908',
      furniture_category: world.category(2).id,
      furniture_description: 'Дитяче ліжко для дворічної дитини, з матрацом.',
      language: 'uk',
    },
  });
}
