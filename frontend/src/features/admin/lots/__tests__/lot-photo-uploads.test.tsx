// The back-office's photo uploads (issue 46): each photo shrunk in the browser like a donor's
// (2560 px on its long side), one after the other with a bar each, and a failed one sent again.
import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES, lot } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';

// the browser-side checks read the size with their own decode (not under test here)
jest.mock('../../../../lib/image-size', () => ({
  readImageSize: async () => ({ width: 1200, height: 800 }),
}));

// Node's File, which Node's FormData and URL.createObjectURL (the test environment's) accept
const photoFile = (name: string, type = 'image/jpeg') =>
  new NodeFile([new Uint8Array(2000)], name, { type }) as unknown as File;

/** What the media service received: each upload's file name, type and size. */
type Received = { name: string; type: string; size: number };

/** The media service's refusals the tests meet, by status. */
const REFUSALS: Record<number, { code: string; message: string }> = {
  503: { code: 'SERVICE_UNAVAILABLE', message: 'Dienst vorübergehend nicht verfügbar.' },
  400: { code: 'PHOTO_CORRUPT', message: 'Die Datei ist beschädigt oder kein Bild.' },
};

/** POST /lots/{id}/photos answering `answers` in turn (then 201s), recording what arrived. */
function photoUploads(lotId: number, answers: number[] = []) {
  const received: Received[] = [];
  const handler = http.post(apiUrl(`/lots/${lotId}/photos`), async ({ request }) => {
    const file = (await request.formData()).get('file') as File;
    received.push({ name: file.name, type: file.type, size: file.size });
    const status = answers[received.length - 1] ?? 201;
    const refusal = REFUSALS[status];
    if (refusal) return HttpResponse.json({ success: false, ...refusal }, { status });
    const n = received.length;
    return HttpResponse.json(
      {
        success: true,
        message: 'Foto erfolgreich hochgeladen.',
        data: {
          id: n,
          lot_id: lotId,
          urls: {
            thumbnail: `/media/lots/${lotId}/p${n}-thumbnail.webp`,
            medium: `/media/lots/${lotId}/p${n}-medium.webp`,
            large: `/media/lots/${lotId}/p${n}-large.webp`,
          },
        },
      },
      { status: 201 },
    );
  });
  return { handler, received };
}

function editPage(lotId: number) {
  return [
    http.get(apiUrl(`/lots/${lotId}`), () => HttpResponse.json(lot(lotId, { photos: [] }))),
    http.get(apiUrl(`/lots/${lotId}/photos`), () => HttpResponse.json({ success: true, data: [] })),
    http.get(apiUrl(`/lots/${lotId}/wish-matches`), () =>
      HttpResponse.json({ success: true, data: [] }),
    ),
  ];
}

/**
 * A browser that decodes and draws: photos named big_* are 4000x3000 (a phone's 12 MP), the
 * others 1200x800; the canvas encodes what it is asked for (WebP unless `noWebp`).
 */
