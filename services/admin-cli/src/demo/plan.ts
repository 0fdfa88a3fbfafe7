/**
 * What the demo creates, decided before the first call from a seed alone: the same seed and lot
 * count give the same lots, families, applications, wishes and donations (fill.ts sends them).
 */
import type { ItemCondition, Language } from '@furniture/contracts';
import {
  CITIES,
  COLOURS,
  CONDITIONS,
  DONATION_ITEMS,
  DONATION_NOTES,
  GERMAN_NAMES,
  NOTES,
  PIECES,
  UKRAINIAN_NAMES,
  WALLS,
  WISH_NOTES,
  WISHES,
  type City,
  type PersonName,
} from './data';
import type { PhotoSpec } from './photos';
import { Random } from './random';

export const DEFAULT_LOTS = 40;
export const DEFAULT_SEED = 2026;
/** at least one lot of each kind below; at most what the families can apply for */
export const MIN_LOTS = 5;
export const MAX_LOTS = 100;

export interface LotPlan {
  body: {
    name: { de: string; uk: string };
    description: { de: string; uk: string };
    detailed_description: { de: string; uk: string };
    category_id: number;
    status: 'available';
    dimensions: string;
    condition: ItemCondition;
    donor: string;
    location: string;
  };
  photos: PhotoSpec[];
}

export interface FamilyPlan {
  name: PersonName;
  language: Language;
  /** as the family typed it */
  phone: string;
  whatsapp: string | null;
  email: string | null;
  city: string;
  address: string;
  needs_delivery_help: boolean;
}

/**
 * What becomes of an application: left pending (`contacted`: with a staff member's contact
 * note), approved with a pickup date, `outranked` (rejected by the platform when another family
 * of the lot was approved), rejected by staff with a note, or completed.
 */
export type ApplicationFate =
  'pending' | 'contacted' | 'approved' | 'outranked' | 'rejected' | 'completed';

export interface ApplicationPlan {
  lot: number;
  family: number;
  fate: ApplicationFate;
  note: string | null;
  /** approved and completed: the pickup date, days from today */
  pickupInDays: number;
}

export interface WishPlan {
  family: number;
  category: number;
  description: string;
  fate: 'active' | 'fulfilled' | 'cancelled';
  note: string | null;
}

export interface DonationPlan {
  body: {
    donor_name: string;
    donor_phone: string;
    donor_email: string | null;
    language: Language;
    city: string;
    address: string;
    floor: number;
    has_elevator: boolean;
    items: {
      category_id: number;
      description: string;
      dimensions: string;
      condition: ItemCondition;
      can_disassemble: boolean;
    }[];
    donor_name_public: boolean;
    consent: true;
  };
  availableInDays: number;
  photos: PhotoSpec[];
  fate: 'submitted' | 'accepted' | 'declined' | 'collected';
  /** the internal note, or a decline's reason */
  note: string;
}

export interface DemoPlan {
  lots: LotPlan[];
  families: FamilyPlan[];
  applications: ApplicationPlan[];
  wishes: WishPlan[];
  donations: DonationPlan[];
  volunteer: { name: string; email: string; role: 'volunteer'; password: string };
}

/** The applications of one lot, by the lot's place in a run of ten. */
const LOT_ROLES: ApplicationFate[][] = [
  ['contacted', 'pending', 'pending'],
  [],
  ['approved', 'outranked'],
  ['pending', 'pending'],
  ['completed'],
  [],
  ['pending', 'rejected', 'pending'],
  [],
  ['approved'],
  [],
];
const WISH_FATES: WishPlan['fate'][] = ['active', 'fulfilled', 'cancelled', 'active', 'fulfilled'];
const DONATION_FATES: DonationPlan['fate'][] = [
  'submitted',
  'accepted',
  'declined',
  'collected',
  'collected',
];

const ASCII: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ı: 'i' };
const EMAIL_DOMAINS = ['example.org', 'example.com', 'example.net'];

function emailOf(name: PersonName, rng: Random): string {
  const local = name.latin
    .toLowerCase()
    .replace(/[äöüßı]/g, (ch) => ASCII[ch]!)
    .replace(/[^a-z]+/g, '.');
  return `${local}@${rng.pick(EMAIL_DOMAINS)}`;
}

