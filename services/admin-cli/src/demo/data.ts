/**
 * The material of the demo data: furniture by category in German and Ukrainian, colours, cities
 * with streets and their fictional phone numbers, family and donor names, and what staff write.
 * Everything here is invented; the phone numbers are the Bundesnetzagentur's numbers for media
 * productions ("Drama Numbers", Amtsblatt 7/2021, Mitteilung 148/2021), which are never given to
 * anyone: 1000 numbers in each of five local networks.
 */
import type { ItemCondition } from '@furniture/contracts';

export type Shape =
  | 'sofa'
  | 'armchair'
  | 'bed'
  | 'bunk'
  | 'mattress'
  | 'table'
  | 'chairs'
  | 'wardrobe'
  | 'chest'
  | 'shelf'
  | 'kitchen'
  | 'crib'
  | 'highchair'
  | 'desk'
  | 'officechair'
  | 'lamp'
  | 'mirror'
  | 'rug';

export interface Piece {
  name: { de: string; uk: string };
  description: { de: string; uk: string };
  dimensions: string;
  shape: Shape;
}

/** Six pieces per known category (ids 1..8). */
export const PIECES: Record<number, Piece[]> = {
  1: [
    {
      name: { de: 'Ecksofa mit Schlaffunktion', uk: 'Кутовий диван з функцією сну' },
      description: {
        de: 'Bequemes Ecksofa, ausziehbar zum Gästebett. Bezug abnehmbar und frisch gewaschen.',
        uk: 'Зручний кутовий диван, розкладається в ліжко для гостей. Чохол знімний і щойно випраний.',
      },
      dimensions: '250 × 160 × 85 cm',
      shape: 'sofa',
    },
    {
      name: { de: 'Dreisitzer-Sofa', uk: 'Тримісний диван' },
      description: {
        de: 'Stabiles Sofa für drei Personen, ohne Flecken, aus einem Nichtraucherhaushalt.',
        uk: 'Міцний диван на трьох, без плям, з помешкання, де не курять.',
      },
      dimensions: '210 × 90 × 80 cm',
      shape: 'sofa',
    },
    {
      name: { de: 'Zweisitzer-Sofa', uk: 'Двомісний диван' },
      description: {
        de: 'Kompaktes Sofa, passt auch in eine kleine Wohnung.',
        uk: 'Компактний диван, підійде й для невеликої квартири.',
      },
      dimensions: '160 × 85 × 78 cm',
      shape: 'sofa',
    },
    {
      name: { de: 'Ohrensessel', uk: 'Крісло з високою спинкою' },
      description: {
        de: 'Gemütlicher Sessel mit hoher Rückenlehne, ideal zum Lesen.',
        uk: 'Затишне крісло з високою спинкою, ідеальне для читання.',
      },
      dimensions: '80 × 85 × 105 cm',
      shape: 'armchair',
    },
    {
      name: { de: 'Schlafsessel', uk: 'Крісло-ліжко' },
      description: {
        de: 'Sessel mit Bettfunktion, gut für ein Kinder- oder Gästezimmer.',
        uk: 'Крісло, що розкладається в ліжко, добре для дитячої чи гостьової кімнати.',
      },
      dimensions: '90 × 95 × 80 cm',
      shape: 'armchair',
    },
    {
      name: { de: 'Sessel mit Holzfüßen', uk: "Крісло на дерев'яних ніжках" },
      description: {
        de: 'Leichter Polstersessel im skandinavischen Stil.',
        uk: 'Легке м’яке крісло у скандинавському стилі.',
      },
      dimensions: '70 × 75 × 82 cm',
      shape: 'armchair',
    },
  ],
  2: [
    {
      name: { de: 'Doppelbett mit Lattenrost', uk: 'Двоспальне ліжко з ламелями' },
      description: {
        de: 'Massives Holzbett für eine Matratze 140 × 200 cm, Lattenrost dabei.',
        uk: "Масивне дерев'яне ліжко під матрац 140 × 200 см, ламелі в комплекті.",
      },
      dimensions: '145 × 210 × 90 cm',
      shape: 'bed',
    },
    {
      name: { de: 'Einzelbett', uk: 'Односпальне ліжко' },
      description: {
        de: 'Schlichtes Bett für eine Matratze 90 × 200 cm, schnell aufgebaut.',
        uk: 'Просте ліжко під матрац 90 × 200 см, швидко збирається.',
      },
      dimensions: '95 × 205 × 80 cm',
      shape: 'bed',
    },
    {
      name: { de: 'Etagenbett', uk: 'Двоярусне ліжко' },
      description: {
        de: 'Für zwei Kinder, mit Leiter und Rausfallschutz, ohne Matratzen.',
        uk: 'Для двох дітей, з драбинкою та бортиком, без матраців.',
      },
      dimensions: '98 × 208 × 160 cm',
      shape: 'bunk',
    },
    {
      name: { de: 'Boxspringbett', uk: 'Ліжко боксспрінг' },
      description: {
        de: 'Bequemes Boxspringbett mit Topper, 160 × 200 cm.',
        uk: 'Зручне ліжко боксспрінг з топером, 160 × 200 см.',
      },
      dimensions: '165 × 210 × 115 cm',
      shape: 'bed',
    },
    {
      name: { de: 'Kaltschaummatratze 90 × 200', uk: 'Матрац із холодної піни 90 × 200' },
      description: {
        de: 'Mittelfest, mit waschbarem Bezug, kaum benutzt.',
        uk: 'Середньої жорсткості, чохол можна прати, майже не використовувався.',
      },
      dimensions: '90 × 200 × 18 cm',
      shape: 'mattress',
    },
    {
      name: { de: 'Tagesbett mit Bettkasten', uk: 'Кушетка з ящиком для білизни' },
      description: {
        de: 'Tagsüber Sofa, nachts Bett; im Kasten ist Platz für Bettzeug.',
        uk: 'Удень диван, уночі ліжко; у ящику є місце для постільної білизни.',
      },
      dimensions: '95 × 205 × 75 cm',
      shape: 'bed',
    },
  ],
  3: [
    {
      name: { de: 'Esstisch mit vier Stühlen', uk: 'Обідній стіл із чотирма стільцями' },
      description: {
        de: 'Esstisch aus Eiche mit vier passenden Stühlen.',
        uk: 'Дубовий обідній стіл із чотирма стільцями в комплекті.',
      },
      dimensions: '160 × 90 × 75 cm',
      shape: 'table',
    },
    {
      name: { de: 'Ausziehbarer Esstisch', uk: 'Розкладний обідній стіл' },
      description: {
        de: 'Für vier Personen, ausgezogen für acht.',
        uk: 'На чотирьох осіб, у розкладеному вигляді на вісім.',
      },
      dimensions: '140 (190) × 85 × 76 cm',
      shape: 'table',
    },
    {
      name: { de: 'Couchtisch', uk: 'Журнальний столик' },
      description: {
        de: 'Niedriger Tisch mit Ablage darunter.',
        uk: 'Низький столик із поличкою внизу.',
      },
      dimensions: '110 × 60 × 45 cm',
      shape: 'table',
    },
    {
      name: { de: 'Küchentisch mit zwei Stühlen', uk: 'Кухонний стіл із двома стільцями' },
      description: {
        de: 'Kleiner Tisch für die Küche, abwischbare Platte.',
        uk: 'Невеликий кухонний стіл зі стільницею, яку легко протирати.',
      },
      dimensions: '90 × 60 × 75 cm',
      shape: 'table',
    },
    {
      name: { de: 'Vier Stühle', uk: 'Чотири стільці' },
      description: {
        de: 'Vier stabile Holzstühle, einer mit kleinem Kratzer.',
        uk: "Чотири міцні дерев'яні стільці, на одному невелика подряпина.",
      },
      dimensions: '45 × 50 × 90 cm',
      shape: 'chairs',
    },
    {
      name: { de: 'Runder Bistrotisch', uk: 'Круглий столик-бістро' },
      description: {
        de: 'Runder Tisch für den Balkon oder eine kleine Küche.',
        uk: 'Круглий столик для балкона або маленької кухні.',
      },
      dimensions: 'Ø 70 × 74 cm',
      shape: 'table',
    },
  ],
  4: [
    {
      name: { de: 'Kleiderschrank, zweitürig', uk: 'Дводверна шафа для одягу' },
      description: {
        de: 'Geräumiger Schrank mit Kleiderstange und Fächern.',
        uk: 'Містка шафа зі штангою для одягу та полицями.',
      },
      dimensions: '100 × 58 × 195 cm',
      shape: 'wardrobe',
    },
    {
      name: { de: 'Kleiderschrank mit Spiegel', uk: 'Шафа для одягу з дзеркалом' },
      description: {
        de: 'Dreitüriger Schrank, die mittlere Tür mit Spiegel.',
        uk: 'Тридверна шафа, середні дверцята з дзеркалом.',
      },
      dimensions: '150 × 58 × 210 cm',
      shape: 'wardrobe',
    },
    {
      name: { de: 'Kommode mit vier Schubladen', uk: 'Комод із чотирма шухлядами' },
      description: {
        de: 'Alle Schubladen laufen leicht.',
        uk: 'Усі шухляди висуваються легко.',
      },
      dimensions: '80 × 45 × 95 cm',
      shape: 'chest',
    },
    {
      name: { de: 'Bücherregal', uk: 'Книжкова полиця' },
      description: {
        de: 'Hohes Regal mit fünf Böden, an der Wand zu befestigen.',
        uk: "Висока полиця з п'ятьма ярусами, кріпиться до стіни.",
      },
      dimensions: '80 × 30 × 200 cm',
      shape: 'shelf',
    },
    {
      name: { de: 'Schuhschrank', uk: 'Шафа для взуття' },
      description: {
        de: 'Schmaler Schrank für den Flur, Platz für etwa 15 Paar Schuhe.',
        uk: 'Вузька шафа для передпокою, вміщує близько 15 пар взуття.',
      },
      dimensions: '70 × 25 × 105 cm',
      shape: 'chest',
    },
    {
      name: { de: 'Zwei Nachttische', uk: 'Дві приліжкові тумбочки' },
      description: {
        de: 'Zwei gleiche Nachttische mit je einer Schublade.',
        uk: 'Дві однакові тумбочки, кожна з однією шухлядою.',
      },
      dimensions: '45 × 35 × 50 cm',
      shape: 'chest',
    },
  ],
  5: [
    {
      name: { de: 'Küchenzeile ohne Geräte', uk: 'Кухонний гарнітур без техніки' },
      description: {
        de: 'Ober- und Unterschränke mit Arbeitsplatte, Spüle dabei.',
        uk: 'Верхні й нижні шафи зі стільницею, мийка в комплекті.',
      },
      dimensions: '240 × 60 × 210 cm',
      shape: 'kitchen',
    },
    {
      name: { de: 'Hängeschrank für die Küche', uk: 'Навісна кухонна шафа' },
      description: {
        de: 'Zwei Türen, innen ein verstellbarer Boden.',
        uk: 'Двоє дверцят, усередині регульована полиця.',
      },
      dimensions: '80 × 35 × 70 cm',
      shape: 'kitchen',
    },
    {
      name: { de: 'Unterschrank mit Arbeitsplatte', uk: 'Нижня шафа зі стільницею' },
      description: {
        de: 'Eine Schublade und ein Fach, die Platte ist neu.',
        uk: 'Одна шухляда та одна полиця, стільниця нова.',
      },
      dimensions: '60 × 60 × 90 cm',
      shape: 'kitchen',
    },
    {
      name: { de: 'Küchenbuffet', uk: 'Кухонний буфет' },
      description: {
        de: 'Altes, gut erhaltenes Buffet mit Glastüren oben.',
        uk: 'Старий, добре збережений буфет зі скляними дверцятами вгорі.',
      },
      dimensions: '110 × 45 × 190 cm',
      shape: 'kitchen',
    },
    {
      name: { de: 'Servierwagen', uk: 'Сервірувальний візок' },
      description: {
        de: 'Wagen mit drei Ablagen und Rollen.',
        uk: 'Візок на коліщатах із трьома полицями.',
      },
      dimensions: '60 × 40 × 80 cm',
      shape: 'shelf',
    },
    {
      name: { de: 'Küchenregal', uk: 'Кухонний стелаж' },
      description: {
        de: 'Offenes Regal für Vorräte und Geschirr.',
        uk: 'Відкритий стелаж для продуктів і посуду.',
      },
      dimensions: '90 × 40 × 180 cm',
      shape: 'shelf',
    },
  ],
  6: [
    {
      name: { de: 'Gitterbett mit Matratze', uk: 'Дитяче ліжечко з матрацом' },
      description: {
        de: 'Babybett 60 × 120 cm, Lattenrost in zwei Höhen, Matratze neu.',
        uk: 'Ліжечко 60 × 120 см, дно регулюється на дві висоти, матрац новий.',
      },
      dimensions: '66 × 126 × 90 cm',
      shape: 'crib',
    },
    {
      name: { de: 'Wickelkommode', uk: 'Сповивальний комод' },
      description: {
        de: 'Kommode mit Wickelaufsatz und drei Schubladen.',
        uk: 'Комод зі сповивальною дошкою та трьома шухлядами.',
      },
      dimensions: '90 × 75 × 95 cm',
      shape: 'chest',
    },
    {
      name: { de: 'Hochstuhl', uk: 'Стільчик для годування' },
      description: {
        de: 'Mitwachsender Hochstuhl aus Holz mit Bügel.',
        uk: "Дерев'яний стільчик для годування, «росте» разом із дитиною.",
      },
      dimensions: '45 × 50 × 80 cm',
      shape: 'highchair',
    },
    {
      name: { de: 'Kinderschreibtisch', uk: 'Дитячий письмовий стіл' },
      description: {
        de: 'Höhenverstellbar, für Schulkinder.',
        uk: 'З регулюванням висоти, для школярів.',
      },
      dimensions: '100 × 60 × 55–75 cm',
      shape: 'desk',
    },
    {
      name: { de: 'Spielzeugregal', uk: 'Полиця для іграшок' },
      description: {
        de: 'Niedriges Regal mit sechs Fächern.',
        uk: 'Низька полиця із шістьма секціями.',
      },
      dimensions: '100 × 30 × 70 cm',
      shape: 'shelf',
    },
    {
      name: { de: 'Kinderbett 70 × 140', uk: 'Дитяче ліжко 70 × 140' },
      description: {
        de: 'Für Kinder ab zwei Jahren, mit Rausfallschutz.',
        uk: 'Для дітей від двох років, із захисним бортиком.',
      },
      dimensions: '76 × 146 × 60 cm',
      shape: 'crib',
    },
  ],
  7: [
    {
      name: { de: 'Schreibtisch', uk: 'Письмовий стіл' },
      description: {
        de: 'Schlichter Schreibtisch mit Kabeldurchlass.',
        uk: 'Простий письмовий стіл з отвором для кабелів.',
      },
      dimensions: '120 × 60 × 74 cm',
      shape: 'desk',
    },
    {
      name: { de: 'Höhenverstellbarer Schreibtisch', uk: 'Стіл із регулюванням висоти' },
      description: {
        de: 'Elektrisch verstellbar, für Sitzen und Stehen.',
        uk: 'Електричне регулювання, можна працювати сидячи і стоячи.',
      },
      dimensions: '140 × 70 × 70–120 cm',
      shape: 'desk',
    },
    {
      name: { de: 'Bürostuhl', uk: 'Офісне крісло' },
      description: {
        de: 'Drehstuhl mit Armlehnen, Höhe verstellbar.',
        uk: 'Обертове крісло з підлокітниками, висота регулюється.',
      },
      dimensions: '65 × 65 × 110 cm',
      shape: 'officechair',
    },
    {
      name: { de: 'Rollcontainer', uk: 'Тумба на коліщатах' },
      description: {
        de: 'Drei Schubladen, die obere abschließbar, Schlüssel dabei.',
        uk: 'Три шухляди, верхня замикається, ключ є.',
      },
      dimensions: '42 × 55 × 60 cm',
      shape: 'chest',
    },
    {
      name: { de: 'Aktenschrank', uk: 'Шафа для документів' },
      description: {
        de: 'Abschließbarer Schrank mit vier Böden.',
        uk: 'Шафа із замком і чотирма полицями.',
      },
      dimensions: '80 × 40 × 150 cm',
      shape: 'wardrobe',
    },
    {
      name: { de: 'Eckschreibtisch', uk: 'Кутовий письмовий стіл' },
      description: {
        de: 'Viel Platz für Computer und Hausaufgaben.',
        uk: "Багато місця для комп'ютера та домашніх завдань.",
      },
      dimensions: '150 × 120 × 75 cm',
      shape: 'desk',
    },
  ],
  8: [
    {
      name: { de: 'Stehlampe', uk: 'Торшер' },
      description: {
        de: 'Stehlampe mit Stoffschirm, warmes Licht.',
        uk: 'Торшер із тканинним абажуром, тепле світло.',
      },
      dimensions: 'Ø 40 × 160 cm',
      shape: 'lamp',
    },
    {
      name: { de: 'Wandspiegel', uk: 'Настінне дзеркало' },
      description: {
        de: 'Großer Spiegel mit Holzrahmen.',
        uk: "Велике дзеркало в дерев'яній рамі.",
      },
      dimensions: '60 × 3 × 120 cm',
      shape: 'mirror',
    },
    {
      name: { de: 'Teppich 160 × 230', uk: 'Килим 160 × 230' },
      description: {
        de: 'Kurzflor, gereinigt, für das Wohnzimmer.',
        uk: 'З коротким ворсом, почищений, для вітальні.',
      },
      dimensions: '160 × 230 cm',
      shape: 'rug',
    },
    {
      name: { de: 'Tischlampe', uk: 'Настільна лампа' },
      description: {
        de: 'Kleine Lampe für Schreibtisch oder Nachttisch.',
        uk: 'Невелика лампа для письмового столу чи тумбочки.',
      },
      dimensions: 'Ø 25 × 45 cm',
      shape: 'lamp',
    },
    {
      name: { de: 'Garderobenspiegel', uk: 'Дзеркало для передпокою' },
      description: {
        de: 'Spiegel mit Ablage und drei Haken.',
        uk: 'Дзеркало з поличкою та трьома гачками.',
      },
      dimensions: '50 × 15 × 90 cm',
      shape: 'mirror',
    },
    {
      name: { de: 'Läufer für den Flur', uk: 'Доріжка для передпокою' },
      description: {
        de: 'Rutschfester Läufer, waschbar.',
        uk: 'Нековзна доріжка, можна прати.',
      },
      dimensions: '80 × 250 cm',
      shape: 'rug',
    },
  ],
};

