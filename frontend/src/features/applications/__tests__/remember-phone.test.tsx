import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { i18n } from '../../../app/i18n';
import { apiError, eligibility, lot, queueInfo, serveCatalog } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl } from '../../../test/server';

/*
 * "Remember my number on this device" (issue 15): off by default; with it the phone is kept in
 * local storage so that lot pages show "already applied" and the queue position on later visits;
 * "forget" removes it.
 */

const DEVICE_KEY = 'moebelbruecke.rememberedPhone';
const TAB_KEY = 'moebelbruecke.applicantPhone';
const PHONE = '+491761234567';

/** The lot page's queue info: "applied, place 2" when asked with PHONE; records what was asked. */
function serveLot() {
  const asked: (string | null)[] = [];
  serveCatalog(
    { lots: [lot(5)] },
    http.get(apiUrl('/lots/5/applications-info'), ({ request }) => {
      const phone = new URL(request.url).searchParams.get('phone');
      asked.push(phone);
      return HttpResponse.json(
        phone === PHONE
          ? queueInfo({
              applications_count: 2,
              user_has_application: true,
              queue_position: 2,
              user_application_status: 'pending',
            })
          : queueInfo({ applications_count: 2 }),
      );
    }),
    http.get(apiUrl('/lots/5/can-apply'), () => HttpResponse.json(eligibility())),
    http.post(apiUrl('/applications/'), () =>
      HttpResponse.json(
        { id: 41, status: 'pending', created_at: '2026-05-01T10:00:00Z', queue_position: 2 },
        { status: 201 },
      ),
    ),
  );
  return asked;
}

async function apply(remember: boolean) {
  const view = renderApp('/lots/5');
  await view.user.click(await screen.findByRole('button', { name: 'Jetzt bewerben' }));
  const dialog = await screen.findByRole('dialog', { name: 'Für dieses Lot bewerben' });
  const box = within(dialog).getByRole('checkbox', {
    name: /^Meine Nummer auf diesem Gerät merken/,
  });
  // off by default
  expect(box).not.toBeChecked();
  if (remember) await view.user.click(box);
  await view.user.type(within(dialog).getByLabelText(/^Name/), 'Olena Kowalenko');
  await view.user.type(within(dialog).getByLabelText(/^Telefonnummer/), '+49 176 1234567');
  await view.user.type(within(dialog).getByLabelText(/^WhatsApp-Nummer/), '+49 176 1234567');
  await view.user.click(within(dialog).getByRole('button', { name: 'Bewerbung senden' }));
  await screen.findByText('Vielen Dank! Ihre Bewerbung ist eingegangen.');
  return view;
}