/** A Drama Number of the city: its block's number `n` (0..999). */
function phoneOf(city: City, n: number): string {
  return `${city.prefix}${String(n).padStart(3, '0')}`;
}

/** The same number as a family types it for WhatsApp: international. */
function international(phone: string): string {
  return `+49 ${phone.slice(1)}`;
}

function address(city: City, rng: Random): string {
  if (rng.chance(0.1))
    return `Gemeinschaftsunterkunft, ${rng.pick(city.streets)} ${rng.int(2, 90)}`;
  return `${rng.pick(city.streets)} ${rng.int(1, 180)}${rng.chance(0.15) ? rng.pick(['a', 'b']) : ''}`;
}

const scaled = (lots: number, min: number) => Math.max(min, Math.round((lots * 5) / DEFAULT_LOTS));

export function demoPlan(opts: { lots: number; seed: number }): DemoPlan {
  const { lots: lotCount } = opts;
  if (!Number.isInteger(lotCount) || lotCount < MIN_LOTS || lotCount > MAX_LOTS)
    throw new RangeError(`lots: ${MIN_LOTS} to ${MAX_LOTS}`);
  const rng = new Random(opts.seed);

  // --- lots: the categories in turn, each piece once before any repeats
  const decks = new Map<number, number[]>();
  const lots: LotPlan[] = [];
  for (let i = 0; i < lotCount; i++) {
    const category = (i % 8) + 1;
    if (!decks.get(category)?.length) decks.set(category, rng.shuffle([0, 1, 2, 3, 4, 5]));
    const round = Math.floor(i / 48);
    const piece = PIECES[category]![decks.get(category)!.pop()!]!;
    const colour = rng.pick(COLOURS);
    const city = rng.pick(CITIES);
    const suffix = round > 0 ? ` (${round + 1})` : '';
    const photos: PhotoSpec[] = [
      { shape: piece.shape, colour: colour.hex, wall: rng.pick(WALLS), variant: 0 },
    ];
    if (rng.chance(0.4))
      photos.push({ shape: piece.shape, colour: colour.hex, wall: rng.pick(WALLS), variant: 1 });
    lots.push({
      body: {
        name: { de: `${piece.name.de}${suffix}`, uk: `${piece.name.uk}${suffix}` },
        description: piece.description,
        detailed_description: {
          de: `${piece.description.de} Farbe: ${colour.de}. Abholung nach Absprache in unserem Lager in ${city.name}; beim Tragen helfen Freiwillige.`,
          uk: `${piece.description.uk} Колір: ${colour.uk}. Забрати можна за домовленістю з нашого складу ${city.ukIn}; винести допоможуть волонтери.`,
        },
        category_id: category,
        status: 'available',
        dimensions: piece.dimensions,
        condition: rng.pick(CONDITIONS),
        donor: rng.chance(0.6) ? 'anonym' : `Familie ${rng.pick(GERMAN_NAMES).latin.split(' ')[1]}`,
        location: city.storage,
      },
      photos,
    });
  }

  // --- applications: the lot's role says how many and what becomes of them
  const roles = lots.map((_, i) => LOT_ROLES[i % LOT_ROLES.length]!);
  const applicationCount = roles.reduce((n, r) => n + r.length, 0);

  // --- families: three of four Ukrainian; two applications each on average
  const familyCount = Math.min(
    UKRAINIAN_NAMES.length + GERMAN_NAMES.length,
    Math.max(6, Math.ceil(applicationCount / 2)),
  );
  const ukrainians = rng.shuffle(UKRAINIAN_NAMES);
  const germans = rng.shuffle(GERMAN_NAMES);
  const families: FamilyPlan[] = [];
  for (let i = 0; i < familyCount; i++) {
    const german = (i % 4 === 3 && germans.length > 0) || ukrainians.length === 0;
    const name = german ? germans.pop()! : ukrainians.pop()!;
    const city = rng.pick(CITIES);
    const phone = phoneOf(city, 100 + i);
    const typedCyrillic = name.typed !== name.latin;
    families.push({
      name,
      language: german ? 'de' : typedCyrillic || rng.chance(0.7) ? 'uk' : 'de',
      phone,
      whatsapp: german && rng.chance(0.5) ? null : international(phone),
      email: rng.chance(0.6) ? emailOf(name, rng) : null,
      city: city.name,
      address: address(city, rng),
      needs_delivery_help: rng.chance(0.3),
    });
  }
  // a lot's families follow each other in a shuffled order: never one family twice on a lot
  const order = rng.shuffle(families.map((_, i) => i));
  const applications: ApplicationPlan[] = [];
  roles.forEach((fates, lot) => {
    for (const fate of fates) {
      const note =
        fate === 'rejected'
          ? rng.pick(NOTES.rejected)
          : fate === 'contacted'
            ? rng.pick(NOTES.contact)
            : fate === 'approved'
              ? rng.pick(NOTES.approved)
              : fate === 'completed'
                ? rng.pick(NOTES.completed)
                : null;
      applications.push({
        lot,
        family: order[applications.length % order.length]!,
        fate,
        note,
        pickupInDays: rng.int(3, 10),
      });
    }
  });

  // --- wishes, from families and from people who did not apply
  const wishes: WishPlan[] = [];
  const wishTexts = rng.shuffle(WISHES);
  for (let i = 0; i < scaled(lotCount, 3); i++) {
    const family = order[(order.length - 1 - i + order.length) % order.length]!;
    const text = wishTexts[i % wishTexts.length]!;
    const fate = WISH_FATES[i % WISH_FATES.length]!;
    wishes.push({
      family,
      category: text.category,
      description: families[family]!.language === 'uk' ? text.uk : text.de,
      fate,
      note: fate === 'active' ? null : rng.pick(WISH_NOTES[fate]),
    });
  }

  // --- donations: people who did not apply, mostly German neighbours (the names again when
  // the families took them all)
  const donations: DonationPlan[] = [];
  const donors = [...germans, ...ukrainians];
  if (donors.length < 4) donors.push(...rng.shuffle(GERMAN_NAMES));
  const itemTexts = rng.shuffle(DONATION_ITEMS);
  for (let i = 0; i < scaled(lotCount, 4); i++) {
    const donor = donors[i % donors.length]!;
    const language: Language = GERMAN_NAMES.includes(donor) ? 'de' : 'uk';
    const city = rng.pick(CITIES);
    const texts = [itemTexts[(2 * i) % itemTexts.length]!];
    if (rng.chance(0.25)) texts.push(itemTexts[(2 * i + 1) % itemTexts.length]!);
    const fate = DONATION_FATES[i % DONATION_FATES.length]!;
    const floor = rng.int(0, 5);
    donations.push({
      body: {
        donor_name: donor.typed,
        donor_phone: phoneOf(city, 600 + i),
        donor_email: rng.chance(0.8) ? emailOf(donor, rng) : null,
        language,
        city: city.name,
        address: address(city, rng),
        floor,
        has_elevator: floor > 2 && rng.chance(0.6),
        items: texts.map((t) => ({
          category_id: t.category,
          description: language === 'uk' ? t.uk : t.de,
          dimensions: t.dimensions,
          condition: rng.pick(CONDITIONS),
          can_disassemble: rng.chance(0.5),
        })),
        donor_name_public: rng.chance(0.5),
        consent: true,
      },
      availableInDays: rng.int(10, 30),
      photos: texts.map((t) => ({
        shape: t.shape,
        colour: rng.pick(COLOURS).hex,
        wall: rng.pick(WALLS),
        variant: rng.chance(0.5) ? 1 : 0,
      })),
      fate,
      note: rng.pick(
        fate === 'declined'
          ? DONATION_NOTES.declined
          : fate === 'collected'
            ? DONATION_NOTES.collected
            : DONATION_NOTES.accepted,
      ),
    });
  }

  return {
    lots,
    families,
    applications,
    wishes,
    donations,
    volunteer: {
      name: 'Lena Vogel',
      email: 'lena.vogel@example.org',
      role: 'volunteer',
      password: 'Lindenblüte-Kommode-2026',
    },
  };
}