/** A colour of the photo and its name in the detailed description. */
export interface Colour {
  hex: string;
  de: string;
  uk: string;
}

export const COLOURS: Colour[] = [
  { hex: '#8a8f98', de: 'Grau', uk: 'сірий' },
  { hex: '#2f4b7c', de: 'Dunkelblau', uk: 'темно-синій' },
  { hex: '#d8c3a5', de: 'Beige', uk: 'бежевий' },
  { hex: '#3f6b4f', de: 'Dunkelgrün', uk: 'темно-зелений' },
  { hex: '#c0674a', de: 'Terrakotta', uk: 'теракотовий' },
  { hex: '#d9a441', de: 'Senfgelb', uk: 'гірчичний' },
  { hex: '#7b2d3b', de: 'Weinrot', uk: 'бордовий' },
  { hex: '#c89f6d', de: 'Eiche hell', uk: 'світлий дуб' },
  { hex: '#6b4a33', de: 'Nussbaum', uk: 'горіх' },
  { hex: '#f2f0ea', de: 'Weiß', uk: 'білий' },
  { hex: '#3b3f45', de: 'Anthrazit', uk: 'антрацит' },
  { hex: '#d7a9a6', de: 'Altrosa', uk: 'пудрово-рожевий' },
];

/** Soft wall colours of the photos. */
export const WALLS = ['#eef2f3', '#f4efe6', '#e9f0e6', '#f3e9ec', '#e8edf5', '#f5f1e1'];

