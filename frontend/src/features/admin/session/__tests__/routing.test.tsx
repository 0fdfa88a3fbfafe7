import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../../../test/render';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, REFERRER, renderAdmin, VOLUNTEER } from '../../test/admin-test-utils';

const sidebarEntries = async () => {
  const nav = (await screen.findAllByRole('navigation', { name: 'Verwaltungsnavigation' }))[0]!;
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
};

describe('role-aware routing and sidebar', () => {
  beforeEach(() =>
    server.use(
      http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: [] })),
    ),
  );

  test('when nobody is logged in, then an admin page sends the visitor to /admin/login', async () => {
    const { router } = renderApp('/admin/lots');
    await screen.findByRole('heading', { level: 1, name: 'Anmeldung für Mitarbeitende' });
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  test('when an administrator is logged in, then the sidebar shows all seventeen entries in order', async () => {
    server.use(meHandler(ADMIN));
    renderAdmin('/admin/profile');
    expect(await sidebarEntries()).toEqual([
      'Benutzer',
      'Partner',
      'Kategorien',
      'Wünsche',
      'Spenden',
      'Lots',
      'Bewerbungen',
      'Tagesplan',
      'Termine',
      'Orte',
      'Scannen',
      'Lagerplätze',
      'Nachrichten',
      'Aktivitäten',
      'Wirkung',
      'Datenschutz',
      'Profil',
    ]);
  });

  test("when staff are logged in, then the sidebar names the platform's version (the root package.json's)", async () => {
    const { version } = jest.requireActual<{ version: string }>('../../../../../../package.json');
    server.use(meHandler(ADMIN));
    renderAdmin('/admin/profile');
    await sidebarEntries();
    expect(screen.getAllByText(`Version ${version}`).length).toBeGreaterThan(0);
  });

  test('when a volunteer is logged in, then users and activity are not in the sidebar, donations and the warehouse are', async () => {
    server.use(meHandler(VOLUNTEER));
    renderAdmin('/admin/profile', VOLUNTEER);
    expect(await sidebarEntries()).toEqual([
      'Kategorien',
      'Wünsche',
      'Spenden',
      'Lots',
      'Bewerbungen',
      'Tagesplan',
      'Termine',
      'Orte',
      'Scannen',
      'Lagerplätze',
      'Nachrichten',
      'Profil',
    ]);
  });

  test.each([
    '/admin/users',
    '/admin/agencies',
    '/admin/activity',
    '/admin/impact',
    '/admin/privacy',
  ])('when a volunteer opens %s, then they are sent to /admin/profile', async (path) => {
    server.use(meHandler(VOLUNTEER));
    const { router } = renderAdmin(path, VOLUNTEER);
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    expect(router.state.location.pathname).toBe('/admin/profile');
  });

  test('when /admin opens, then it redirects to /admin/categories', async () => {
    server.use(meHandler(ADMIN));
    const { router } = renderAdmin('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/categories'));
  });

  test('when the server says the role changed, then the sidebar follows without a new login', async () => {
    server.use(meHandler(VOLUNTEER_NOW_ADMIN));
    renderAdmin('/admin/profile', VOLUNTEER);
    await waitFor(async () => expect(await sidebarEntries()).toContain('Benutzer'));
  });
});

const VOLUNTEER_NOW_ADMIN = { ...VOLUNTEER, role: 'admin' as const };

describe('a partner agency referrer (issue 44)', () => {
  beforeEach(() =>
    server.use(
      meHandler(REFERRER),
      http.get(apiUrl('/referrals/'), () => HttpResponse.json({ referrals: [] })),
    ),
  );

  test('when a referrer is logged in, then the sidebar shows only its families', async () => {
    renderAdmin('/admin/referrals', REFERRER);
    expect(await sidebarEntries()).toEqual(['Meine Familien']);
  });

  test.each([
    '/admin',
    '/admin/applications',
    '/admin/users',
    '/admin/agencies',
    '/admin/profile',
    '/admin/activity',
    '/admin/lots/1',
    '/admin/no-such-page',
  ])('when a referrer types %s, then it lands on its families', async (path) => {
    const { router } = renderAdmin(path, REFERRER);
    await screen.findByRole('heading', { level: 1, name: 'Meine Familien' });
    expect(router.state.location.pathname).toBe('/admin/referrals');
  });

  test('when staff open the referrer view, then they land on the back-office start', async () => {
    server.use(meHandler(ADMIN));
    const { router } = renderAdmin('/admin/referrals');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/categories'));
  });
});
