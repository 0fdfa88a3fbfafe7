import {
  Archive,
  Baby,
  BedDouble,
  CookingPot,
  Flower2,
  Frame,
  Lamp,
  LampDesk,
  Package,
  Refrigerator,
  Shirt,
  Sofa,
  ToyBrick,
  Utensils,
  type LucideIcon,
} from 'lucide-react';
import { DEFAULT_CATEGORY_ICON } from '@furniture/contracts/enums';
import type { PublicCategory } from '../api/catalog-api';

/** The eight known categories (public-site §3). */
const BY_ID: Record<number, LucideIcon> = {
  1: Sofa, // sofas-chairs
  2: BedDouble, // beds-matresses
  3: Utensils, // tables-chairs
  4: Archive, // wardrobes-chests
  5: CookingPot, // kitchen-furniture
  6: Baby, // children-furniture
  7: LampDesk, // office-furniture
  8: Frame, // decor-accessories
};

/** Words in the German or Ukrainian name of a category that staff added later. */
const BY_KEYWORD: [RegExp, LucideIcon][] = [
  [/sofa|couch|sessel|polster|диван|крісл|софа/, Sofa],
  [/bett|matratze|ліжк|матрац/, BedDouble],
  [/tisch|stuhl|stühle|стіл|столи|стільц|стілець/, Utensils],
  [/schrank|kommode|regal|шаф|комод|стелаж|полиц/, Archive],
  [/küche|кухн/, CookingPot],
  [/kinder|baby|дитяч|діт/, Baby],
  [/büro|schreibtisch|офіс|письмов/, LampDesk],
  [/deko|accessoir|bilder|декор|аксесуар|картин/, Frame],
  [/lampe|leuchte|licht|ламп|світильн|освітл/, Lamp],
  [/kühlschrank|waschmaschine|haushaltsgerät|холодильн|пральн|побутов/, Refrigerator],
  [/textil|kleidung|gardine|текстил|одяг|штор/, Shirt],
  [/pflanze|garten|рослин|сад/, Flower2],
  [/spielzeug|іграшк/, ToyBrick],
];

export type CategoryIcon = { kind: 'icon'; Icon: LucideIcon } | { kind: 'emoji'; emoji: string };

/**
 * The icon of a category: the emoji staff picked (the eight known categories are seeded with
 * one, and staff may change it), else by id for the eight known ones (public-site §3, for a
 * category whose emoji was cleared to the default box), else by keywords in the names, else a
 * box. The stored choice comes first, so that both portals show what staff picked.
 */
export function categoryIcon(category: Pick<PublicCategory, 'id' | 'name' | 'icon'>): CategoryIcon {
  const emoji = category.icon.trim();
  if (emoji && emoji !== DEFAULT_CATEGORY_ICON) return { kind: 'emoji', emoji };
  const known = BY_ID[category.id];
  if (known) return { kind: 'icon', Icon: known };
  const names = `${category.name.de} ${category.name.uk}`.toLowerCase();
  const match = BY_KEYWORD.find(([pattern]) => pattern.test(names));
  return { kind: 'icon', Icon: match ? match[1] : Package };
}

/** An emoji as large as the icon it stands for (its box is `className`'s size). */
const EMOJI_SIZE: Record<string, string> = {
  'size-4': 'text-base',
  'size-5': 'text-lg',
  'size-6': 'text-xl',
  'size-7': 'text-2xl',
};

export function CategoryIconView({
  category,
  className = 'size-8',
}: {
  category: Pick<PublicCategory, 'id' | 'name' | 'icon'>;
  className?: string;
}) {
  const icon = categoryIcon(category);
  if (icon.kind === 'emoji') {
    return (
      <span aria-hidden="true" className={`${EMOJI_SIZE[className] ?? 'text-3xl'} leading-none`}>
        {icon.emoji}
      </span>
    );
  }
  const { Icon } = icon;
  return <Icon aria-hidden="true" className={className} />;
}