export const CONDITIONS: ItemCondition[] = ['like_new', 'very_good', 'very_good', 'good', 'good'];

/**
 * A city, its streets and its block of Drama Numbers: `prefix` + three digits is a number the
 * Bundesnetzagentur never assigns (Berlin 030 23125 000–999, Hamburg 040 66969 …, Frankfurt am
 * Main 069 90009 …, Köln 0221 4710 …, München 089 99998 …).
 */
export interface City {
  name: string;
  /** "in <city>" in Ukrainian */
  ukIn: string;
  /** the storage of the charity in this city (a lot's location) */
  storage: string;
  prefix: string;
  streets: string[];
}

export const CITIES: City[] = [
  {
    name: 'Berlin',
    ukIn: 'у Берліні',
    storage: 'Lager Berlin-Neukölln',
    prefix: '030 23125 ',
    streets: [
      'Sonnenallee',
      'Karl-Marx-Straße',
      'Hermannstraße',
      'Frankfurter Allee',
      'Greifswalder Straße',
    ],
  },
  {
    name: 'Hamburg',
    ukIn: 'у Гамбурзі',
    storage: 'Lager Hamburg-Wandsbek',
    prefix: '040 66969 ',
    streets: ['Wandsbeker Chaussee', 'Osterstraße', 'Fuhlsbüttler Straße', 'Max-Brauer-Allee'],
  },
  {
    name: 'Frankfurt am Main',
    ukIn: 'у Франкфурті-на-Майні',
    storage: 'Lager Frankfurt-Bockenheim',
    prefix: '069 90009 ',
    streets: [
      'Berger Straße',
      'Leipziger Straße',
      'Mainzer Landstraße',
      'Eschersheimer Landstraße',
    ],
  },
  {
    name: 'Köln',
    ukIn: 'у Кельні',
    storage: 'Lager Köln-Ehrenfeld',
    prefix: '0221 4710 ',
    streets: ['Venloer Straße', 'Aachener Straße', 'Neusser Straße', 'Severinstraße'],
  },
  {
    name: 'München',
    ukIn: 'у Мюнхені',
    storage: 'Lager München-Giesing',
    prefix: '089 99998 ',
    streets: ['Leopoldstraße', 'Lindwurmstraße', 'Rosenheimer Straße', 'Schleißheimer Straße'],
  },
];