describe('remember my number on this device', () => {
  test('when a family applies without ticking "remember", then only this tab knows the number and nothing is in local storage', async () => {
    serveLot();
    await apply(false);
    expect(sessionStorage.getItem(TAB_KEY)).toBe(PHONE);
    expect(localStorage.getItem(DEVICE_KEY)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Nummer vergessen' })).toBeNull();
  });

  test('when a family applies with "remember" ticked, then the number is kept on the device and shown masked with a forget control', async () => {
    serveLot();
    await apply(true);
    expect(localStorage.getItem(DEVICE_KEY)).toBe(PHONE);
    expect(
      await screen.findByText('Auf diesem Gerät ist Ihre Nummer gespeichert (… 4567).'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nummer vergessen' })).toBeInTheDocument();
  });

  test('when the family comes back later (a new tab) and this device remembers its number, then the lot page shows "already applied" and its place; forget removes the number and the page asks without it', async () => {
    localStorage.setItem(DEVICE_KEY, PHONE);
    const asked = serveLot();
    const view = renderApp('/lots/5');
    await screen.findByText('Sie haben sich bereits für dieses Lot beworben.');
    const mine = screen.getByRole('status');
    expect(within(mine).getByText('Ihr Platz in der Warteschlange: 2')).toBeInTheDocument();
    expect(asked).toContain(PHONE);

    await view.user.click(screen.getByRole('button', { name: 'Nummer vergessen' }));
    expect(localStorage.getItem(DEVICE_KEY)).toBeNull();
    expect(sessionStorage.getItem(TAB_KEY)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Jetzt bewerben' })).toBeInTheDocument();
    expect(screen.queryByText('Sie haben sich bereits für dieses Lot beworben.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Nummer vergessen' })).toBeNull();
    expect(asked.at(-1)).toBeNull();
  });

  test('when a remembering family applies again with the box unticked, then the device forgets the number', async () => {
    localStorage.setItem(DEVICE_KEY, '+491760000000');
    serveLot();
    const view = renderApp('/lots/5');
    await view.user.click(await screen.findByRole('button', { name: 'Jetzt bewerben' }));
    const dialog = await screen.findByRole('dialog', { name: 'Für dieses Lot bewerben' });
    const box = within(dialog).getByRole('checkbox', {
      name: /^Meine Nummer auf diesem Gerät merken/,
    });
    // the family chose it before: ticked, and its number is filled in
    expect(box).toBeChecked();
    expect(within(dialog).getByLabelText(/^Telefonnummer/)).toHaveValue('+491760000000');
    await view.user.click(box);
    await view.user.type(within(dialog).getByLabelText(/^Name/), 'Olena Kowalenko');
    await view.user.type(within(dialog).getByLabelText(/^WhatsApp-Nummer/), '+49 176 0000000');
    await view.user.click(within(dialog).getByRole('button', { name: 'Bewerbung senden' }));
    await screen.findByText('Vielen Dank! Ihre Bewerbung ist eingegangen.');
    expect(localStorage.getItem(DEVICE_KEY)).toBeNull();
  });

  test('when the status check is sent with "remember" ticked (in Ukrainian), then the number is kept; the next visit fills it in, and forget empties the form', async () => {
    await i18n.changeLanguage('uk');
    serveCatalog(
      {},
      http.get(apiUrl('/applications/public/check-status/:phone'), () =>
        HttpResponse.json({ applications: [] }),
      ),
    );
    const first = renderApp('/check-status');
    const input = await screen.findByRole('textbox', { name: /Номер телефону/ });
    const box = screen.getByRole('checkbox', { name: /^Запам'ятати мій номер на цьому пристрої/ });
    expect(box).not.toBeChecked();
    await first.user.type(input, '0176 1234567');
    await first.user.click(box);
    await first.user.click(screen.getByRole('button', { name: 'Перевірити статус' }));
    await waitFor(() => expect(localStorage.getItem(DEVICE_KEY)).toBe('01761234567'));
    first.unmount();

    const again = renderApp('/check-status');
    expect(await screen.findByRole('textbox', { name: /Номер телефону/ })).toHaveValue(
      '01761234567',
    );
    expect(
      screen.getByRole('checkbox', { name: /^Запам'ятати мій номер на цьому пристрої/ }),
    ).toBeChecked();
    expect(screen.getByText('На цьому пристрої збережено ваш номер (… 4567).')).toBeInTheDocument();
    await again.user.click(screen.getByRole('button', { name: 'Забути номер' }));
    expect(localStorage.getItem(DEVICE_KEY)).toBeNull();
    expect(screen.getByRole('textbox', { name: /Номер телефону/ })).toHaveValue('');
    expect(
      screen.getByRole('checkbox', { name: /^Запам'ятати мій номер на цьому пристрої/ }),
    ).not.toBeChecked();
  });

  test('when the status check is refused for too many lookups, then the page says to wait', async () => {
    serveCatalog(
      {},
      http.get(apiUrl('/applications/public/check-status/:phone'), () =>
        apiError(429, 'RATE_LIMITED', 'Zu viele Anfragen.'),
      ),
    );
    const view = renderApp('/check-status');
    await view.user.type(
      await screen.findByRole('textbox', { name: /Telefonnummer/ }),
      '0176 1234567',
    );
    await view.user.click(screen.getByRole('button', { name: 'Status prüfen' }));
    expect(
      await screen.findByText(
        'Zu viele Abfragen in kurzer Zeit. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.',
      ),
    ).toBeInTheDocument();
  });
});