function drawingBrowser(opts: { noWebp?: boolean } = {}) {
  const drawn: { width: number; height: number; type: string }[] = [];
  const restore = {
    file: globalThis.File,
    bitmap: globalThis.createImageBitmap,
    context: HTMLCanvasElement.prototype.getContext,
    toBlob: HTMLCanvasElement.prototype.toBlob,
  };
  // the drawn photo becomes a File as in a browser: Node's, which the environment's FormData takes
  globalThis.File = NodeFile as unknown as typeof File;
  globalThis.createImageBitmap = (async (file: File) => {
    const big = file.name.startsWith('big_');
    return { width: big ? 4000 : 1200, height: big ? 3000 : 800, close: () => undefined };
  }) as unknown as typeof createImageBitmap;
  HTMLCanvasElement.prototype.getContext = function () {
    return { drawImage: () => undefined, imageSmoothingQuality: 'low' };
  } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.toBlob = function (callback, type = 'image/png') {
    const answered = opts.noWebp && type === 'image/webp' ? 'image/png' : type;
    drawn.push({ width: this.width, height: this.height, type });
    callback(new Blob([new Uint8Array(500)], { type: answered }));
  };
  const undo = () => {
    globalThis.File = restore.file;
    globalThis.createImageBitmap = restore.bitmap;
    HTMLCanvasElement.prototype.getContext = restore.context;
    HTMLCanvasElement.prototype.toBlob = restore.toBlob;
  };
  return { drawn, undo };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('photo uploads in the back-office', () => {
  let browser: ReturnType<typeof drawingBrowser> | undefined;
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );
  afterEach(() => {
    browser?.undo();
    browser = undefined;
  });

  test('when a 12-megapixel photo is chosen, then a 2560 px WebP named photo_{timestamp}.webp goes up, and a small one as it is', async () => {
    browser = drawingBrowser();
    const uploads = photoUploads(8);
    server.use(...editPage(8), uploads.handler);
    const { user } = renderAdmin('/admin/lots/8/edit');
    await screen.findByText('Noch keine Fotos.');
    await user.upload(fileInput(), [photoFile('big_IMG_0001.jpg'), photoFile('klein.jpg')]);
    await waitFor(() => expect(uploads.received).toHaveLength(2));
    expect(browser.drawn).toEqual([{ width: 2560, height: 1920, type: 'image/webp' }]);
    expect(uploads.received[0]).toEqual({
      name: expect.stringMatching(/^photo_\d+\.webp$/),
      type: 'image/webp',
      size: 500,
    });
    expect(uploads.received[1]).toEqual({ name: 'klein.jpg', type: 'image/jpeg', size: 2000 });
  });

  test('when the browser encodes no WebP (Safari), then the shrunk photo goes up as JPEG', async () => {
    browser = drawingBrowser({ noWebp: true });
    const uploads = photoUploads(8);
    server.use(...editPage(8), uploads.handler);
    const { user } = renderAdmin('/admin/lots/8/edit');
    await screen.findByText('Noch keine Fotos.');
    await user.upload(fileInput(), [photoFile('big_IMG_0002.jpg')]);
    await waitFor(() => expect(uploads.received).toHaveLength(1));
    expect(uploads.received[0]).toMatchObject({
      name: expect.stringMatching(/^photo_\d+\.jpg$/),
      type: 'image/jpeg',
    });
  });

  test('when a photo gets no answer from the server, then its row says so and "try again" sends it; the photo that arrived loses its bar a second later', async () => {
    const uploads = photoUploads(8, [503, 201, 201]);
    server.use(...editPage(8), uploads.handler);
    const { user } = renderAdmin('/admin/lots/8/edit');
    await screen.findByText('Noch keine Fotos.');
    await user.upload(fileInput(), [photoFile('vorne.jpg'), photoFile('seite.jpg')]);

    const rows = await screen.findByRole('list', { name: 'Fotos beim Hochladen' });
    expect(
      await within(rows).findByText(
        'Fehler beim Hochladen von vorne.jpg: Dienst vorübergehend nicht verfügbar.',
      ),
    ).toBeInTheDocument();
    // the second photo went up after the first failed, its bar at 100 % and then gone
    await waitFor(() => expect(uploads.received).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: 'Hochladen von seite.jpg' })).toBeNull(),
    );
    expect(screen.getByRole('progressbar', { name: 'Hochladen von vorne.jpg' })).toHaveAttribute(
      'aria-valuetext',
      'Fehlgeschlagen',
    );

    await user.click(within(rows).getByRole('button', { name: 'Erneut versuchen (vorne.jpg)' }));
    await waitFor(() => expect(uploads.received).toHaveLength(3));
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Fotos beim Hochladen' })).toBeNull(),
    );
    expect(uploads.received.map((r) => r.name)).toEqual(['vorne.jpg', 'seite.jpg', 'vorne.jpg']);
  });

  test('when the server refuses a photo as broken, then its message shows with nothing to retry, and the row can be dismissed', async () => {
    const uploads = photoUploads(8, [400]);
    server.use(...editPage(8), uploads.handler);
    const { user } = renderAdmin('/admin/lots/8/edit');
    await screen.findByText('Noch keine Fotos.');
    await user.upload(fileInput(), [photoFile('kaputt.jpg')]);
    const rows = await screen.findByRole('list', { name: 'Fotos beim Hochladen' });
    await within(rows).findByText(
      'Fehler beim Hochladen von kaputt.jpg: Die Datei ist beschädigt oder kein Bild.',
    );
    expect(within(rows).queryByRole('button', { name: /Erneut versuchen/ })).toBeNull();
    await user.click(within(rows).getByRole('button', { name: 'Ausblenden (kaputt.jpg)' }));
    expect(screen.queryByRole('list', { name: 'Fotos beim Hochladen' })).toBeNull();
    expect(uploads.received).toHaveLength(1);
  });

  test('when a new lot is saved and one of its photos fails, then the edit page shows that photo with "try again", which sends it to the new lot', async () => {
    const uploads = photoUploads(42, [201, 503, 201]);
    let patched: unknown;
    server.use(
      http.post(apiUrl('/lots/'), () => HttpResponse.json(lot(42), { status: 201 })),
      uploads.handler,
      http.patch(apiUrl('/lots/42'), async ({ request }) => {
        patched = await request.json();
        return HttpResponse.json(lot(42));
      }),
      ...editPage(42),
    );
    const { user, router } = renderAdmin('/admin/lots/new');
    await user.type(await screen.findByLabelText(/^Name \(Deutsch\)/), 'Kleiderschrank');
    await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Zweitürig');
    await user.selectOptions(screen.getByLabelText(/^Kategorie/), '2');
    await user.upload(fileInput(), [photoFile('vorne.jpg'), photoFile('seite.jpg')]);
    await screen.findByRole('img', { name: 'Foto 2' });
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots/42/edit'));
    expect(patched).toEqual({
      photos: ['/media/lots/42/p1-medium.webp'],
      gallery_photos: ['/media/lots/42/p1-large.webp'],
    });
    await screen.findByRole('heading', { name: 'Lot 42 bearbeiten' });
    const rows = await screen.findByRole('list', { name: 'Fotos beim Hochladen' });
    expect(
      await within(rows).findByText(
        'Fehler beim Hochladen von seite.jpg: Dienst vorübergehend nicht verfügbar.',
      ),
    ).toBeInTheDocument();
    await user.click(within(rows).getByRole('button', { name: 'Erneut versuchen (seite.jpg)' }));
    await waitFor(() => expect(uploads.received).toHaveLength(3));
    expect(uploads.received.map((r) => r.name)).toEqual(['vorne.jpg', 'seite.jpg', 'seite.jpg']);
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Fotos beim Hochladen' })).toBeNull(),
    );
  });
});