/** A person's name as they type it (Cyrillic or Latin) and in Latin letters (for an address). */
export interface PersonName {
  typed: string;
  latin: string;
}

const uk = (typed: string, latin: string): PersonName => ({ typed, latin });
const de = (name: string): PersonName => ({ typed: name, latin: name });

/** Ukrainian families (some type their name in Cyrillic, some in Latin letters). */
export const UKRAINIAN_NAMES: PersonName[] = [
  uk('Олена Коваленко', 'Olena Kovalenko'),
  uk('Oksana Shevchenko', 'Oksana Shevchenko'),
  uk('Ірина Бондаренко', 'Iryna Bondarenko'),
  uk('Наталія Ткаченко', 'Nataliia Tkachenko'),
  uk('Tetiana Kravchenko', 'Tetiana Kravchenko'),
  uk('Світлана Мельник', 'Svitlana Melnyk'),
  uk('Юлія Бойко', 'Yuliia Boiko'),
  uk('Kateryna Koval', 'Kateryna Koval'),
  uk('Галина Олійник', 'Halyna Oliinyk'),
  uk('Марія Лисенко', 'Mariia Lysenko'),
  uk('Андрій Марченко', 'Andrii Marchenko'),
  uk('Serhii Savchenko', 'Serhii Savchenko'),
  uk('Дмитро Руденко', 'Dmytro Rudenko'),
  uk('Вікторія Мороз', 'Viktoriia Moroz'),
  uk('Taras Petrenko', 'Taras Petrenko'),
  uk('Анастасія Гнатюк', 'Anastasiia Hnatiuk'),
  uk('Богдан Кузьменко', 'Bohdan Kuzmenko'),
  uk('Людмила Павленко', 'Liudmyla Pavlenko'),
];

