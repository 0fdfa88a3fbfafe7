import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Referral } from '@furniture/contracts/api/referrals';
import type { ApiError } from '../../../../app/api';
import { apiUrl, server } from '../../../../test/server';
import { apiError, CATEGORIES, lot } from '../../../../test/fixtures';
import { meHandler, REFERRER, renderAdmin } from '../../test/admin-test-utils';
import {
  EMPTY_REFERRAL,
  buildReferralPayload,
  referralFailureOf,
  validateReferralForm,
} from '../lib/referral-form';
import { referralState } from '../lib/referral-state';

const TOKEN = 'b'.repeat(64);

function referral(overrides: Partial<Referral> = {}): Referral {
  return {
    id: 1,
    application_id: 11,
    wish_id: null,
    agency: { id: 3, name: 'Caritas Mitte' },
    family: { name: 'Familie Kovalenko', phone: '+4915204567831' },
    lot: { id: 5, name: { de: 'Kinderbett', uk: 'Дитяче ліжко' } },
    status: 'pending',
    queue_position: 2,
    pickup_by: null,
    handover_url: null,
    booking: null,
    created_at: '2026-01-10T09:00:00.000Z',
    expires_at: '2026-02-09T09:00:00.000Z',
    ...overrides,
  };
}

describe('the referrer view', () => {
  beforeEach(() => server.use(meHandler(REFERRER)));

  test('when the families are listed, then each says where it stands; an approved one shows its deadline and the link to copy', async () => {
    server.use(
      http.get(apiUrl('/referrals/'), () =>
        HttpResponse.json({
          referrals: [
            referral(),
            referral({
              id: 2,
              family: { name: 'Familie Hrytsenko', phone: '+4915100000002' },
              status: 'approved',
              queue_position: null,
              pickup_by: '2026-01-20',
              handover_url: `/handover/${TOKEN}`,
            }),
            referral({
              id: 3,
              family: { name: 'Familie Melnyk', phone: '+491' },
              status: 'expired',
            }),
            referral({
              id: 4,
              application_id: null,
              wish_id: 8,
              lot: null,
              family: { name: 'Familie Shevchenko', phone: '+492' },
              status: 'active',
            }),
          ],
        }),
      ),
    );
    renderAdmin('/admin/referrals', REFERRER);
    const list = await screen.findByRole('list', { name: 'Angemeldete Familien' });
    const item = (name: string) => within(list).getByRole('listitem', { name });
    const waiting = item('Familie Kovalenko');
    expect(within(waiting).getByText('Wartet')).toBeVisible();
    expect(within(waiting).getByText('Platz 2 in der Warteschlange')).toBeVisible();
    expect(within(waiting).getByText('Kinderbett')).toBeVisible();
    const approved = item('Familie Hrytsenko');
    expect(within(approved).getByText('Genehmigt')).toBeVisible();
    expect(within(approved).getByText('Genehmigt – abholen bis 20.01.2026')).toBeVisible();
    expect(
      within(approved).getByRole('link', { name: `http://localhost/handover/${TOKEN}` }),
    ).toBeVisible();
    expect(
      within(approved).getByRole('button', { name: 'Link für Familie Hrytsenko kopieren' }),
    ).toBeEnabled();
    expect(within(item('Familie Melnyk')).getByText('Abgelaufen')).toBeVisible();
    expect(within(item('Familie Melnyk')).queryByRole('link')).not.toBeInTheDocument();
    const wish = item('Familie Shevchenko');
    expect(within(wish).getByText('Wunsch aktiv')).toBeVisible();
    expect(within(wish).getByText('Wunsch (noch kein passendes Lot)')).toBeVisible();
  });

  test('when a family is referred for a lot in the German UI, then the family language and household go with it and the list follows', async () => {
    let body: unknown;
    let made = false;
    server.use(
      http.get(apiUrl('/referrals/'), () =>
        HttpResponse.json({ referrals: made ? [referral()] : [] }),
      ),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
      http.get(apiUrl('/lots/'), ({ request }) => {
        const q = new URL(request.url).searchParams;
        expect(q.get('status')).toBe('available');
        return HttpResponse.json([lot(5, { name: { de: 'Kinderbett', uk: 'Дитяче ліжко' } })]);
      }),
      http.post(apiUrl('/referrals/'), async ({ request }) => {
        body = await request.json();
        made = true;
        return HttpResponse.json(
          {
            id: 1,
            application_id: 11,
            wish_id: null,
            status: 'pending',
            queue_position: 2,
            expires_at: '2026-02-09T09:00:00.000Z',
            agency: { id: 3, name: 'Caritas Mitte' },
          },
          { status: 201 },
        );
      }),
    );
    const { user, router } = renderAdmin('/admin/referrals', REFERRER);
    await user.click(await screen.findByRole('link', { name: 'Familie anmelden' }));
    await screen.findByRole('heading', { level: 1, name: 'Familie anmelden' });
    await user.click(screen.getByRole('button', { name: 'Familie anmelden' }));
    expect(screen.getByLabelText(/^Lot/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Lot/)).toHaveFocus();
    expect(body).toBeUndefined();
    await screen.findByRole('option', { name: 'Kinderbett' });
    await user.selectOptions(screen.getByLabelText(/^Lot/), 'Kinderbett');
    await user.type(screen.getByLabelText(/^Name der Familie/), 'Familie Kovalenko');
    await user.type(screen.getByLabelText(/^Telefon/), '+49 152 0456 7831');
    await user.type(screen.getByLabelText(/^WhatsApp/), '+49 152 0456 7831');
    await user.type(screen.getByLabelText(/^Ort/), 'Dresden');
    await user.type(screen.getByLabelText(/^Personen im Haushalt/), '4');
    expect(screen.getByLabelText(/^Sprache der Familie/)).toHaveValue('uk');
    await user.click(screen.getByLabelText('Die Familie braucht Hilfe beim Transport'));
    await user.type(screen.getByLabelText(/^Hinweis für das Team/), 'Kommt mit Dolmetscherin.');
    await user.click(screen.getByRole('button', { name: 'Familie anmelden' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/referrals'));
    expect(body).toEqual({
      lot_id: 5,
      family: {
        name: 'Familie Kovalenko',
        phone: '+4915204567831',
        whatsapp: '+4915204567831',
        email: null,
        city: 'Dresden',
        address: 'Не вказано',
        household_size: 4,
        language: 'uk',
        needs_delivery_help: true,
      },
      note: 'Kommt mit Dolmetscherin.',
    });
    expect(
      await screen.findByText('Familie Kovalenko ist angemeldet: Platz 2 in der Warteschlange.'),
    ).toBeVisible();
    expect(await screen.findByRole('listitem', { name: 'Familie Kovalenko' })).toBeVisible();
  });

  test('when the family already applied for the lot, then the page says so in its language and stays', async () => {
    server.use(
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
      http.get(apiUrl('/lots/'), () => HttpResponse.json([lot(5)])),
      http.post(apiUrl('/referrals/'), () =>
        apiError(409, 'ALREADY_APPLIED', 'Ви вже подали заявку на цей лот.'),
      ),
    );
    const { user, router } = renderAdmin('/admin/referrals/new', REFERRER);
    await screen.findByRole('option', { name: 'Sofa 5' });
    await user.selectOptions(screen.getByLabelText(/^Lot/), 'Sofa 5');
    await user.type(screen.getByLabelText(/^Name der Familie/), 'Familie Kovalenko');
    await user.type(screen.getByLabelText(/^Telefon/), '+49 152 0456 7831');
    await user.type(screen.getByLabelText(/^Personen im Haushalt/), '3');
    await user.click(screen.getByRole('button', { name: 'Familie anmelden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Für diese Familie gibt es schon eine Bewerbung für dieses Lot.',
    );
    expect(router.state.location.pathname).toBe('/admin/referrals/new');
  });
});

describe('referral form rules', () => {
  const filled = {
    ...EMPTY_REFERRAL,
    lotId: '5',
    name: 'Familie Kovalenko',
    phone: '+49 152 0456 7831',
    householdSize: '3',
  };

  test('when a wish is chosen, then category, description and the WhatsApp are required', () => {
    expect(validateReferralForm(filled)).toEqual({});
    expect(validateReferralForm({ ...filled, kind: 'wish' })).toEqual({
      categoryId: { key: 'required' },
      description: { key: 'required' },
      whatsapp: { key: 'required' },
    });
    expect(validateReferralForm({ ...filled, householdSize: '0' })).toEqual({
      householdSize: 'householdRange',
    });
    expect(validateReferralForm({ ...filled, householdSize: '21' })).toEqual({
      householdSize: 'householdRange',
    });
  });

  test('when a wish is sent, then it goes as {wish, family} without lot_id', () => {
    const payload = buildReferralPayload({
      ...filled,
      kind: 'wish',
      categoryId: '2',
      description: '  Ein Bett für zwei Kinder ',
      whatsapp: '+49 152 0456 7831',
    });
    expect(payload).not.toHaveProperty('lot_id');
    expect(payload.wish).toEqual({ category_id: 2, description: 'Ein Bett für zwei Kinder' });
    expect(payload.family.whatsapp).toBe('+4915204567831');
  });

  test('when the API refuses, then 429 and a 422 are told apart and the 422 names the fields', () => {
    const tooMany: ApiError = { status: 429, code: 'PHONE_RATE_LIMITED', message: 'x' };
    expect(referralFailureOf(tooMany).key).toBe('tooMany');
    const invalid: ApiError = {
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'Validierungsfehler',
      detail: [{ loc: ['body', 'family', 'household_size'], msg: 'zu groß', type: 'too_big' }],
    };
    expect(referralFailureOf(invalid)).toEqual({
      key: 'validation',
      message: 'Validierungsfehler',
      fieldErrors: { householdSize: 'zu groß' },
    });
  });

  test('when a referral is read, then its state follows status, booking and kind', () => {
    expect(referralState(referral({ status: 'approved' }))).toBe('approved');
    expect(
      referralState(
        referral({
          status: 'approved',
          booking: {
            starts_at: '2026-01-12T10:00:00Z',
            ends_at: '2026-01-12T11:00:00Z',
            kind: 'pickup',
            location: 'Lager',
          },
        }),
      ),
    ).toBe('booked');
    expect(referralState(referral({ status: 'completed' }))).toBe('handedOver');
    expect(referralState(referral({ status: 'rejected' }))).toBe('rejected');
    expect(referralState(referral({ wish_id: 3, application_id: null, status: 'fulfilled' }))).toBe(
      'wishFulfilled',
    );
  });
});
