// What every scenario shares: the platform, the browser, the admin's API session, the seeded
// catalogue, and the admin's logged-in browser context (one login for every staff scenario).
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ApiClient, MailCatcher, CapturedMessages, eventually, type Lot } from './api';
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchChromium, newContext, visible } from './browser';
import { t } from './i18n';
import { furnitureJpeg, type Kind } from './photos';
import { replicasFromEnv } from '@furniture/infra';
import { startStack, type Stack } from './stack';

export interface Category {
  id: number;
  name: { de: string; uk: string };
}

/** Lots the API seeds before the scenarios: a category page with more than one card. */
export const SEED_LOTS: {
  kind: Kind;
  hues: number[];
  body: Parameters<ApiClient['createLot']>[0];
}[] = [
  {
    kind: 'sofa',
    hues: [210, 30],
    body: {
      category_id: 1,
      status: 'available',
      name: { de: 'Graues Dreisitzer-Sofa', uk: 'Сірий тримісний диван' },
      description: {
        de: 'Bequemes Sofa mit Stoffbezug, kleine Gebrauchsspuren.',
        uk: 'Зручний диван з тканинною оббивкою, невеликі сліди використання.',
      },
      detailed_description: {
        de: 'Die Kissen sind abnehmbar und waschbar. Abholung im Erdgeschoss.',
        uk: 'Подушки знімні, їх можна прати. Забрати можна з першого поверху.',
      },
      dimensions: '210 × 90 × 85',
      condition: '4/5',
      location: '10115',
      donor: '—',
    },
  },
  {
    kind: 'sofa',
    hues: [120],
    body: {
      category_id: 1,
      status: 'available',
      name: { de: 'Blauer Sessel', uk: 'Синє крісло' },
      description: { de: 'Ein bequemer Sessel.', uk: 'Зручне крісло.' },
      dimensions: '80 × 80 × 95',
      condition: '3/5',
      location: '10115',
      donor: '—',
    },
  },
  {
    kind: 'sofa',
    hues: [],
    body: {
      category_id: 1,
      status: 'reserved',
      name: { de: 'Ecksofa, beige', uk: 'Кутовий диван, бежевий' },
      description: { de: 'Für eine andere Familie reserviert.', uk: 'Зарезервовано.' },
    },
  },
  {
    kind: 'table',
    hues: [35],
    body: {
      category_id: 3,
      status: 'available',
      name: { de: 'Esstisch aus Holz', uk: 'Дерев’яний обідній стіл' },
      description: { de: 'Für vier bis sechs Personen.', uk: 'Для чотирьох–шести осіб.' },
      dimensions: '160 × 90',
    },
  },
];

export class World {
  stack!: Stack;
  browser!: Browser;
  admin!: ApiClient;
  mail!: MailCatcher;
  /** the WhatsApp and SMS stand-in (issue 30) */
  messages!: CapturedMessages;
  categories: Category[] = [];
  /** the seeded lots in SEED_LOTS order, with their photos */
  lots: Lot[] = [];
  private adminContext: BrowserContext | null = null;
  private readonly open = new Set<BrowserContext>();

  /**
   * `name`: a second world of the same run (its own platform; see startStack); `replicas`: OS
   * processes of every service (REPLICAS in the environment when not given, as make run)
   */
  constructor(
    private readonly name?: string,
    private readonly replicas = replicasFromEnv(),
  ) {}

  async start(): Promise<void> {
    this.stack = await startStack(this.name, this.replicas);
    this.browser = await launchChromium();
    this.mail = new MailCatcher(this.stack.mailApiUrl);
    this.messages = new CapturedMessages(this.stack.messagesApiUrl);
    // the administrator seeded in production must choose a new password first (issue 14): done
    // here through the API, so that the scenarios' logins go where they want to
    const seeded = await new ApiClient(this.stack.apiUrl).login(
      this.stack.admin.email,
      this.stack.admin.password,
    );
    const chosen = `${this.stack.admin.password}-Eigenes-Kennwort-2026`;
    await seeded.call('PATCH', '/auth/password', {
      body: { current_password: this.stack.admin.password, new_password: chosen },
    });
    this.stack.admin.password = chosen;
    this.admin = await new ApiClient(this.stack.apiUrl).login(this.stack.admin.email, chosen);
    const categories = await this.admin.call<{ data: Category[] }>('GET', '/categories/');
    this.categories = categories.data;
    for (const seed of SEED_LOTS) {
      const lot = await this.admin.createLot(seed.body);
      for (const [i, hue] of seed.hues.entries()) {
        await this.admin.uploadPhoto(lot.id, await furnitureJpeg(seed.kind, hue), `${i + 1}.jpg`);
      }
      this.lots.push(lot);
    }
    // photo addresses reach the catalogue's lots by events, a moment after the upload
    for (const [i, lot] of this.lots.entries()) {
      const want = SEED_LOTS[i]!.hues.length;
      this.lots[i] = await this.waitForLot(lot.id, (l) => l.photos.length === want);
    }
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await this.stack?.stop();
  }

