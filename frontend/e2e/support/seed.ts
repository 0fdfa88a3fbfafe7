// What the page checks of pages.e2e.ts show, put on their platform through the API:
// the scenarios of platform.e2e.ts leave the same behind through the browser (family.ts,
// queue.ts, wish.ts), which takes minutes; the pages only need it to be there.
import { FAMILY_PHONE } from '../scenarios/family';
import { furnitureJpeg } from './photos';
import type { World } from './world';

/** A day `days` from today as YYYY-MM-DD (a donation's available-until day). */
export function dayAhead(days: number): string {
  const d = new Date(Date.now() + days * 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * A donor's offer through the public API, one photo per item given in `hues`; answers its id.
 * `accept`: staff accept it (its items can become lots).
 */
async function donate(
  world: World,
  donor: { name: string; phone: string; language: 'de' | 'uk'; public: boolean },
  items: { category: number; description: string; hues: number[] }[],
  accept = false,
): Promise<number> {
  const created = await world.admin.call<{
    id: number;
    items: { id: number }[];
    upload_token: string;
  }>('POST', '/donations/', {
    body: {
      donor_name: donor.name,
      donor_phone: donor.phone,
      language: donor.language,
      city: 'Leipzig',
      address: 'Ringweg 3',
      floor: 2,
      has_elevator: false,
      available_until: dayAhead(30),
      items: items.map((item) => ({
        category_id: item.category,
        description: item.description,
        dimensions: '200 × 90 × 85',
        condition: 'good',
        can_disassemble: true,
      })),
      donor_name_public: donor.public,
      consent: true,
    },
  });
  for (const [i, item] of items.entries()) {
    for (const hue of item.hues) {
      const form = new FormData();
      const jpeg = await furnitureJpeg('sofa', hue);
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `${hue}.jpg`);
      await world.admin.call(
        'POST',
        `/donations/${created.id}/items/${created.items[i]!.id}/photos`,
        {
          form,
          headers: { 'X-Donation-Token': created.upload_token },
        },
      );
    }
  }
  if (accept) {
    await world.admin.call('PATCH', `/donations/${created.id}/status`, {
      body: { status: 'accepted' },
    });
  }
  return created.id;
}

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
  // two donors' offers: one waiting for a decision (the accept and decline dialogs), one accepted
  // (its items' lot form)
  await donate(
    world,
    { name: 'Halyna Shevchenko', phone: '+49 157 3456 7810', language: 'uk', public: false },
    [
      { category: 1, description: 'Сірий диван-ліжко, розкладається, без плям.', hues: [200] },
      { category: 3, description: 'Kleiner Couchtisch aus Buche.', hues: [] },
    ],
  );
  await donate(
    world,
    { name: 'Jonas Weber', phone: '+49 157 3456 7811', language: 'de', public: true },
    [{ category: 4, description: 'Kleiderschrank, zwei Türen, mit Spiegel.', hues: [30, 60] }],
    true,
  );
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
