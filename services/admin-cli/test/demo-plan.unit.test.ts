// What `npm run admin -- demo` decides before its first call (src/demo/plan.ts) and the photos it
// draws: the same seed gives the same data; any lot count the command takes holds every state;
// nothing breaks a rule the platform enforces (one application per family and lot, at most five
// open per phone); every phone number is a Drama Number; every text is in German and Ukrainian.
import sharp from 'sharp';
import {
  applicationCreateSchema,
  donationCreateSchema,
  Limits,
  lotCreateSchema,
  wishCreateSchema,
} from '@furniture/contracts';
import { PIECES } from '../src/demo/data';
import { renderPhoto } from '../src/demo/photos';
import { DEFAULT_LOTS, demoPlan, MAX_LOTS, MIN_LOTS } from '../src/demo/plan';

/** Berlin, Hamburg, Frankfurt am Main, Köln and München's blocks (Bundesnetzagentur). */
const DRAMA_NUMBER = /^(030 23125|040 66969|069 90009|0221 4710|089 99998) \d{3}$/;

test('when the plan is made twice with one seed, then it is the same, and another seed makes another', () => {
  const plan = demoPlan({ lots: DEFAULT_LOTS, seed: 7 });
  expect(demoPlan({ lots: DEFAULT_LOTS, seed: 7 })).toEqual(plan);
  expect(demoPlan({ lots: DEFAULT_LOTS, seed: 8 })).not.toEqual(plan);
});

test.each([MIN_LOTS, 10, DEFAULT_LOTS, MAX_LOTS])(
  'when the plan has %i lots, then it holds every state and keeps the platform’s rules',
  (lots) => {
    const plan = demoPlan({ lots, seed: 2026 });
    expect(plan.lots).toHaveLength(lots);
    const fates = new Set(plan.applications.map((a) => a.fate));
    for (const fate of ['pending', 'approved', 'outranked', 'completed'])
      expect(fates).toContain(fate);
    if (lots >= 7) expect(fates).toContain('rejected');
    expect(new Set(plan.wishes.map((w) => w.fate))).toEqual(
      new Set(['active', 'fulfilled', 'cancelled']),
    );
    expect(new Set(plan.donations.map((d) => d.fate))).toEqual(
      new Set(['submitted', 'accepted', 'declined', 'collected']),
    );

    const perLot = new Set(plan.applications.map((a) => `${a.lot}:${a.family}`));
    expect(perLot.size).toBe(plan.applications.length);
    const open = new Map<number, number>();
    for (const a of plan.applications) open.set(a.family, (open.get(a.family) ?? 0) + 1);
    expect(Math.max(...open.values())).toBeLessThanOrEqual(5);
    // one approval per lot
    const approvedLots = plan.applications
      .filter((a) => a.fate === 'approved' || a.fate === 'completed')
      .map((a) => a.lot);
    expect(new Set(approvedLots).size).toBe(approvedLots.length);

    const phones = [
      ...plan.families.map((f) => f.phone),
      ...plan.donations.map((d) => d.body.donor_phone),
    ];
    for (const phone of phones) expect(phone).toMatch(DRAMA_NUMBER);
    expect(new Set(phones).size).toBe(phones.length);
    for (const f of plan.families) {
      if (f.email) expect(f.email).toMatch(/@example\.(org|com|net)$/);
      expect(
        applicationCreateSchema.safeParse({
          applicant_name: f.name.typed,
          applicant_phone: f.phone,
          applicant_whatsapp: f.whatsapp,
          applicant_email: f.email,
          applicant_city: f.city,
          applicant_address: f.address,
          lot_id: 1,
        }).success,
      ).toBe(true);
    }
    for (const lot of plan.lots) {
      expect(lotCreateSchema.safeParse(lot.body).success).toBe(true);
      for (const text of [lot.body.name, lot.body.description, lot.body.detailed_description])
        expect(text.uk.length * text.de.length).toBeGreaterThan(0);
    }
    for (const w of plan.wishes)
      expect(
        wishCreateSchema.safeParse({
          applicant_name: plan.families[w.family]!.name.typed,
          applicant_whatsapp: plan.families[w.family]!.phone,
          furniture_category: w.category,
          furniture_description: w.description,
        }).success,
      ).toBe(true);
    for (const d of plan.donations)
      expect(
        donationCreateSchema.safeParse({ ...d.body, available_until: '2099-01-01' }).success,
      ).toBe(true);
  },
);

test('when a piece of every shape is drawn, then it is a JPEG the photo upload takes', async () => {
  const shapes = new Set(Object.values(PIECES).flatMap((pieces) => pieces.map((p) => p.shape)));
  for (const shape of shapes) {
    const jpeg = await renderPhoto({ shape, colour: '#2f4b7c', wall: '#eef2f3', variant: 1 });
    const meta = await sharp(jpeg).metadata();
    expect({ shape, format: meta.format }).toEqual({ shape, format: 'jpeg' });
    expect(meta.width).toBeGreaterThanOrEqual(Limits.photoMinWidth);
    expect(meta.height).toBeGreaterThanOrEqual(Limits.photoMinHeight);
    expect(jpeg.length).toBeLessThan(Limits.photoMaxBytes);
  }
  const a = await renderPhoto({ shape: 'sofa', colour: '#2f4b7c', wall: '#eef2f3', variant: 0 });
  const b = await renderPhoto({ shape: 'sofa', colour: '#2f4b7c', wall: '#eef2f3', variant: 0 });
  expect(a.equals(b)).toBe(true);
});
