// A staff session outlives its access token (30 s in the browser tests) without a new login, and
// a half-filled lot form is never lost: the token is refreshed silently with the httpOnly cookie,
// a reload picks the session up again with the draft, and a session that ended after all (idle
// too long) brings the typed text back after the next login.
import { MongoClient } from 'mongodb';
import type { Page } from 'playwright-core';
import { visible } from '../support/browser';
import { startsWith, t } from '../support/i18n';
import { writeJpegs } from '../support/photos';
import { ACCESS_TOKEN_TTL_SECONDS, type Stack } from '../support/stack';
import { logIn, type World } from '../support/world';

const field = (page: Page, key: string) =>
  page.getByRole('main').getByLabel(startsWith(t('de', `admin:lots.fields.${key}`)));

/** Waits until every access token the page holds has expired (the services' clock). */
const outliveAccessToken = () =>
  new Promise((resolve) => setTimeout(resolve, (ACCESS_TOKEN_TTL_SECONDS + 2) * 1000));

export function sessionScenario(world: World): void {
  test('a staff session outlives its access token and a half-filled lot form survives a reload and an ended session', () =>
    world.scenario('staff session and lot draft', async () => {
      const category = world.category(2);
      const context = await world.desktop();
      const page = await context.newPage();
      // a reload with unsaved changes asks first (beforeunload): the staff member goes on
      page.on('dialog', (dialog) => void dialog.accept());

      await page.goto('/admin/lots/new');
      await page.waitForURL('**/admin/login');
      await logIn(page, world.stack.admin.email, world.stack.admin.password);
      await page.waitForURL('**/admin/lots/new');

      // the refresh token is an httpOnly cookie of the auth paths; nothing sits in storage
      const cookie = (await context.cookies()).find((c) => c.name === 'refresh_token')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      expect(stored).not.toContain('eyJ'); // no JWT
      expect(await page.evaluate(() => document.cookie)).not.toContain('refresh_token');

      // 1. half a lot, with a photo chosen; then longer than an access token lives
      const first = 'Kommode mit drei Schubladen';
      await field(page, 'nameDe').fill(first);
      await field(page, 'descriptionDe').fill('Helles Holz, Griffe aus Metall.');
      await field(page, 'categoryId').selectOption({ value: String(category.id) });
      const { paths } = await writeJpegs([{ name: 'kommode.jpg', kind: 'wardrobe', hue: 40 }]);
      await page.getByLabel(t('de', 'admin:photos.choose')).setInputFiles(paths);
      await visible(page.getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 1 }) }));
      await outliveAccessToken();

      // saving refreshes silently: no login page, the lot and its photo are there
      await page.getByRole('button', { name: t('de', 'admin:lots.createSubmit') }).click();
      await page.waitForURL('**/admin/lots');
      await visible(page.getByRole('main').getByText(first));
      const found = await world.admin.call<{ id: number; name: { de: string } }[]>(
        'GET',
        `/lots/?search=${encodeURIComponent(first)}`,
      );
      const created = found.find((l) => l.name.de === first);
      expect(created).toBeDefined();
      await world.waitForLot(created!.id, (l) => l.photos.length === 1);
      expect(page.url()).not.toContain('/admin/login');

      // 2. a reload: the access token in memory is gone, the cookie brings the session back
      // and the form its draft
      await page.goto('/admin/lots/new');
      const second = 'Bücherregal, fünf Böden';
      await field(page, 'nameDe').fill(second);
      await field(page, 'descriptionDe').fill('Weiß, 180 cm hoch.');
      await page.reload();
      await visible(page.getByRole('status').filter({ hasText: t('de', 'admin:drafts.restored') }));
      expect(await field(page, 'nameDe').inputValue()).toBe(second);
      expect(await field(page, 'descriptionDe').inputValue()).toBe('Weiß, 180 cm hoch.');
      expect(page.url()).toMatch(/\/admin\/lots\/new$/);

      // 3. the session ends after all (idle longer than allowed, as if hours had passed):
      // saving leads to the login, and after it the form is back with the text
      await field(page, 'categoryId').selectOption({ value: String(category.id) });
      const now = (await context.cookies()).find((c) => c.name === 'refresh_token')!;
      expect(now.value).not.toBe(cookie.value); // rotated by every refresh
      await endSessionAsIdle(world.stack, decodeURIComponent(now.value).split('.')[0]!);
      await outliveAccessToken();
      await page.getByRole('button', { name: t('de', 'admin:lots.createSubmit') }).click();
      await page.waitForURL('**/admin/login');
      await visible(page.getByText(t('de', 'admin:session.expired')));
      await logIn(page, world.stack.admin.email, world.stack.admin.password);
      await page.waitForURL('**/admin/lots/new');
      await visible(page.getByRole('status').filter({ hasText: t('de', 'admin:drafts.restored') }));
      expect(await field(page, 'nameDe').inputValue()).toBe(second);
      await page.getByRole('button', { name: t('de', 'admin:lots.createSubmit') }).click();
      await page.waitForURL('**/admin/lots');
      await visible(page.getByRole('main').getByText(second));
      // saved: no draft is left in the tab
      const drafts = await page.evaluate(() =>
        Object.keys(sessionStorage).filter((k) => k.startsWith('draft:')),
      );
      expect(drafts).toEqual([]);
    }));
}

/**
 * Moves the last use of a session back by three hours, as if it had been idle that long: the
 * browser tests cannot move the auth service's clock.
 */
async function endSessionAsIdle(stack: Stack, sid: string): Promise<void> {
  const client = new MongoClient(stack.mongoUrl);
  try {
    const res = await client
      .db(stack.database('auth'))
      .collection('sessions')
      .updateOne(
        { sid, revoked_at: null },
        { $set: { last_used_at: new Date(Date.now() - 3 * 3600_000) } },
      );
    if (res.matchedCount !== 1) throw new Error(`session ${sid} is not open`);
  } finally {
    await client.close();
  }
}
