import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Wish } from '@furniture/contracts/api/applications';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { allowedNextStatuses, canSaveWish, truncate } from '../lib/wish-rules';

function wish(id: number, overrides: Partial<Wish> = {}): Wish {
  return {
    id,
    status: 'active',
    admin_notes: null,
    applicant_name: `Familie ${id}`,
    applicant_whatsapp: '+4917612345678',
    applicant_whatsapp_raw: '0176 12345678',
    applicant_email: null,
    furniture_category: 2,
    furniture_description: 'Ein Bett für ein Kind, gern mit Matratze',
    language: 'uk',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('wish status rules', () => {
  test('when a wish is active, then fulfilled and cancelled are allowed; cancelled may go back to active; fulfilled is final', () => {
    expect(allowedNextStatuses('active')).toEqual(['fulfilled', 'cancelled']);
    expect(allowedNextStatuses('cancelled')).toEqual(['active']);
    expect(allowedNextStatuses('fulfilled')).toEqual([]);
  });

  test('when nothing changed or the target is not allowed, then saving is not possible', () => {
    expect(canSaveWish({ current: 'active', chosen: 'active', notes: '', savedNotes: null })).toBe(
      false,
    );
    expect(
      canSaveWish({ current: 'active', chosen: 'active', notes: ' angerufen ', savedNotes: null }),
    ).toBe(true);
    expect(
      canSaveWish({ current: 'cancelled', chosen: 'fulfilled', notes: '', savedNotes: null }),
    ).toBe(false);
    expect(
      canSaveWish({ current: 'cancelled', chosen: 'active', notes: '', savedNotes: null }),
    ).toBe(true);
    expect(
      canSaveWish({ current: 'fulfilled', chosen: 'fulfilled', notes: 'neu', savedNotes: null }),
    ).toBe(false);
  });

  test('when texts are longer than the limit, then they are cut with an ellipsis', () => {
    expect(truncate('a'.repeat(50), 50)).toBe('a'.repeat(50));
    expect(truncate(`${'a'.repeat(50)}b`, 50)).toBe(`${'a'.repeat(50)}…`);
  });
});

describe('wishes screens', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      // the detail's messages (issue 30; their own tests: admin/messages)
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: [] } }),
      ),
      http.post(apiUrl('/messages/opt-outs/lookup'), async ({ request }) => {
        const { phone } = (await request.json()) as { phone: string };
        return HttpResponse.json({ success: true, data: { phone, whatsapp: false, sms: false } });
      }),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );

  test('when the list has more than a page, then texts are truncated, paging says "Zeige x bis y von n Wünschen" and the search waits 500 ms', async () => {
    const seen: URL[] = [];
    server.use(
      http.get(apiUrl('/wishes'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json({
          wishes: [
            wish(1, {
              furniture_description: 'x'.repeat(60),
              applicant_whatsapp_raw: '9'.repeat(45),
            }),
          ],
          total: 41,
        });
      }),
    );
    const { user } = renderAdmin('/admin/wishes');
    expect(await screen.findByText(`${'x'.repeat(50)}…`)).toBeInTheDocument();
    expect(screen.getByText(`${'9'.repeat(40)}…`)).toBeInTheDocument();
    expect(screen.getByText('Betten', { selector: 'td' })).toBeInTheDocument();
    expect(screen.getByText('Zeige 1 bis 20 von 41 Wünschen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(await screen.findByText('Zeige 21 bis 40 von 41 Wünschen')).toBeInTheDocument();
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.type(screen.getByRole('searchbox'), 'bett');
      const before = seen.length;
      act(() => jest.advanceTimersByTime(499));
      expect(seen).toHaveLength(before);
      act(() => jest.advanceTimersByTime(1));
      await waitFor(() => expect(seen.at(-1)?.searchParams.get('search')).toBe('bett'));
    } finally {
      jest.useRealTimers();
    }
    expect(Object.fromEntries(seen.at(-1)!.searchParams)).toEqual({
      search: 'bett',
      limit: '20',
      skip: '0',
    });
  });

  test('when the status dialog opens on an active wish, then only the allowed statuses are offered and the change is previewed and saved', async () => {
    let sent: { status: string | null; body: unknown } | undefined;
    let current = wish(5, { admin_notes: 'Familie angerufen' });
    server.use(
      http.get(apiUrl('/wishes/5'), () => HttpResponse.json(current)),
      http.patch(apiUrl('/wishes/5/status'), async ({ request }) => {
        sent = {
          status: new URL(request.url).searchParams.get('status'),
          body: await request.json(),
        };
        current = { ...current, status: 'fulfilled', updated_at: '2026-03-05T10:00:00.000Z' };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderAdmin('/admin/wishes/5');
    await user.click(await screen.findByRole('button', { name: 'Status ändern' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status von Wunsch #5 ändern' });
    const choices = within(dialog).getByRole('group', { name: 'Neuer Status' });
    expect(
      within(choices)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Erfüllt', 'Storniert']);
    const save = within(dialog).getByRole('button', { name: 'Speichern' });
    expect(save).toBeDisabled();
    expect(within(dialog).getByLabelText(/Interne Notizen/)).toHaveValue('Familie angerufen');
    await user.click(within(choices).getByRole('button', { name: 'Erfüllt' }));
    expect(within(dialog).getByText('Status wird geändert von:').parentElement).toHaveTextContent(
      'Status wird geändert von: Aktiv→Erfüllt',
    );
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual({ status: 'fulfilled', body: { admin_notes: 'Familie angerufen' } });
    expect(await screen.findByText(/Zuletzt geändert am/)).toBeInTheDocument();
  });

  test('when the wish is fulfilled, then the dialog offers no status and says why', async () => {
    server.use(
      http.get(apiUrl('/wishes/6'), () => HttpResponse.json(wish(6, { status: 'fulfilled' }))),
    );
    const { user } = renderAdmin('/admin/wishes/6');
    await user.click(await screen.findByRole('button', { name: 'Status ändern' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Erfüllte Wünsche können nicht mehr geändert werden.'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('group')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Speichern' })).toBeDisabled();
  });

  test('when the server refuses the change, then the error shows inside the dialog', async () => {
    server.use(
      http.get(apiUrl('/wishes/7'), () => HttpResponse.json(wish(7, { status: 'cancelled' }))),
      http.patch(apiUrl('/wishes/7/status'), () =>
        HttpResponse.json(
          {
            success: false,
            code: 'WISH_TRANSITION_NOT_ALLOWED',
            message:
              'Der Status eines Wunsches kann nicht von „cancelled“ zu „active“ geändert werden.',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderAdmin('/admin/wishes/7');
    await user.click(await screen.findByRole('button', { name: 'Status ändern' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Aktiv' }));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'kann nicht von „cancelled“ zu „active“',
    );
  });

  test('when the wish does not exist, then "Wunsch nicht gefunden" offers retry and the way back', async () => {
    server.use(
      http.get(apiUrl('/wishes/99'), () =>
        HttpResponse.json(
          { success: false, code: 'WISH_NOT_FOUND', message: 'Wunsch nicht gefunden' },
          { status: 404 },
        ),
      ),
    );
    renderAdmin('/admin/wishes/99');
    expect(await screen.findByText('Wunsch nicht gefunden')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zu den Wünschen' })).toHaveAttribute(
      'href',
      '/admin/wishes',
    );
  });
});