/** German families and most donors. */
export const GERMAN_NAMES: PersonName[] = [
  de('Sabine Krüger'),
  de('Thomas Wagner'),
  de('Anna Schulz'),
  de('Jens Hoffmann'),
  de('Petra Neumann'),
  de('Aylin Demir'),
  de('Michael Becker'),
  de('Claudia Richter'),
  de('Lukas Braun'),
  de('Monika Zimmermann'),
  de('Stefan Hartmann'),
  de('Julia Lange'),
];

/** Staff's notes: the reason of a rejection, a contact, a completion. */
export const NOTES = {
  rejected: [
    'Familie hat inzwischen ein anderes Möbelstück gefunden.',
    'Abholung nicht möglich: kein Transport vorhanden, Lieferung passt nicht in die Tour.',
    'Родина повідомила, що вже не потребує.',
    'Doppelte Anfrage, die andere bleibt bestehen.',
  ],
  contact: [
    'Telefonisch erreicht, Familie kann samstags abholen.',
    'WhatsApp geschrieben, Antwort steht noch aus.',
    'Написали у WhatsApp, родина підтвердила інтерес.',
    'Rückruf vereinbart, Dolmetscherin hilft.',
  ],
  approved: [
    'Abholung mit eigenem Transporter.',
    'Freiwillige helfen beim Tragen.',
    'Забере син, має авто.',
  ],
  completed: ['Abgeholt, Familie sehr dankbar.', 'Geliefert und aufgebaut.', 'Передано родині.'],
};

