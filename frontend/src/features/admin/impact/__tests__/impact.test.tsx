import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ImpactReport } from '@furniture/contracts/api/impact';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { i18n } from '../../../../app/i18n';
import { toCsv } from '../lib/impact-csv';

const REPORT: ImpactReport = {
  counting_since: '2026-01-05T10:00:00.000Z',
  months: [
    { month: '2026-09', lots_received: 4, lots_given: 1 },
    { month: '2026-10', lots_received: 7, lots_given: 3 },
  ],
  totals: {
    lots_received: 1234,
    lots_given: 4,
    families_served: 3,
    applications: 20,
    wishes: 6,
    donations_received: 1507,
    donations_accepted: 902,
    lots_from_donations: 655,
  },
  median_days_to_pickup: 4.5,
  handovers_measured: 4,
  median_days_approval_to_handover: 2,
  handovers_measured_since_approval: 3,
  categories: [
    { category_id: 2, applications: 12, wishes: 4, lots_given: 3, open_wishes: 2 },
    { category_id: 1, applications: 8, wishes: 2, lots_given: 1, open_wishes: 0 },
  ],
  agencies: [
    {
      agency_id: 7,
      name: 'Caritas Leipzig',
      applications: 1203,
      wishes: 3,
      lots_given: 4,
      families_served: 3,
    },
    {
      agency_id: 9,
      name: 'Diakonie Halle',
      applications: 2,
      wishes: 0,
      lots_given: 0,
      families_served: 0,
    },
  ],
};

describe('impact dashboard', () => {
  test('when an administrator opens it, then the figures, and each chart as a table, show the counters; the period goes to the server', async () => {
    const months: string[] = [];
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
      http.get(apiUrl('/impact'), ({ request }) => {
        months.push(new URL(request.url).searchParams.get('months')!);
        return HttpResponse.json(REPORT);
      }),
    );
    const { user } = renderAdmin('/admin/impact');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wirkung' })).toBeInTheDocument();
    expect(screen.getByText('1.234')).toBeInTheDocument();
    expect(screen.getByText('4,5 Tage')).toBeInTheDocument();
    expect(screen.getByText('aus 4 Übergaben')).toBeInTheDocument();
    const figure = (label: string) => screen.getByText(label).closest('div')!.textContent;
    expect(figure('Spenden eingegangen')).toBe('Spenden eingegangen1.507');
    expect(figure('Spenden angenommen')).toBe('Spenden angenommen902');
    expect(figure('Lots aus Spenden')).toBe('Lots aus Spenden655');
    // days from the approval to the handover (issue 29)
    expect(figure('Median: Zusage bis Übergabe')).toBe(
      'Median: Zusage bis Übergabe2 Tageaus 3 Übergaben',
    );
    expect(screen.getByText(/fortlaufend gezählt seit 05\.01\.2026/)).toBeInTheDocument();
    const busiest = screen.getByRole('table', { name: 'Gefragteste Kategorien als Tabelle' });
    const rows = within(busiest)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'KategorieBewerbungenWünscheLots übergeben',
      'Betten1243',
      'Sofas & Sessel821',
    ]);
    const open = screen.getByRole('table', { name: 'Offene Wünsche nach Kategorie als Tabelle' });
    expect(within(open).getAllByRole('row')).toHaveLength(2);
    expect(
      screen.getByRole('button', { name: 'CSV herunterladen: Lots pro Monat' }),
    ).toBeInTheDocument();
    // the families per partner agency (issue 44), a visible table with its CSV
    const agencies = screen.getByRole('table', {
      name: 'Familien je Partnerorganisation als Tabelle',
    });
    expect(
      within(agencies)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'PartnerorganisationVermittelte BewerbungenVermittelte WünscheLots übergebenFamilien versorgt',
      'Caritas Leipzig1.203343',
      'Diakonie Halle2000',
    ]);
    expect(
      screen.getByRole('button', { name: 'CSV herunterladen: Familien je Partnerorganisation' }),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Zeitraum'), '24');
    await screen.findByText('1.234');
    expect(months).toEqual(['12', '24']);
  });
});

describe('impact dashboard in Ukrainian', () => {
  test('when the page is shown in Ukrainian, then the days from the approval to the handover are named in Ukrainian, and a dash stands for no handover yet', async () => {
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
      http.get(apiUrl('/impact'), () =>
        HttpResponse.json({
          ...REPORT,
          median_days_approval_to_handover: null,
          handovers_measured_since_approval: 0,
          agencies: [],
        }),
      ),
    );
    await act(() => i18n.changeLanguage('uk'));
    try {
      renderAdmin('/admin/impact');
      const label = await screen.findByText('Медіана: від схвалення до отримання');
      expect(label.closest('div')!.textContent).toBe(
        'Медіана: від схвалення до отримання–за 0 передачами',
      );
      expect(screen.getByText('4,5 дн.')).toBeInTheDocument();
      expect(
        screen.getByRole('heading', { name: 'Родини за організаціями-партнерами' }),
      ).toBeInTheDocument();
      expect(screen.getByText('Направлень ще немає.')).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('de'));
    }
  });
});

describe('CSV of a chart', () => {
  test('when a table is exported, then it is semicolon-separated with a BOM, quoted where needed, and formulas are defused', () => {
    const csv = toCsv(
      ['Kategorie', 'Wünsche'],
      [
        ['Betten; Matratzen', 3],
        ['=HYPERLINK("x")', 1],
      ],
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).trim().split('\n')).toEqual([
      'Kategorie;Wünsche',
      '"Betten; Matratzen";3',
      `"'=HYPERLINK(""x"")";1`,
    ]);
  });
});
