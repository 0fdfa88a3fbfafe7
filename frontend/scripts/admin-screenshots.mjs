// Screenshots of the back-office in headless Chromium: login, lots list, lot form and the
// applications screen, at desktop (1366x900) and phone (390x844) size.
//
//   BASE_URL=http://localhost:8182 node frontend/scripts/admin-screenshots.mjs
//
// Needs a running stack (the report of issue #8 names the command; a public-write limit above 10
// per 10 minutes, RATE_LIMIT_PUBLIC_WRITES=500, lets the seed send its applications). The first
// run seeds lots with generated photos, applications from several families through the public
// API, and a few staff decisions and notes. Writes to frontend/test-output/screenshots/admin/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const sharp = require('sharp');

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8182').replace(/\/$/, '');
const API = `${BASE_URL}/api/v1`;
const OUT = path.resolve(import.meta.dirname, '../test-output/screenshots/admin');
const EMAIL = process.env.ADMIN_EMAIL ?? 'admin@moebelbruecke.local';
const PASSWORD = process.env.ADMIN_PASSWORD ?? 'moebel-admin-2026';
const DEMO_DONOR = 'Spende (Demo)';

async function call(method, url, { token, body, form } = {}) {
  const res = await fetch(`${API}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A simple drawing of a piece of furniture as a JPEG. */
async function picture(kind, hue) {
  const shapes = {
    sofa: `<rect x="150" y="330" width="900" height="260" rx="40" fill="hsl(${hue},45%,45%)"/>
           <rect x="210" y="220" width="780" height="170" rx="40" fill="hsl(${hue},45%,55%)"/>`,
    table: `<rect x="200" y="300" width="800" height="50" rx="10" fill="hsl(${hue},40%,40%)"/>
            <rect x="250" y="350" width="40" height="330" fill="hsl(${hue},40%,32%)"/>
            <rect x="910" y="350" width="40" height="330" fill="hsl(${hue},40%,32%)"/>`,
    bed: `<rect x="150" y="380" width="900" height="200" rx="20" fill="hsl(${hue},35%,55%)"/>
          <rect x="150" y="220" width="60" height="440" fill="hsl(${hue},30%,35%)"/>`,
    wardrobe: `<rect x="330" y="120" width="540" height="560" rx="10" fill="hsl(${hue},35%,45%)"/>
               <line x1="600" y1="130" x2="600" y2="670" stroke="#3f3f46" stroke-width="8"/>`,
    chair: `<rect x="480" y="200" width="240" height="260" rx="20" fill="hsl(${hue},40%,45%)"/>
            <rect x="460" y="440" width="280" height="60" rx="10" fill="hsl(${hue},40%,38%)"/>
            <rect x="480" y="500" width="30" height="180" fill="#57534e"/><rect x="690" y="500" width="30" height="180" fill="#57534e"/>`,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="hsl(${hue},30%,92%)"/>
    <rect y="660" width="1200" height="140" fill="hsl(${hue},15%,80%)"/>${shapes[kind]}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const LOTS = [
  {
    kind: 'sofa',
    category_id: 1,
    photos: [210, 30],
    name: { de: 'Graues Ecksofa', uk: 'Сірий кутовий диван' },
    description: {
      de: 'Stoffbezug, bequem, kleine Gebrauchsspuren.',
      uk: 'Тканинна оббивка, зручний.',
    },
    dimensions: '240 × 160 cm',
    condition: 'gut',
  },
  {
    kind: 'table',
    category_id: 3,
    photos: [35],
    name: { de: 'Esstisch aus Eiche', uk: 'Дубовий обідній стіл' },
    description: { de: 'Für sechs Personen.', uk: 'На шість осіб.' },
    dimensions: '180 × 90 cm',
    condition: 'sehr gut',
  },
  {
    kind: 'bed',
    category_id: 2,
    photos: [280, 300],
    name: { de: 'Kinderbett mit Matratze', uk: 'Дитяче ліжко з матрацом' },
    description: { de: 'Matratze neu, 70 × 140 cm.', uk: 'Новий матрац, 70 × 140 см.' },
    dimensions: '75 × 145 cm',
    condition: 'neuwertig',
  },
  {
    kind: 'wardrobe',
    category_id: 4,
    photos: [20],
    name: { de: 'Kleiderschrank, zweitürig', uk: 'Двостулкова шафа' },
    description: { de: 'Muss abgebaut werden.', uk: 'Потрібно розібрати.' },
    dimensions: '100 × 60 × 190 cm',
    condition: 'in Ordnung',
  },
  {
    kind: 'chair',
    category_id: 3,
    photos: [120],
    name: { de: 'Vier Küchenstühle', uk: 'Чотири кухонні стільці' },
    description: { de: 'Holz, stapelbar.', uk: 'Дерев’яні, штабельовані.' },
    dimensions: '45 × 50 × 90 cm',
    condition: 'gut',
  },
  {
    kind: 'sofa',
    category_id: 1,
    photos: [],
    name: { de: 'Sessel, blau', uk: 'Синє крісло' },
    description: { de: 'Ohne Foto, wird nachgereicht.', uk: 'Фото буде пізніше.' },
    dimensions: '80 × 80 cm',
    condition: 'gebraucht',
  },
];

const FAMILIES = [
  ['Olena Kowalenko', '+380671234501', 'Berlin', 'Hermannstraße 12', true],
  ['Petro Schewtschenko', '+4915123456702', 'Berlin', 'Sonnenallee 88', false],
  ['Iryna Melnyk', '0176 23456703', 'Potsdam', 'Lindenallee 4', true],
  ['Mykola Bondarenko', '+380501234504', 'Berlin', 'Karl-Marx-Straße 3', false],
  ['Sofia Lysenko', '+4915223456705', 'Spandau', 'Am Juliusturm 20', false],
  ['Andrij Tkatschenko', '0157 34567806', 'Berlin', '', true],
  ['Natalija Kravets', '+380931234507', 'Neukölln', 'Weserstraße 51', false],
  ['Oksana Hnatjuk', '+4916045678908', 'Potsdam', 'Breite Straße 9', true],
];

async function seed() {
  const { access_token: token } = await call('POST', '/auth/login', {
    body: { email: EMAIL, password: PASSWORD },
  });
  const existing = (await call('GET', '/lots/?limit=100', { token })).filter(
    (l) => l.donor === DEMO_DONOR,
  );
  if (existing.length > 0) return { token, lots: existing.map((l) => l.id).sort((a, b) => a - b) };

  const ids = [];
  for (const { kind, photos, ...lot } of LOTS) {
    const created = await call('POST', '/lots/', {
      token,
      body: { ...lot, status: 'available', donor: DEMO_DONOR, location: 'Berlin' },
    });
    ids.push(created.id);
    for (const hue of photos) {
      const form = new FormData();
      form.append(
        'file',
        new Blob([await picture(kind, hue)], { type: 'image/jpeg' }),
        `${kind}-${hue}.jpg`,
      );
      form.append('generate_thumbnails', 'true');
      await call('POST', `/lots/${created.id}/photos`, { token, form });
    }
    console.log(`seeded lot ${created.id} (${lot.name.de}, ${photos.length} photos)`);
  }
  await sleep(2000);

  // applications through the public API, like families send them
  const plan = [
    [0, [0, 1, 2, 3]],
    [1, [4, 5, 6]],
    [2, [7, 1]],
    [3, [2]],
    [4, [6, 3]],
  ];
  const apps = {};
  for (const [lotIndex, families] of plan) {
    apps[lotIndex] = [];
    for (const f of families) {
      const [name, phone, city, address, help] = FAMILIES[f];
      const created = await call('POST', '/applications/', {
        body: {
          applicant_name: name,
          applicant_phone: phone,
          applicant_whatsapp: phone,
          applicant_city: city,
          applicant_address: address,
          needs_delivery_help: help,
          lot_id: ids[lotIndex],
          language: 'uk',
        },
      });
      apps[lotIndex].push(created.id);
      await sleep(150);
    }
  }
  // staff decisions: one approval (the others of that lot wait), a rejection, a completed handover
  const note = (id, text) =>
    call('PATCH', `/applications/${id}/notes`, { token, body: { note: text } });
  const status = (id, s, n) =>
    call('PATCH', `/applications/${id}/status`, { token, body: { status: s, note: n } });
  await note(apps[0][0], 'Familie angerufen, kann Samstag abholen.');
  await note(apps[0][1], 'Zweiter Anruf ohne Antwort.');
  await status(apps[1][0], 'approved', 'Abholung Dienstag 17 Uhr');
  await status(apps[2][1], 'rejected', 'Wohnung hat keinen Platz für ein Kinderbett.');
  await status(apps[3][0], 'approved');
  await sleep(1500);
  await status(apps[3][0], 'completed', 'Übergabe erledigt, Familie bedankt sich.');
  await sleep(2000);
  return { token, lots: ids };
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const { lots } = await seed();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--lang=de-DE',
    ],
  });
  const sizes = {
    desktop: { viewport: { width: 1366, height: 900 } },
    phone: {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    },
  };
  try {
    for (const [size, options] of Object.entries(sizes)) {
      const context = await browser.newContext({ ...options, locale: 'de-DE' });
      const page = await context.newPage();
      const shot = async (name, fullPage = true) => {
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(OUT, `${name}-${size}.png`), fullPage });
        console.log(`  ${name}-${size}.png`);
      };

      await page.goto(`${BASE_URL}/admin/applications?lng=de`);
      await page.waitForSelector('form input[name="email"]');
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.waitForSelector('text=E-Mail ist erforderlich');
      await shot('login-validation', false);
      await page.fill('input[name="email"]', EMAIL);
      await page.fill('input[name="password"]', PASSWORD);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      // back on the remembered page
      await page.waitForSelector('main h2 a[href^="/admin/lots/"]', { timeout: 20000 });
      await shot('applications');
      await page.locator('button[aria-controls$="-notes"]').first().click();
      await shot('applications-notes', false);

      await page.goto(`${BASE_URL}/admin/lots`);
      await page.waitForSelector(size === 'desktop' ? 'main table' : 'main ul li[tabindex]');
      await shot('lots');

      await page.goto(`${BASE_URL}/admin/lots/${lots[0]}/edit`);
      await page.waitForSelector('main input[name="nameDe"]');
      await page.waitForSelector('main section[aria-labelledby="lot-photos"] img');
      await shot('lot-form');

      await page.goto(`${BASE_URL}/admin/lots/new`);
      await page.waitForSelector('main input[name="nameDe"]');
      await page.getByRole('button', { name: 'Los anlegen' }).click();
      await shot('lot-form-new-validation', false);

      if (size === 'desktop') {
        await page.goto(`${BASE_URL}/admin/applications?lng=uk`);
        await page.waitForSelector('main h2 a[href^="/admin/lots/"]');
        await shot('applications-uk');
        await page.goto(`${BASE_URL}/admin/lots?lng=de`);
        await page.waitForSelector('main table');
      } else {
        await page.getByRole('button', { name: 'Menü öffnen' }).click();
        await page.waitForSelector('[role="dialog"] nav');
        await shot('drawer', false);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`screenshots in ${OUT}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