export interface WishText {
  category: number;
  de: string;
  uk: string;
}

export const WISHES: WishText[] = [
  {
    category: 2,
    de: 'Ein Kinderbett mit Matratze für unsere Tochter (4 Jahre).',
    uk: 'Дитяче ліжко з матрацом для доньки (4 роки).',
  },
  {
    category: 4,
    de: 'Ein Kleiderschrank für ein kleines Zimmer.',
    uk: 'Шафа для одягу в невелику кімнату.',
  },
  {
    category: 3,
    de: 'Ein Esstisch mit Stühlen für eine Familie mit drei Kindern.',
    uk: 'Обідній стіл зі стільцями для родини з трьома дітьми.',
  },
  {
    category: 7,
    de: 'Ein Schreibtisch für die Hausaufgaben meines Sohnes.',
    uk: 'Письмовий стіл для домашніх завдань сина.',
  },
  {
    category: 5,
    de: 'Küchenschränke oder ein Regal für die Küche.',
    uk: 'Кухонні шафи або стелаж для кухні.',
  },
  {
    category: 1,
    de: 'Ein Sofa oder Schlafsofa für das Wohnzimmer.',
    uk: 'Диван або диван-ліжко для вітальні.',
  },
  {
    category: 6,
    de: 'Ein Hochstuhl für unser Baby.',
    uk: 'Стільчик для годування для нашої дитини.',
  },
  {
    category: 2,
    de: 'Zwei Matratzen 90 × 200 für die Kinder.',
    uk: 'Два матраци 90 × 200 для дітей.',
  },
];

