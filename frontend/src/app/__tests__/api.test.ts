import { http, HttpResponse } from 'msw';
import { api, type ApiError } from '../api';
import { busyDelayMs, busyWaiting } from '../../lib/busy';
import { i18n } from '../i18n';
import { makeStore } from '../store';
import { apiUrl, server } from '../../test/server';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, void>({ query: () => '/probe' }),
  }),
});

async function callProbe(): Promise<{ data?: unknown; error?: ApiError }> {
  const store = makeStore();
  const result = await store.dispatch(probeApi.endpoints.probe.initiate());
  return { data: result.data, error: result.error as ApiError | undefined };
}

describe('base query', () => {
  test('when the page is Ukrainian, then calls go to /api/v1 with Accept-Language uk', async () => {
    let language: string | null = null;
    server.use(
      http.get(apiUrl('/probe'), ({ request }) => {
        language = request.headers.get('accept-language');
        return HttpResponse.json({ ok: true });
      }),
    );
    await i18n.changeLanguage('uk');
    expect((await callProbe()).data).toEqual({ ok: true });
    expect(language).toBe('uk');
  });

  test('when a service answers with its error shape, then status, code, message and detail are kept', async () => {
    const detail = [
      { loc: ['body', 'applicant_phone'], msg: 'Ungültige Telefonnummer', type: 'invalid_phone' },
    ];
    server.use(
      http.get(apiUrl('/probe'), () =>
        HttpResponse.json(
          { success: false, code: 'VALIDATION_FAILED', message: 'Bitte prüfen', detail },
          { status: 422 },
        ),
      ),
    );
    expect((await callProbe()).error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'Bitte prüfen',
      detail,
    });
  });

  test('when an answer carries only detail or error, then that text becomes the message', async () => {
    server.use(
      http.get(apiUrl('/probe'), () => HttpResponse.json({ error: 'Kaputt' }, { status: 400 })),
    );
    expect((await callProbe()).error).toMatchObject({
      status: 400,
      code: 'HTTP_ERROR',
      message: 'Kaputt',
    });
  });

  test("when a proxy answers with an HTML page, then the error says 'HTTP {status}: {text}' (back-office §8 Generic)", async () => {
    server.use(
      http.get(
        apiUrl('/probe'),
        () =>
          new HttpResponse('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      ),
    );
    expect((await callProbe()).error).toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'HTTP 502: Bad Gateway',
      generic: true,
    });
  });

  test('when a JSON answer carries no message and no reason phrase, then the error says HTTP and the status', async () => {
    server.use(
      // an HTTP/2 answer has no reason phrase (one of spaces stands in for it here)
      http.get(apiUrl('/probe'), () => HttpResponse.json({}, { status: 503, statusText: ' ' })),
    );
    expect((await callProbe()).error).toMatchObject({
      status: 503,
      code: 'HTTP_ERROR',
      message: 'HTTP 503',
      generic: true,
    });
    server.use(
      http.get(apiUrl('/probe'), () =>
        HttpResponse.json({}, { status: 503, statusText: 'Service Unavailable' }),
      ),
    );
    expect((await callProbe()).error).toMatchObject({
      message: 'HTTP 503: Service Unavailable',
    });
  });

  test('when the network is down, then the error has status 0 and code NETWORK_ERROR', async () => {
    server.use(http.get(apiUrl('/probe'), () => HttpResponse.error()));
    expect((await callProbe()).error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  test('when the platform sheds a call under load (503 SERVICE_BUSY, Retry-After), then it waits, says so, and tries again', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/probe'), () => {
        calls++;
        if (calls === 1)
          return HttpResponse.json(
            {
              success: false,
              code: 'SERVICE_BUSY',
              message: 'Gerade sind sehr viele Besucher hier.',
            },
            { status: 503, headers: { 'retry-after': '1' } },
          );
        return HttpResponse.json({ ok: true });
      }),
    );
    const seen: number[] = [];
    const watch = setInterval(() => seen.push(busyWaiting()), 50);
    try {
      expect((await callProbe()).data).toEqual({ ok: true });
    } finally {
      clearInterval(watch);
    }
    expect(calls).toBe(2);
    expect(Math.max(...seen)).toBe(1);
    expect(busyWaiting()).toBe(0);
  });

  test('when a 503 says nothing of being busy (a service that is down), then it is not tried again here', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/probe'), () => {
        calls++;
        return HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'weg' }, { status: 503 });
      }),
    );
    expect((await callProbe()).error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(calls).toBe(1);
  });
});

describe('the wait before trying a shed call again', () => {
  test('then it starts at Retry-After, doubles, stays under 15 s and is spread by a quarter', () => {
    expect(busyDelayMs(2, 0, 0.5)).toBe(2000);
    expect(busyDelayMs(2, 1, 0.5)).toBe(4000);
    expect(busyDelayMs(2, 5, 0.5)).toBe(15000);
    expect(busyDelayMs(2, 0, 0)).toBe(1500);
    expect(busyDelayMs(2, 0, 1)).toBe(2500);
  });
});
