// Screenshots of the public site at phone width (390x844) in headless Chromium, both languages.
//
//   BASE_URL=http://localhost:8181 node frontend/scripts/screenshots.mjs
//
// Needs a running stack (see the report of issue #7 for the command). Seeds a few demo lots with
// generated photos through the API the first time (staff login from ADMIN_EMAIL/ADMIN_PASSWORD,
// the local defaults otherwise). Writes to frontend/test-output/screenshots/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const sharp = require('sharp');

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8181').replace(/\/$/, '');
const API = `${BASE_URL}/api/v1`;
const OUT = path.resolve(import.meta.dirname, '../test-output/screenshots');
const EMAIL = process.env.ADMIN_EMAIL ?? 'admin@moebelbruecke.local';
const PASSWORD = process.env.ADMIN_PASSWORD ?? 'moebel-admin-2026';
const DEMO_MARK = '[demo]';

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
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return data;
}

/** A simple drawing of a piece of furniture as a JPEG, so that the gallery has something to show. */
async function picture(kind, hue) {
  const shapes = {
    sofa: `<rect x="150" y="330" width="900" height="260" rx="40" fill="hsl(${hue},45%,45%)"/>
           <rect x="210" y="220" width="780" height="170" rx="40" fill="hsl(${hue},45%,55%)"/>
           <rect x="110" y="300" width="120" height="300" rx="40" fill="hsl(${hue},45%,40%)"/>
           <rect x="970" y="300" width="120" height="300" rx="40" fill="hsl(${hue},45%,40%)"/>
           <rect x="200" y="590" width="30" height="70" fill="#5b4636"/><rect x="970" y="590" width="30" height="70" fill="#5b4636"/>`,
    table: `<rect x="200" y="300" width="800" height="50" rx="10" fill="hsl(${hue},40%,40%)"/>
            <rect x="250" y="350" width="40" height="330" fill="hsl(${hue},40%,32%)"/>
            <rect x="910" y="350" width="40" height="330" fill="hsl(${hue},40%,32%)"/>`,
    bed: `<rect x="150" y="380" width="900" height="200" rx="20" fill="hsl(${hue},35%,55%)"/>
          <rect x="150" y="220" width="60" height="440" fill="hsl(${hue},30%,35%)"/>
          <rect x="220" y="330" width="220" height="80" rx="30" fill="#f5f5f4"/>
          <rect x="430" y="360" width="600" height="60" rx="20" fill="hsl(${hue},50%,70%)"/>`,
    wardrobe: `<rect x="330" y="120" width="540" height="560" rx="10" fill="hsl(${hue},35%,45%)"/>
               <line x1="600" y1="130" x2="600" y2="670" stroke="#3f3f46" stroke-width="8"/>
               <circle cx="570" cy="400" r="12" fill="#e7e5e4"/><circle cx="630" cy="400" r="12" fill="#e7e5e4"/>`,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="hsl(${hue},30%,92%)"/>
    <rect y="660" width="1200" height="140" fill="hsl(${hue},15%,80%)"/>${shapes[kind]}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const DEMO_LOTS = [
  {
    kind: 'sofa',
    category_id: 1,
    status: 'available',
    name: { de: 'Graues Dreisitzer-Sofa', uk: 'Сірий тримісний диван' },
    description: {
      de: 'Bequemes Sofa, Stoffbezug, kleine Gebrauchsspuren.',
      uk: 'Зручний диван, тканинна оббивка, невеликі сліди використання.',
    },
    detailed_description: {
      de: 'Das Sofa stand in einem Nichtraucherhaushalt. Die Kissen sind abnehmbar und waschbar.',
      uk: 'Диван стояв у квартирі, де не палять. Подушки знімні, їх можна прати.',
    },
    dimensions: '210 × 90 × 85 cm',
    condition: 'gut / добрий',
    location: 'Berlin-Neukölln',
    donor: 'Familie Weber',
    photos: [200, 30, 120],
  },
  {
    kind: 'table',
    category_id: 3,
    status: 'available',
    name: { de: 'Esstisch aus Holz', uk: 'Дерев’яний обідній стіл' },
    description: { de: 'Für 4 bis 6 Personen.', uk: 'Для 4–6 осіб.' },
    dimensions: '160 × 90 cm',
    condition: 'sehr gut / дуже добрий',
    location: 'Berlin-Mitte',
    donor: 'Anonym',
    photos: [35],
  },
  {
    kind: 'bed',
    category_id: 2,
    status: 'reserved',
    name: { de: 'Kinderbett mit Matratze', uk: 'Дитяче ліжко з матрацом' },
    description: { de: 'Bett 70 × 140 cm, Matratze neu.', uk: 'Ліжко 70 × 140 см, новий матрац.' },
    dimensions: '75 × 145 cm',
    condition: 'gut / добрий',
    location: 'Potsdam',
    donor: 'Kita Sonnenschein',
    photos: [280],
  },
  {
    kind: 'wardrobe',
    category_id: 4,
    status: 'available',
    name: { de: 'Kleiderschrank, zweitürig', uk: 'Двостулкова шафа для одягу' },
    description: { de: 'Muss abgebaut werden.', uk: 'Потрібно розібрати перед вивезенням.' },
    dimensions: '100 × 60 × 190 cm',
    condition: 'in Ordnung / задовільний',
    location: 'Berlin-Spandau',
    donor: '',
    photos: [],
  },
];

async function seed() {
  const lots = await call('GET', '/lots/?limit=100');
  const existing = (Array.isArray(lots) ? lots : (lots.data ?? lots.lots ?? [])).filter(
    (l) =>
      l.donor?.includes?.(DEMO_MARK) ||
      l.location?.includes?.(DEMO_MARK) ||
      l.name?.de?.includes?.('Dreisitzer'),
  );
  if (existing.length > 0) return existing.map((l) => l.id);
  const { access_token: token } = await call('POST', '/auth/login', {
    body: { email: EMAIL, password: PASSWORD },
  });
  const ids = [];
  for (const lot of DEMO_LOTS) {
    const { kind, photos, ...body } = lot;
    const created = await call('POST', '/lots/', { token, body });
    const id = (created.data ?? created).id;
    ids.push(id);
    for (const hue of photos) {
      const form = new FormData();
      form.append(
        'file',
        new Blob([await picture(kind, hue)], { type: 'image/jpeg' }),
        `${kind}-${hue}.jpg`,
      );
      await call('POST', `/lots/${id}/photos`, { token, form });
    }
    console.log(`seeded lot ${id} (${lot.name.de}, ${photos.length} photos)`);
  }
  // photo URLs reach the lot through events; give them a moment
  await new Promise((r) => setTimeout(r, 3000));
  return ids;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const [firstLot] = await seed();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    for (const lang of ['de', 'uk']) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: lang === 'uk' ? 'uk-UA' : 'de-DE',
      });
      const page = await context.newPage();
      const shot = async (name, fullPage = true) => {
        await page.screenshot({ path: path.join(OUT, `${name}-${lang}.png`), fullPage });
        console.log(`  ${name}-${lang}.png`);
      };
      const open = async (url, waitFor) => {
        await page.goto(`${BASE_URL}${url}${url.includes('?') ? '&' : '?'}lng=${lang}`);
        await page.waitForSelector(waitFor, { timeout: 15000 });
        await page.waitForLoadState('networkidle');
      };

      await open('/', 'main a[href^="/categories/"]');
      await shot('home');
      await open('/categories/1', 'main h1');
      await shot('category');
      await open(`/lots/${firstLot}`, 'main h1');
      await shot('lot');
      await page
        .getByRole('button', { name: lang === 'uk' ? 'Подати заявку' : 'Jetzt bewerben' })
        .click();
      await page.waitForSelector('[role="dialog"] input[name="name"]');
      await page.fill('input[name="name"]', lang === 'uk' ? 'Олена Коваленко' : 'Olena Kowalenko');
      await page.fill('input[name="phone"]', '0176 1234567');
      await page.waitForTimeout(1200);
      await shot('apply-modal', false);
      await page.keyboard.press('Escape');
      await open('/check-status', 'main form');
      await shot('check-status');
      await page.fill('input[name="phone"]', '0176 0000000');
      await page
        .getByRole('button', { name: lang === 'uk' ? 'Перевірити статус' : 'Status prüfen' })
        .last()
        .click();
      await page.waitForSelector(
        'main section[aria-labelledby="results-title"], main [role="alert"]',
      );
      await shot('check-status-result');
      await page.goto(`${BASE_URL}/?lng=${lang}`);
      await page.waitForSelector('main a[href^="/categories/"]');
      await page
        .getByRole('button', { name: lang === 'uk' ? 'Відкрити меню' : 'Menü öffnen' })
        .click();
      await page
        .getByRole('button', { name: lang === 'uk' ? 'Надіслати побажання' : 'Möbelwunsch senden' })
        .last()
        .click();
      await page.waitForSelector('[role="dialog"] select');
      await page
        .getByRole('button', { name: lang === 'uk' ? 'Надіслати побажання' : 'Wunsch senden' })
        .last()
        .click();
      await page.waitForTimeout(300);
      await shot('wish-modal-errors', false);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
