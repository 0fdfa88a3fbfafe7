import type { CategorySlugs } from '@furniture/contracts';

/**
 * The eight known categories (public-site §3), created on first start with their fixed ids.
 * Keyed by id; the slugs come from CategorySlugs.
 */
export const KNOWN_CATEGORIES: Record<
  keyof typeof CategorySlugs,
  { name: { de: string; uk: string }; description: { de: string; uk: string }; icon: string }
> = {
  1: {
    name: { de: 'Sofas & Sessel', uk: 'Дивани та крісла' },
    description: {
      de: 'Sofas, Sessel, Schlafsofas und Hocker für das Wohnzimmer.',
      uk: 'Дивани, крісла, дивани-ліжка та пуфи для вітальні.',
    },
    icon: '🛋️',
  },
  2: {
    name: { de: 'Betten & Matratzen', uk: 'Ліжка та матраци' },
    description: {
      de: 'Betten, Kinderbetten, Etagenbetten, Lattenroste und Matratzen.',
      uk: 'Ліжка, дитячі та двоярусні ліжка, ламелі й матраци.',
    },
    icon: '🛏️',
  },
  3: {
    name: { de: 'Tische & Stühle', uk: 'Столи та стільці' },
    description: {
      de: 'Esstische, Couchtische, Schreibtische und Stühle.',
      uk: 'Обідні, журнальні й письмові столи та стільці.',
    },
    icon: '🪑',
  },
  4: {
    name: { de: 'Schränke & Kommoden', uk: 'Шафи та комоди' },
    description: {
      de: 'Kleiderschränke, Kommoden, Regale und Nachttische.',
      uk: 'Шафи для одягу, комоди, стелажі та тумбочки.',
    },
    icon: '🗄️',
  },
  5: {
    name: { de: 'Küchenmöbel', uk: 'Кухонні меблі' },
    description: {
      de: 'Küchenschränke, Küchentische, Arbeitsplatten und Küchenzubehör.',
      uk: 'Кухонні шафи, столи, стільниці та кухонне приладдя.',
    },
    icon: '🍳',
  },
  6: {
    name: { de: 'Kindermöbel', uk: 'Дитячі меблі' },
    description: {
      de: 'Kinderbetten, Wickelkommoden, Kinderstühle und Spielmöbel.',
      uk: 'Дитячі ліжечка, сповивальні комоди, дитячі стільці та ігрові меблі.',
    },
    icon: '🧸',
  },
  7: {
    name: { de: 'Büromöbel', uk: 'Офісні меблі' },
    description: {
      de: 'Schreibtische, Bürostühle, Aktenschränke und Regale.',
      uk: 'Письмові столи, офісні крісла, шафи для документів і полиці.',
    },
    icon: '💼',
  },
  8: {
    name: { de: 'Deko & Accessoires', uk: 'Декор та аксесуари' },
    description: {
      de: 'Lampen, Spiegel, Teppiche, Vorhänge und andere Wohnaccessoires.',
      uk: 'Лампи, дзеркала, килими, штори та інші аксесуари для дому.',
    },
    icon: '🖼️',
  },
};