export const WISH_NOTES = {
  fulfilled: ['Passendes Lot vermittelt, abgeholt.', 'Über eine Spende erfüllt.'],
  cancelled: ['Familie ist umgezogen, Wunsch zurückgezogen.', 'Kein Kontakt mehr möglich.'],
};

export interface DonationText {
  category: number;
  de: string;
  uk: string;
  dimensions: string;
  shape: Shape;
}

export const DONATION_ITEMS: DonationText[] = [
  {
    category: 1,
    de: 'Graues Sofa, drei Jahre alt, keine Haustiere.',
    uk: 'Сірий диван, три роки, без домашніх тварин.',
    dimensions: '200 × 90 × 85 cm',
    shape: 'sofa',
  },
  {
    category: 4,
    de: 'Kleiderschrank aus Kiefer, lässt sich zerlegen.',
    uk: 'Шафа із сосни, розбирається.',
    dimensions: '120 × 60 × 190 cm',
    shape: 'wardrobe',
  },
  {
    category: 3,
    de: 'Esstisch mit sechs Stühlen, Platte etwas zerkratzt.',
    uk: 'Обідній стіл із шістьма стільцями, стільниця трохи подряпана.',
    dimensions: '180 × 90 × 75 cm',
    shape: 'table',
  },
  {
    category: 6,
    de: 'Gitterbett aus Buche, mit Matratze.',
    uk: 'Букове дитяче ліжечко з матрацом.',
    dimensions: '70 × 130 × 90 cm',
    shape: 'crib',
  },
  {
    category: 7,
    de: 'Schreibtisch und Bürostuhl aus dem Homeoffice.',
    uk: 'Письмовий стіл і крісло з домашнього офісу.',
    dimensions: '140 × 70 × 75 cm',
    shape: 'desk',
  },
  {
    category: 2,
    de: 'Doppelbett 160 × 200 ohne Matratze.',
    uk: 'Двоспальне ліжко 160 × 200 без матраца.',
    dimensions: '170 × 210 × 95 cm',
    shape: 'bed',
  },
  {
    category: 5,
    de: 'Küchenbuffet, Omas Erbstück, gut erhalten.',
    uk: 'Кухонний буфет, бабусина спадщина, у доброму стані.',
    dimensions: '110 × 45 × 190 cm',
    shape: 'kitchen',
  },
  {
    category: 8,
    de: 'Stehlampe und großer Wandspiegel.',
    uk: 'Торшер і велике настінне дзеркало.',
    dimensions: 'Ø 40 × 160 cm',
    shape: 'lamp',
  },
];

export const DONATION_NOTES = {
  accepted: ['Abholung mit dem Transporter vereinbart.', 'Spenderin bringt es selbst ins Lager.'],
  declined: [
    'Leider haben wir derzeit keinen Lagerplatz für so große Möbel.',
    'Das Möbelstück ist für uns leider zu stark beschädigt.',
  ],
  collected: ['Abgeholt und im Lager.', 'Vom Team abgeholt, alles in Ordnung.'],
};
