// A volunteer (created by the admin through the API) works in the back-office but cannot reach
// the users or the activity log: no sidebar entries, and the addresses lead to the profile.
import type { Page } from 'playwright-core';
import { ApiClient } from '../support/api';
import { visible } from '../support/browser';
import { t } from '../support/i18n';
import { logIn, type World } from '../support/world';

/** The sidebar's entries for a volunteer: the label's key and the path under /admin. */
const ALLOWED: [key: string, path: string][] = [
  ['categories', 'categories'],
  ['wishes', 'wishes'],
  ['donations', 'donations'],
  ['lots', 'lots'],
  ['applications', 'applications'],
  ['handovers', 'handovers'],
  ['slots', 'handovers/slots'],
  ['locations', 'handovers/locations'],
  ['scan', 'scan'],
  ['storagePlaces', 'storage-places'],
  ['messages', 'messages'],
  ['profile', 'profile'],
];
const ADMIN_ONLY = ['users', 'activity'];

/** The sidebar's entries (the drawer on phones), as link names and addresses. */
async function sidebarEntries(page: Page): Promise<{ name: string; href: string }[]> {
  const nav = await visible(
    page.getByRole('navigation', { name: t('de', 'admin:layout.navigation') }),
  );
  return nav
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((a) => ({ name: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '' })),
    );
}

export function volunteerScenario(world: World): void {
  test('a volunteer cannot reach the users or the activity log', () =>
    world.scenario('volunteer', async () => {
      const volunteer = {
        name: 'Petro Freiwilliger',
        email: 'petro.freiwilliger@e2e.moebelbruecke.test',
        role: 'volunteer' as const,
        password: 'ehrenamt-2026-sicher',
      };
      await world.admin.createUser(volunteer);

      // straight to /admin/users: the login, then the profile instead of the users
      const page = await (await world.desktop()).newPage();
      await page.goto('/admin/users');
      await page.waitForURL('**/admin/login');
      await logIn(page, volunteer.email, volunteer.password);
      await page.waitForURL('**/admin/profile');
      await visible(page.getByRole('heading', { level: 1, name: t('de', 'admin:profile.title') }));
      await visible(page.getByText(volunteer.email));

      const entries = await sidebarEntries(page);
      expect(entries.map((e) => e.href)).toEqual(ALLOWED.map(([, path]) => `/admin/${path}`));
      expect(entries.map((e) => e.name)).toEqual(
        ALLOWED.map(([key]) => t('de', `admin:nav.${key}`)),
      );
      for (const key of ADMIN_ONLY) {
        expect(await page.locator(`a[href="/admin/${key}"]`).count()).toBe(0);
      }

      // typed addresses lead to the profile too, and the pages a volunteer has work
      for (const key of ADMIN_ONLY) {
        await page.goto(`/admin/${key}`);
        await page.waitForURL('**/admin/profile');
        await visible(
          page.getByRole('heading', { level: 1, name: t('de', 'admin:profile.title') }),
        );
      }
      await page.goto('/admin/applications');
      await visible(
        page.getByRole('heading', { level: 1, name: t('de', 'admin:applications.title') }),
      );

      // the same on a phone, in the drawer
      const phone = await (await world.phone()).newPage();
      await phone.goto('/admin/activity');
      await phone.waitForURL('**/admin/login');
      await logIn(phone, volunteer.email, volunteer.password);
      await phone.waitForURL('**/admin/profile');
      // the back-office is loaded lazily: the menu button works once the page has rendered
      await visible(phone.getByRole('heading', { level: 1, name: t('de', 'admin:profile.title') }));
      await phone.getByRole('button', { name: t('de', 'admin:layout.openMenu') }).click();
      const drawer = await sidebarEntries(phone);
      expect(drawer.map((e) => e.href)).toEqual(ALLOWED.map(([, path]) => `/admin/${path}`));

      // and the services refuse the calls behind those pages
      const api = await new ApiClient(world.stack.apiUrl).login(
        volunteer.email,
        volunteer.password,
      );
      await expect(api.call('GET', '/users')).rejects.toThrow(/: 403 /);
      await expect(api.call('GET', '/activity-logs')).rejects.toThrow(/: 403 /);
    }));
}
