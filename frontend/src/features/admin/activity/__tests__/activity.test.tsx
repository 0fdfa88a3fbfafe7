import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ActivityLogEntry } from '@furniture/contracts/api/activity';
import { i18n } from '../../../../app/i18n';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, bearerOf, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { describeActivity } from '../lib/activity';

function entry(id: number, overrides: Partial<ActivityLogEntry> = {}): ActivityLogEntry {
  return {
    id,
    user_id: 1,
    user_name: 'Anna Admin',
    user_email: 'admin@moebelbruecke.local',
    user_role: 'admin',
    action_type: 'UPDATE',
    target_type: 'lot',
    target_id: 7,
    details: null,
    source: 'server',
    created_at: '2026-03-10T10:00:00.000Z',
    ...overrides,
  };
}

const ENTRIES = [
  entry(3, {
    action_type: 'APPROVE',
    target_type: 'application',
    target_id: 12,
    details: {
      applicant_name: 'Olena K.',
      lot_name: { de: 'Graues Sofa', uk: 'Сірий диван' },
      old_status: 'pending',
      new_status: 'approved',
      note: 'passt',
    },
  }),
  entry(2, {
    user_id: null,
    user_name: null,
    user_email: null,
    user_role: null,
    action_type: 'CREATE',
    target_type: 'wish',
    target_id: 4,
    details: { applicant_name: 'Petro S.', actor: 'applicant', new_status: 'active' },
    created_at: '2026-03-08T09:00:00.000Z',
  }),
  entry(1, {
    user_id: 2,
    user_name: 'Vera Volunteer',
    user_email: 'vera@moebelbruecke.local',
    action_type: 'update' as ActivityLogEntry['action_type'],
    details: {
      name: { de: 'Esstisch', uk: 'Стіл' },
      old_value: { donor: '' },
      new_value: { donor: 'Familie Weber' },
    },
    created_at: '2026-03-05T09:00:00.000Z',
  }) as ActivityLogEntry,
];

describe('activity description', () => {
  const t = i18n.getFixedT('de', 'admin');

  test('when details hold names, statuses, changes and notes, then a German sentence is built from them', () => {
    expect(describeActivity(ENTRIES[0]!, t, 'de')).toBe(
      '„Graues Sofa“ · Antragsteller: Olena K. · Ausstehend → Genehmigt · Notiz: passt',
    );
    expect(describeActivity(ENTRIES[2]!, t, 'de')).toBe(
      '„Esstisch“ · Änderungen: Spender: – → Familie Weber',
    );
    expect(describeActivity(entry(9, { details: 'Import aus Tabelle' }), t, 'de')).toBe(
      'Import aus Tabelle',
    );
    expect(
      describeActivity(
        entry(10, {
          target_type: 'application',
          details: { reason: 'competitor_approved', old_status: 'pending', new_status: 'rejected' },
        }),
        t,
        'de',
      ),
    ).toBe('Ausstehend → Abgelehnt · Grund: andere Bewerbung genehmigt');
  });

  test('when an entry is about a donation, then the donor, the staff reason and the lot made of an item are named, in Ukrainian too', () => {
    const declined = entry(11, {
      action_type: 'STATUS_CHANGE',
      target_type: 'donation',
      target_id: 5,
      details: {
        donor_name: 'Jana W.',
        old_status: 'submitted',
        new_status: 'declined',
        reason: 'Zu stark beschädigt',
      },
    });
    expect(describeActivity(declined, t, 'de')).toBe(
      'Spender: Jana W. · Eingegangen → Abgelehnt · Grund: Zu stark beschädigt',
    );
    const lot = entry(12, {
      action_type: 'CREATE',
      target_type: 'donation',
      target_id: 5,
      details: { item_id: 9, lot_id: 57, lot_name: { de: 'Sofa', uk: 'Диван' }, category_id: 1 },
    });
    expect(describeActivity(lot, t, 'de')).toBe('„Sofa“ · Lot #57 aus Möbelstück #9');
    const uk = i18n.getFixedT('uk', 'admin');
    expect(describeActivity(declined, uk, 'uk')).toBe(
      'Донор: Jana W. · Подана → Відхилена · Причина: Zu stark beschädigt',
    );
    expect(describeActivity(lot, uk, 'uk')).toBe('„Диван“ · Лот #57 із предмета #9');
  });
});