  category(id: number): Category {
    const found = this.categories.find((c) => c.id === id);
    if (!found) throw new Error(`category ${id} is not seeded`);
    return found;
  }

  /**
   * Moves an approved application's pickup date (YYYY-MM-DD) in the applications service's
   * database, as if the days had passed: the browser tests cannot move the services' clock.
   */
  async setPickupDate(applicationId: number, day: string): Promise<void> {
    const client = new MongoClient(this.stack.mongoUrl);
    try {
      const res = await client
        .db(this.stack.database('applications'))
        .collection('applications')
        .updateOne({ id: applicationId, status: 'approved' }, { $set: { pickup_by: day } });
      if (res.matchedCount !== 1) throw new Error(`application ${applicationId} is not approved`);
    } finally {
      await client.close();
    }
  }

  /** Waits until the applications service knows the lot (its read model follows the events). */
  async waitForApplicable(lotId: number): Promise<void> {
    await eventually(`lot ${lotId} known to the applications service`, async () => {
      const res = await fetch(`${this.stack.apiUrl}/lots/${lotId}/applications-info`);
      return res.ok;
    });
  }

  /** Polls the public lot until `ok` holds. */
  async waitForLot(id: number, ok: (lot: Lot) => boolean, timeoutMs = 30_000): Promise<Lot> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lot = await this.admin.getLot(id);
      if (ok(lot)) return lot;
      if (Date.now() > deadline) {
        throw new Error(`lot ${id} did not reach the expected state: ${JSON.stringify(lot)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** A browser context closed at the end of the scenario (see scenario()). */
  async context(size: BrowserContextOptions, locale = 'de-DE'): Promise<BrowserContext> {
    const context = await newContext(this.browser, this.stack.baseUrl, size, locale);
    this.open.add(context);
    return context;
  }

  phone(locale: 'de-DE' | 'uk-UA' = 'de-DE'): Promise<BrowserContext> {
    return this.context(PHONE, locale);
  }

  desktop(locale: 'de-DE' | 'uk-UA' = 'de-DE'): Promise<BrowserContext> {
    return this.context(DESKTOP, locale);
  }

  /**
   * A page of the admin's desktop session. The first call logs in through the login page (which
   * sends the admin back to where they wanted to go); later calls reuse the session.
   */
  async adminPage(url: string): Promise<Page> {
    if (!this.adminContext) {
      const context = await newContext(this.browser, this.stack.baseUrl, DESKTOP);
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForURL(/\/admin\/login$/);
      await logIn(page, this.stack.admin.email, this.stack.admin.password);
      await page.waitForURL((u) => u.pathname === new URL(url, this.stack.baseUrl).pathname);
      this.adminContext = context;
      return page;
    }
    const page = this.adminContext.pages()[0] ?? (await this.adminContext.newPage());
    await page.goto(url);
    return page;
  }

  /**
   * Runs one scenario: the contexts it opened are closed afterwards; when it fails, every open
   * page is saved under test-output/e2e/failures/ first.
   */
  async scenario(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (err) {
      await this.saveFailure(name);
      throw err;
    } finally {
      for (const context of this.open) await context.close().catch(() => undefined);
      this.open.clear();
    }
  }

  private async saveFailure(name: string): Promise<void> {
    const dir = path.join(SCREENSHOT_DIR, 'failures');
    fs.mkdirSync(dir, { recursive: true });
    const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const contexts = [...this.open, ...(this.adminContext ? [this.adminContext] : [])];
    let n = 0;
    for (const context of contexts) {
      for (const page of context.pages()) {
        n += 1;
        await page
          .screenshot({ path: path.join(dir, `${slug}-${n}.png`), fullPage: true, timeout: 10_000 })
          .catch(() => undefined);
      }
    }
    process.stderr.write(
      `[e2e] "${name}" failed: ${n} page(s) saved in ${dir}; service logs in ${this.stack.logDir}\n`,
    );
  }
}

/** Fills the back-office login form and sends it. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await visible(page.getByRole('heading', { level: 1 }));
  await page.getByLabel(t('de', 'admin:login.email')).fill(email);
  await page.getByLabel(t('de', 'admin:login.password')).fill(password);
  await page.getByRole('button', { name: t('de', 'admin:login.submit') }).click();
}
