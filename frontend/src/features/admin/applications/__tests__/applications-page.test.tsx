import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { application, lotRef } from '../../test/application-fixtures';

const APPS = [
  application({
    id: 11,
    lot_id: 1,
    lot: lotRef(1, 'reserved'),
    status: 'approved',
    queue_position: 1,
    applicant_name: 'Olena K.',
    created_at: '2026-03-01T08:00:00Z',
  }),
  application({
    id: 12,
    lot_id: 1,
    lot: lotRef(1, 'reserved'),
    status: 'pending',
    queue_position: 2,
    applicant_name: 'Petro S.',
    created_at: '2026-03-02T08:00:00Z',
  }),
  application({
    id: 21,
    lot_id: 2,
    lot: lotRef(2),
    status: 'pending',
    queue_position: 1,
    applicant_name: 'Iryna M.',
    applicant_city: 'Potsdam',
    created_at: '2026-03-03T08:00:00Z',
  }),
  application({
    id: 22,
    lot_id: 2,
    lot: lotRef(2),
    status: 'pending',
    queue_position: 2,
    applicant_name: 'Mykola B.',
    created_at: '2026-03-04T08:00:00Z',
    internal_notes: '[04.03.2026 10:00] volunteer: vera@example.org | CONTACT | Angerufen',
  }),
  application({
    id: 31,
    lot_id: 3,
    lot: lotRef(3, 'taken'),
    status: 'completed',
    applicant_name: 'Sofia L.',
    created_at: '2026-02-01T08:00:00Z',
  }),
];

function handlers(seen: URL[] = []) {
  return [
    meHandler(ADMIN),
    http.get(apiUrl('/applications'), ({ request }) => {
      seen.push(new URL(request.url));
      return HttpResponse.json({ applications: APPS, total: 45 });
    }),
    http.get(apiUrl('/applications/stats'), () =>
      HttpResponse.json({
        total: 45,
        pending: 30,
        approved: 5,
        rejected: 8,
        completed: 2,
        lots: [],
      }),
    ),
  ];
}

const groupTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('applications screen', () => {
  test('when the page loads, then stat cards, groups in order (open lots by pending count) and "Seite 1 von 3" show', async () => {
    const seen: URL[] = [];
    server.use(...handlers(seen));
    renderAdmin('/admin/applications');
    await screen.findByText('Petro S.');
    expect(groupTitles()).toEqual(['Lot 2 ID 2', 'Lot 1 ID 1', 'Lot 3 ID 3']);
    expect(screen.getByText('Ausstehend', { selector: 'p' }).nextSibling).toHaveTextContent('30');
    expect(screen.getByText('Seite 1 von 3')).toBeInTheDocument();
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ limit: '20', skip: '0' });
    // every group is open
    for (const toggle of screen.getAllByRole('button', { name: /zuklappen/ })) {
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
    }
  });

  test('when the approved application of a lot is on another page (the pending filter), then its pending ones still show the hint instead of approve and reject', async () => {
    const lot = { ...lotRef(1, 'reserved'), held_by: { id: 11, applicant_name: 'Olena K.' } };
    server.use(
      ...handlers(),
      http.get(apiUrl('/applications'), () =>
        HttpResponse.json({
          applications: [APPS[1]!, APPS[2]!].map((a) => (a.lot_id === 1 ? { ...a, lot } : a)),
          total: 2,
        }),
      ),
    );
    renderAdmin('/admin/applications');
    const petro = (await screen.findByText('Petro S.')).closest('li')!;
    expect(within(petro).queryByRole('button', { name: 'Genehmigen' })).not.toBeInTheDocument();
    expect(within(petro).queryByRole('button', { name: 'Ablehnen' })).not.toBeInTheDocument();
    expect(
      within(petro).getByText(/Das Lot ist für Bewerbung #11 \(Olena K\.\) reserviert/),
    ).toBeInTheDocument();
    const iryna = screen.getByText('Iryna M.').closest('li')!;
    expect(within(iryna).getByRole('button', { name: 'Genehmigen' })).toBeInTheDocument();
  });

  test('when a lot is reserved for one application, then its pending ones show the hint instead of approve and reject', async () => {
    server.use(...handlers());
    renderAdmin('/admin/applications');
    const petro = (await screen.findByText('Petro S.')).closest('li')!;
    expect(within(petro).queryByRole('button', { name: 'Genehmigen' })).not.toBeInTheDocument();
    expect(
      within(petro).getByText(/Das Lot ist für Bewerbung #11 \(Olena K\.\) reserviert/),
    ).toBeInTheDocument();
    const olena = screen.getByText('Olena K.').closest('li')!;
    expect(within(olena).getByRole('button', { name: 'Abschließen' })).toBeInTheDocument();
    expect(
      within(olena).getByRole('button', { name: 'Reservierung aufheben' }),
    ).toBeInTheDocument();
    const iryna = screen.getByText('Iryna M.').closest('li')!;
    expect(within(iryna).getByText('Als Nächstes dran')).toBeInTheDocument();
    expect(within(iryna).getByRole('button', { name: 'Genehmigen' })).toBeInTheDocument();
    // the prefilled message is in the family's language (Ukrainian here), not the page's
    const href = within(iryna)
      .getByRole('link', { name: /WhatsApp/ })
      .getAttribute('href')!;
    expect(href).toMatch(/^https:\/\/wa\.me\/4917612345678\?text=/);
    expect(decodeURIComponent(href.split('?text=')[1]!)).toMatch(
      /^Добрий день, Iryna M\.! Це Möbelbrücke\. Пишемо щодо Вашої заявки на «Лот \d+» \(лот № \d+\)\.$/,
    );
    const sofia = screen.getByText('Sofia L.').closest('li')!;
    expect(within(sofia).queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument();
    expect(within(sofia).getByText('Die Übergabe ist abgeschlossen.')).toBeInTheDocument();
  });

  test('when an application is rejected, then a note is required and goes with the status', async () => {
    let body: unknown;
    server.use(
      ...handlers(),
      http.patch(apiUrl('/applications/:id/status'), async ({ request, params }) => {
        body = { id: params.id, ...((await request.json()) as object) };
        return HttpResponse.json(APPS[2]);
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    const iryna = (await screen.findByText('Iryna M.')).closest('li')!;
    await user.click(within(iryna).getByRole('button', { name: 'Ablehnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bewerbung von Iryna M. ablehnen' });
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(
      within(dialog).getByText('Für eine Ablehnung ist eine Notiz erforderlich'),
    ).toBeInTheDocument();
    expect(body).toBeUndefined();
    await user.type(within(dialog).getByLabelText('Notiz (erforderlich)'), 'Wohnung zu klein');
    expect(within(dialog).getByText('16 / 1000 Zeichen')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(
      await screen.findByText('Status erfolgreich zu „Abgelehnt“ geändert'),
    ).toBeInTheDocument();
    expect(body).toEqual({ id: '21', status: 'rejected', note: 'Wohnung zu klein' });
  });

  test('when an application is approved, then the card follows the request until the lot is reserved and the application approved, then stats and lots are read again', async () => {
    const seen: URL[] = [];
    let stage: 'pending' | 'requested' | 'approved' = 'pending';
    let statsReads = 0;
    const irynaNow = () =>
      stage === 'pending'
        ? APPS[2]!
        : stage === 'requested'
          ? {
              ...APPS[2]!,
              approval: {
                state: 'requested' as const,
                requested_at: '2026-03-05T10:00:00Z',
                requested_by: {
                  id: 1,
                  name: 'Admin',
                  email: 'admin@moebelbruecke.local',
                  role: 'admin',
                },
                note: null,
                reason: null,
                lot_status: null,
                ended_at: null,
              },
            }
          : { ...APPS[2]!, status: 'approved' as const };
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/applications'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json({
          applications: APPS.map((a) => (a.id === 21 ? irynaNow() : a)),
          total: 45,
        });
      }),
      http.get(apiUrl('/applications/stats'), () => {
        statsReads += 1;
        return HttpResponse.json({
          total: 45,
          pending: 30,
          approved: 5,
          rejected: 8,
          completed: 2,
          lots: [],
        });
      }),
      http.patch(apiUrl('/applications/:id/status'), () => {
        stage = 'requested';
        return HttpResponse.json(irynaNow(), { status: 202 });
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    const iryna = () => screen.getByText('Iryna M.').closest('li')!;
    await screen.findByText('Iryna M.');
    await user.click(within(iryna()).getByRole('button', { name: 'Genehmigen' }));
    const dialog = await screen.findByRole('dialog', { name: /Iryna M\./ });
    await user.click(within(dialog).getByRole('button', { name: 'Genehmigen' }));
    expect(
      await screen.findByText('Genehmigung angefragt: Das Lot wird reserviert.'),
    ).toBeInTheDocument();
    // while the catalog reserves: a notice instead of the buttons, and the list is read again
    expect(
      await within(iryna()).findByText(
        /Genehmigung läuft: Das Lot wird für diese Familie reserviert/,
      ),
    ).toBeInTheDocument();
    expect(within(iryna()).queryByRole('button', { name: 'Genehmigen' })).toBeNull();
    // the other pending application of the lot cannot be approved meanwhile
    const mykola = screen.getByText('Mykola B.').closest('li')!;
    expect(within(mykola).queryByRole('button', { name: 'Genehmigen' })).toBeNull();
    const readsWhileRequested = seen.length;
    const statsBefore = statsReads;
    stage = 'approved';
    await waitFor(
      () => expect(within(iryna()).getAllByText('Genehmigt').length).toBeGreaterThan(0),
      { timeout: 4000 },
    );
    expect(seen.length).toBeGreaterThan(readsWhileRequested);
    expect(within(iryna()).queryByText(/Genehmigung läuft/)).toBeNull();
    await waitFor(() => expect(statsReads).toBeGreaterThan(statsBefore));
    // once final, the list is not polled any more
    const settled = seen.length;
    await new Promise((r) => setTimeout(r, 1600));
    expect(seen.length).toBe(settled);
  });

  test('when an approval failed, then the card says why and the application can be approved again', async () => {
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/applications'), () =>
        HttpResponse.json({
          applications: APPS.map((a) =>
            a.id === 21
              ? {
                  ...a,
                  approval: {
                    state: 'failed',
                    requested_at: '2026-03-05T10:00:00Z',
                    requested_by: {
                      id: 1,
                      name: 'Admin',
                      email: 'admin@moebelbruecke.local',
                      role: 'admin',
                    },
                    note: null,
                    reason: 'not_available',
                    lot_status: 'archived',
                    ended_at: '2026-03-05T10:00:01Z',
                  },
                }
              : a,
          ),
          total: 45,
        }),
      ),
      http.get(apiUrl('/applications/stats'), () =>
        HttpResponse.json({
          total: 45,
          pending: 30,
          approved: 5,
          rejected: 8,
          completed: 2,
          lots: [],
        }),
      ),
    );
    renderAdmin('/admin/applications');
    const iryna = (await screen.findByText('Iryna M.')).closest('li')!;
    expect(
      within(iryna).getByText(
        'Genehmigung nicht möglich: Das Lot ist Archiviert. Die Bewerbung bleibt ausstehend.',
      ),
    ).toBeInTheDocument();
    expect(within(iryna).getByRole('button', { name: 'Genehmigen' })).toBeInTheDocument();
  });

  test('when notes are opened, then they are listed with user and action, and an empty note is refused', async () => {
    let sent: unknown;
    server.use(
      ...handlers(),
      http.patch(apiUrl('/applications/:id/notes'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(APPS[3]);
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    const mykola = (await screen.findByText('Mykola B.')).closest('li')!;
    await user.click(within(mykola).getByRole('button', { name: /Interne Notizen \(1\)/ }));
    expect(within(mykola).getByText('Angerufen')).toBeInTheDocument();
    expect(within(mykola).getByText('Freiwilliger: vera@example.org')).toBeInTheDocument();
    expect(within(mykola).getByText('Kontakt')).toBeInTheDocument();
    await user.click(within(mykola).getByRole('button', { name: 'Notiz hinzufügen' }));
    expect(within(mykola).getByRole('alert')).toHaveTextContent('Notiz darf nicht leer sein');
    await user.type(within(mykola).getByLabelText('Neue Notiz'), 'Kommt Samstag');
    await user.click(within(mykola).getByRole('button', { name: 'Notiz hinzufügen' }));
    expect(await screen.findByText('Notiz erfolgreich hinzugefügt')).toBeInTheDocument();
    expect((sent as { internal_notes: string }).internal_notes).toMatch(
      /^\[\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}\] admin: admin@moebelbruecke\.local \| NOTE_ADD \| Kommt Samstag$/,
    );
  });

  test('when the search is typed, then only matching applications stay and nothing is sent to the server', async () => {
    const seen: URL[] = [];
    server.use(...handlers(seen));
    const { user } = renderAdmin('/admin/applications');
    await screen.findByText('Petro S.');
    const calls = seen.length;
    await user.type(screen.getByRole('searchbox'), 'potsdam');
    await waitFor(() => expect(screen.queryByText('Petro S.')).not.toBeInTheDocument());
    expect(screen.getByText('Iryna M.')).toBeInTheDocument();
    expect(groupTitles()).toEqual(['Lot 2 ID 2']);
    expect(seen).toHaveLength(calls);
  });

  test('when the status filter and the next page are chosen, then the server gets status, limit and skip', async () => {
    const seen: URL[] = [];
    server.use(...handlers(seen));
    const { user } = renderAdmin('/admin/applications');
    await screen.findByText('Petro S.');
    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    await waitFor(() =>
      expect(Object.fromEntries(seen.at(-1)!.searchParams)).toEqual({
        status: 'pending',
        limit: '20',
        skip: '20',
      }),
    );
  });

  test('when a family came through a partner agency, then its card names agency and referrer, and admins filter by agency', async () => {
    const seen: URL[] = [];
    const referred = application({
      ...APPS[2]!,
      referral: {
        id: 4,
        agency: { id: 3, name: 'Caritas Mitte' },
        referrer: { name: 'Sara Sozial' },
        expires_at: '2026-04-02T08:00:00Z',
      },
    });
    server.use(...handlers());
    server.use(
      http.get(apiUrl('/applications'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json({ applications: [referred, APPS[3]!], total: 2 });
      }),
      http.get(apiUrl('/agencies/'), () =>
        HttpResponse.json({
          agencies: [
            {
              id: 3,
              name: 'Caritas Mitte',
              city: 'Berlin',
              contact_email: 'k@caritas.example',
              active: true,
              created_at: '2026-01-01T00:00:00Z',
            },
          ],
        }),
      ),
    );
    const { user, router } = renderAdmin('/admin/applications');
    const iryna = (await screen.findByText('Iryna M.')).closest('li')!;
    expect(within(iryna).getByText('Vermittelt durch Caritas Mitte (Sara Sozial)')).toBeVisible();
    const mykola = screen.getByText('Mykola B.').closest('li')!;
    expect(within(mykola).queryByText(/Vermittelt durch/)).not.toBeInTheDocument();
    await screen.findByRole('option', { name: 'Caritas Mitte' });
    await user.selectOptions(screen.getByLabelText('Partnerorganisation'), 'Caritas Mitte');
    await waitFor(() =>
      expect(Object.fromEntries(seen.at(-1)!.searchParams)).toEqual({
        agency_id: '3',
        limit: '20',
        skip: '0',
      }),
    );
    expect(router.state.location.search).toBe('?agency=3');
  });
});