describe('activity log', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/activity-logs/users'), () =>
        HttpResponse.json({
          data: [
            {
              id: 1,
              name: 'Anna Admin',
              email: 'admin@moebelbruecke.local',
              role: 'admin',
              last_activity_at: '2026-03-10T10:00:00.000Z',
            },
            {
              id: 2,
              name: 'Vera Volunteer',
              email: 'vera@moebelbruecke.local',
              role: 'volunteer',
              last_activity_at: '2026-03-05T09:00:00.000Z',
            },
          ],
        }),
      ),
    ),
  );

  test('when the log loads, then each entry shows action, target, description, user and date, with "Seite 1 von 3"', async () => {
    server.use(
      http.get(apiUrl('/activity-logs'), () =>
        HttpResponse.json({
          data: [
            ...ENTRIES,
            entry(4, {
              user_id: null,
              user_name: null,
              user_email: null,
              user_role: null,
              action_type: 'CREATE',
              target_type: 'donation',
              target_id: 5,
              details: { donor_name: 'Jana W.', actor: 'donor', new_status: 'submitted' },
            }),
          ],
          page: 1,
          per_page: 50,
          total: 120,
          total_pages: 3,
          has_next: true,
        }),
      ),
    );
    renderAdmin('/admin/activity');
    const approve = (await screen.findByText('Genehmigt · Bewerbung')).closest('li')!;
    expect(within(approve).getByText('#12')).toBeInTheDocument();
    expect(within(approve).getByText(/Antragsteller: Olena K\./)).toBeInTheDocument();
    expect(
      within(approve).getByText(/Anna Admin \(admin@moebelbruecke\.local\)/),
    ).toBeInTheDocument();
    const wish = screen.getByText('Erstellt · Wunsch').closest('li')!;
    expect(within(wish).getByText(/^Antragsteller ·/)).toBeInTheDocument();
    const donation = screen.getByText('Erstellt · Spende').closest('li')!;
    expect(within(donation).getByText(/^Spender ·/)).toBeInTheDocument();
    expect(
      within(donation).getByText(/Spender: Jana W\. · Status: Eingegangen/),
    ).toBeInTheDocument();
    // a lower-case action type from another reading is understood
    expect(screen.getByText('Geändert · Lot')).toBeInTheDocument();
    expect(screen.getByText('Seite 1 von 3')).toBeInTheDocument();
  });

  test('when filters are set, then they apply to the loaded page only and are kept as activity-log', async () => {
    const seen: URL[] = [];
    server.use(
      http.get(apiUrl('/activity-logs'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json({
          data: ENTRIES,
          page: 1,
          per_page: 50,
          total: 3,
          total_pages: 1,
          has_next: false,
        });
      }),
    );
    const { user } = renderAdmin('/admin/activity');
    await screen.findByText('Genehmigt · Bewerbung');
    await user.selectOptions(
      screen.getByLabelText('Benutzer'),
      'Vera Volunteer (vera@moebelbruecke.local)',
    );
    await waitFor(() =>
      expect(screen.queryByText('Genehmigt · Bewerbung')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Geändert · Lot')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Benutzer'), 'Alle');
    await user.type(screen.getByLabelText('Von'), '06.03.2026');
    await user.type(screen.getByLabelText('Bis'), '09.03.2026');
    await waitFor(() => expect(screen.queryByText('Geändert · Lot')).not.toBeInTheDocument());
    expect(screen.getByText('Erstellt · Wunsch')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Aktion'), 'APPROVE');
    expect(
      await screen.findByText('Keine Aktivität dieser Seite passt zu den Filtern.'),
    ).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('activity-log')!)).toEqual({
      actionType: 'APPROVE',
      userId: '',
      dateFrom: '2026-03-06',
      dateTo: '2026-03-09',
    });
    expect(seen.every((url) => [...url.searchParams.keys()].sort().join() === 'limit,page')).toBe(
      true,
    );
  });

  test('when the log is empty, then "Es sind noch keine Aktivitäten verfügbar." is shown', async () => {
    server.use(
      http.get(apiUrl('/activity-logs'), () =>
        HttpResponse.json({
          data: [],
          page: 1,
          per_page: 50,
          total: 0,
          total_pages: 0,
          has_next: false,
        }),
      ),
    );
    renderAdmin('/admin/activity');
    expect(
      await screen.findByText('Es sind noch keine Aktivitäten verfügbar.'),
    ).toBeInTheDocument();
  });

  test('when the CSV is downloaded, then the export gets the filters and the bearer token', async () => {
    let asked: { url: URL; token: string | null } | undefined;
    server.use(
      http.get(apiUrl('/activity-logs'), () =>
        HttpResponse.json({
          data: ENTRIES,
          page: 1,
          per_page: 50,
          total: 3,
          total_pages: 1,
          has_next: false,
        }),
      ),
      http.get(apiUrl('/activity-logs/export.csv'), ({ request }) => {
        asked = { url: new URL(request.url), token: bearerOf(request) };
        return new HttpResponse('\uFEFFID;Zeitpunkt\r\n1;05.03.2026\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="aktivitaeten.csv"',
          },
        });
      }),
    );
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    const clicked = jest
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const { user, token } = renderAdmin('/admin/activity');
    await screen.findByText('Genehmigt · Bewerbung');
    await user.selectOptions(screen.getByLabelText('Aktion'), 'APPROVE');
    await user.click(screen.getByRole('button', { name: 'CSV herunterladen' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(asked?.token).toBe(token);
    expect(Object.fromEntries(asked!.url.searchParams)).toEqual({ action_type: 'APPROVE' });
    clicked.mockRestore();
  });
});
