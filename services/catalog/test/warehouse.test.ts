/**
 * The warehouse (issue 45): storage places, label codes, moves, labels as PDF (rendered and
 * their QR codes read back), the scan of a code, stock counts and the codes of earlier lots.
 */
import path from 'node:path';
import { Events, LABEL_CODE_ALPHABET, formatLabelCode } from '@furniture/contracts';
import { crop, decodeQr, renderPdf } from '@furniture/infra';
import { raceProcesses, testUrls } from '@furniture/platform/testing';
import { adminToken, lotBody, startCatalog, volunteerToken, type CatalogHarness } from './harness';

const PUBLIC = 'https://moebel.test';
const CODE = new RegExp(`^[${LABEL_CODE_ALPHABET}]{6}$`);

let svc: CatalogHarness;
const admin = adminToken();
const volunteer = volunteerToken();

beforeAll(async () => {
  svc = await startCatalog({ PUBLIC_BASE_URL: `${PUBLIC}/` });
});
afterAll(async () => {
  await svc?.stop();
});

async function newLot(overrides: Record<string, unknown> = {}) {
  const res = await svc.http.post('/api/v1/lots/', lotBody(overrides), { token: admin });
  expect(res.status).toBe(201);
  return res.body as { id: number; label_code: string; storage_place_id: number | null };
}
async function newPlace(name: string, locationId = 1) {
  const res = await svc.http.post(
    '/api/v1/storage-places/',
    { name, location_id: locationId },
    { token: volunteer },
  );
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; location_id: number; code: string };
}
const move = (lotId: number, placeId: number | null) =>
  svc.http.patch(`/api/v1/lots/${lotId}`, { storage_place_id: placeId }, { token: volunteer });

/** Makes the lot one of an earlier version, which had no label code. */
async function unlabel(id: number) {
  // the relay's write of the lot's outbox must not come between (FerretDB writes a whole document)
  await svc.kit.flushOutbox();
  await svc.conn
    .collection('lots')
    .updateOne({ _id: String(id) } as never, { $unset: { label_code: '' } });
  await svc.conn.collection('label_codes').deleteOne({ kind: 'lot', target_id: id });
}

/** A PDF call's answer as bytes (the JSON test client reads text). */
async function pdf(pathname: string, token = admin) {
  const res = await fetch(`${svc.url}${pathname}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

describe('storage places', () => {
  test('when staff create places, then each answers 201 with its code; a name is taken once per location (case and spaces aside), the list counts the lots on each', async () => {
    const shelf = await newPlace('Halle B / Regal 3', 11);
    expect(shelf).toEqual({
      id: expect.any(Number),
      name: 'Halle B / Regal 3',
      location_id: 11,
      code: expect.stringMatching(CODE),
    });
    const again = await svc.http.post(
      '/api/v1/storage-places/',
      { name: '  halle b /  REGAL 3 ', location_id: 11 },
      { token: admin, headers: { 'accept-language': 'uk' } },
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STORAGE_PLACE_DUPLICATE_NAME');
    expect(again.body.message).toBe('У цьому місці вже є місце на складі з такою назвою.');
    const elsewhere = await newPlace('Halle B / Regal 3', 12);
    expect(elsewhere.code).not.toBe(shelf.code);
    const floor = await newPlace('Halle B / Boden', 11);

    const lot = await newLot();
    expect((await move(lot.id, shelf.id)).status).toBe(200);
    const list = await svc.http.get('/api/v1/storage-places/?location_id=11', { token: volunteer });
    expect(list.status).toBe(200);
    expect(list.body.storage_places).toEqual([
      { ...shelf, lot_count: 1 },
      { ...floor, lot_count: 0 },
    ]);
    const all = await svc.http.get('/api/v1/storage-places/', { token: admin });
    expect(all.body.storage_places.map((p: { id: number }) => p.id)).toEqual(
      expect.arrayContaining([shelf.id, elsewhere.id, floor.id]),
    );
  });

  test('when a place is sent without a name or location, or without a staff token, then 422 or 401 and nothing is stored', async () => {
    const empty = await svc.http.post(
      '/api/v1/storage-places/',
      { name: '  ', location_id: 11 },
      { token: admin },
    );
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'name']);
    const noLocation = await svc.http.post(
      '/api/v1/storage-places/',
      { name: 'Regal 9' },
      { token: admin },
    );
    expect(noLocation.status).toBe(422);
    const anonymous = await svc.http.post('/api/v1/storage-places/', {
      name: 'Regal 9',
      location_id: 11,
    });
    expect(anonymous.status).toBe(401);
    const list = await svc.http.get('/api/v1/storage-places/?location_id=11', { token: admin });
    expect(list.body.storage_places.map((p: { name: string }) => p.name)).not.toContain('Regal 9');
    expect((await svc.http.get('/api/v1/storage-places/')).status).toBe(401);
  });
});

describe('label codes', () => {
  test('when lots and places are created, then each gets its own six-character code of the easy alphabet; staff answers carry it, anonymous ones do not', async () => {
    const lots = await Promise.all(Array.from({ length: 12 }, () => newLot()));
    const places = await Promise.all(
      Array.from({ length: 6 }, (_, i) => newPlace(`Regal ${i + 1}`, 21)),
    );
    const codes = [...lots.map((l) => l.label_code), ...places.map((p) => p.code)];
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(codes.length);
    for (const lot of lots) expect(lot.storage_place_id).toBeNull();

    const staff = await svc.http.get(`/api/v1/lots/${lots[0]!.id}`, { token: volunteer });
    expect(staff.body.label_code).toBe(lots[0]!.label_code);
    const anonymous = await svc.http.get(`/api/v1/lots/${lots[0]!.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).not.toHaveProperty('label_code');
    expect(anonymous.body).not.toHaveProperty('storage_place_id');
    const created = await svc.recorder.waitFor(
      Events.LotCreated,
      (e) => e.payload.lot.id === lots[0]!.id,
    );
    expect(created.payload.lot.label_code).toBe(lots[0]!.label_code);
  });

  test('when a code is claimed, then what is stored is the code, what it names and when: nothing of the donor or the lot', async () => {
    const lot = await newLot({ donor: 'Familie Oksana Petrenko, 0176 1234567' });
    const stored = await svc.conn
      .collection('label_codes')
      .findOne({ target_id: lot.id, kind: 'lot' });
    expect(Object.keys(stored!).sort()).toEqual(['_id', 'code', 'created_at', 'kind', 'target_id']);
    expect(stored!.code).toBe(lot.label_code);
  });

  test('when two catalog processes claim codes at once from the same few codes, then no code is handed out twice and a lot both claim for gets one code', async () => {
    const { mongoUrl } = testUrls();
    const pool = Array.from(
      { length: 12 },
      (_, i) => `RACE${LABEL_CODE_ALPHABET[i]}${LABEL_CODE_ALPHABET[i + 12]}`,
    );
    const [gotA, gotB] = await raceProcesses<Record<string, string>>(
      path.join(__dirname, 'label-race.ts'),
      { mongoUrl, dbName: svc.config.MONGO_DB, startInMs: 5000 },
      [JSON.stringify([9001, 9002, 9003, 9004, 9005, 9006]), JSON.stringify(pool)],
      [JSON.stringify([9004, 9005, 9006, 9007, 9008, 9009]), JSON.stringify(pool)],
    );
    for (const shared of ['9004', '9005', '9006']) expect(gotA[shared]).toBe(gotB[shared]);
    const byTarget = { ...gotA, ...gotB };
    expect(Object.keys(byTarget)).toHaveLength(9);
    expect(new Set(Object.values(byTarget)).size).toBe(9);
    const stored = await svc.conn
      .collection('label_codes')
      .find({ target_id: { $gte: 9001, $lte: 9009 } })
      .toArray();
    expect(stored).toHaveLength(9);
    for (const claim of stored) expect(byTarget[String(claim.target_id)]).toBe(claim.code);
  }, 60_000);

  test('when lots of an earlier version have no code, then the labelling job gives each one code with lot.labelled, once', async () => {
    const old = await newLot();
    const older = await newLot();
    for (const id of [old.id, older.id]) {
      await unlabel(id);
    }
    expect(
      (await svc.http.get(`/api/v1/lots/${old.id}`, { token: admin })).body.label_code,
    ).toBeNull();
    expect(await svc.service.warehouse.labelEarlierLots()).toBeGreaterThanOrEqual(2);
    const after = await svc.http.get(`/api/v1/lots/${old.id}`, { token: admin });
    expect(after.body.label_code).toMatch(CODE);
    const labelled = await svc.recorder.waitFor(
      Events.LotLabelled,
      (e) => e.payload.lot.id === old.id,
    );
    expect(labelled.payload.lot.label_code).toBe(after.body.label_code);
    expect(await svc.service.warehouse.labelEarlierLots()).toBe(0);
    expect((await svc.http.get(`/api/v1/lots/${old.id}`, { token: admin })).body.label_code).toBe(
      after.body.label_code,
    );
  });
});

describe('moves', () => {
  test('when staff move a lot to a place, to another and off, then each move answers the lot, keeps its version and publishes lot.moved with both places', async () => {
    const from = await newPlace('Halle A / Regal 1', 31);
    const to = await newPlace('Halle A / Regal 2', 31);
    const lot = await newLot();

    const first = await move(lot.id, from.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ storage_place_id: from.id, version: 1 });
    const second = await move(lot.id, to.id);
    expect(second.body.storage_place_id).toBe(to.id);
    const off = await move(lot.id, null);
    expect(off.body.storage_place_id).toBeNull();

    const moves = await svc.recorder.waitFor(
      Events.LotMoved,
      (e) => e.payload.lot.id === lot.id && e.payload.to_place === null,
    );
    expect(moves.payload.from_place).toEqual({ id: to.id, name: to.name, location_id: 31 });
    const all = svc.recorder.of(Events.LotMoved).filter((e) => e.payload.lot.id === lot.id);
    expect(
      all.map((e) => [e.payload.from_place?.id ?? null, e.payload.to_place?.id ?? null]),
    ).toEqual([
      [null, from.id],
      [from.id, to.id],
      [to.id, null],
    ]);
    expect(all[0]!.actor?.role).toBe('volunteer');
    // no move, no event: the same place again
    await move(lot.id, null);
    await svc.kit.flushOutbox();
    // counted by event id, as consumers take them: the test's flush may sweep beside the sweep
    // the write asked for, and both publish what they found (at least once, never lost)
    const moved = svc.recorder.of(Events.LotMoved).filter((e) => e.payload.lot.id === lot.id);
    expect(new Set(moved.map((e) => e.eventId)).size).toBe(3);
    expect(
      svc.recorder.of(Events.LotUpdated).filter((e) => e.payload.lot.id === lot.id),
    ).toHaveLength(0);
  });

  test("when a move names a place that does not exist, then 422 on storage_place_id in the caller's language and the lot stays where it was", async () => {
    const place = await newPlace('Keller', 32);
    const lot = await newLot();
    await move(lot.id, place.id);
    const res = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { storage_place_id: 999999 },
      { token: admin, headers: { 'accept-language': 'de' } },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('LOT_STORAGE_PLACE_NOT_FOUND');
    expect(res.body.message).toBe('Der gewählte Lagerplatz existiert nicht.');
    expect(res.body.detail[0].loc).toEqual(['body', 'storage_place_id']);
    const bad = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { storage_place_id: 'Keller' },
      { token: admin },
    );
    expect(bad.status).toBe(422);
    expect(
      (await svc.http.get(`/api/v1/lots/${lot.id}`, { token: admin })).body.storage_place_id,
    ).toBe(place.id);
  });
});

describe('labels as PDF', () => {
  test('when a lot label is printed, then the PDF shows the code, the names and the number, and its QR code opens the scan page of the code', async () => {
    const lot = await newLot({
      name: { de: 'Kleiderschrank weiß, 2-türig', uk: 'Шафа біла, дводверна' },
      donor: 'Familie Oksana Petrenko',
    });
    const res = await pdf(`/api/v1/lots/${lot.id}/label.pdf`, volunteer);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const [page, ...more] = await renderPdf(res.body);
    expect(more).toHaveLength(0);
    expect(decodeQr(page!)).toBe(`${PUBLIC}/admin/scan/${lot.label_code}`);
    const text = page!.text.replace(/\s+/g, ' ');
    const [first, second] = formatLabelCode(lot.label_code).split(' ');
    expect(text).toContain(first);
    expect(text).toContain(second);
    expect(text).toContain('Kleiderschrank weiß, 2-türig');
    expect(text).toContain('Шафа біла, дводверна');
    expect(text).toContain(`Lot ${lot.id}`);
    expect(text).not.toContain('Petrenko');
  });

  test("when a sheet of nine lots is printed, then two A4 pages hold the nine labels in the order asked, each QR code reading its own lot's scan page", async () => {
    const lots = [];
    for (let i = 1; i <= 9; i++) lots.push(await newLot({ name: { de: `Stuhl ${i}`, uk: '' } }));
    const res = await pdf(`/api/v1/labels.pdf?lot_ids=${lots.map((l) => l.id).join(',')}`);
    expect(res.status).toBe(200);
    const pages = await renderPdf(res.body, 100);
    expect(pages).toHaveLength(2);
    const read: (string | null)[] = [];
    for (const page of pages) {
      const w = Math.floor(page.width / 2);
      const h = Math.floor(page.height / 4);
      for (let slot = 0; slot < 8; slot++)
        read.push(
          decodeQr(
            crop(page, { x: (slot % 2) * w, y: Math.floor(slot / 2) * h, width: w, height: h }),
          ),
        );
    }
    expect(read.slice(0, 9)).toEqual(lots.map((l) => `${PUBLIC}/admin/scan/${l.label_code}`));
    expect(read.slice(9).every((r) => r === null)).toBe(true);
    expect(pages[0]!.text).toContain('Stuhl 1');
    expect(pages[1]!.text).toContain('Stuhl 9');
  }, 60_000);

  test("when a place label is printed, then its QR code opens the place's scan page and it shows the name", async () => {
    const place = await newPlace('Halle C / Regal 7', 41);
    const res = await pdf(`/api/v1/storage-places/${place.id}/label.pdf`);
    expect(res.status).toBe(200);
    const [page] = await renderPdf(res.body);
    expect(decodeQr(page!)).toBe(`${PUBLIC}/admin/scan/${place.code}`);
    expect(page!.text).toContain('Halle C / Regal 7');
  });

  test('when labels are asked for lots or places that do not exist, malformed ids, or without a staff token, then 404, 422 or 401', async () => {
    const lot = await newLot();
    expect((await pdf('/api/v1/lots/999999/label.pdf')).status).toBe(404);
    expect((await pdf('/api/v1/lots/abc/label.pdf')).status).toBe(404);
    expect((await pdf(`/api/v1/labels.pdf?lot_ids=${lot.id},999999`)).status).toBe(404);
    const malformed = await svc.http.get('/api/v1/labels.pdf?lot_ids=1,x', { token: admin });
    expect(malformed.status).toBe(422);
    const tooMany = await svc.http.get(
      `/api/v1/labels.pdf?lot_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
      { token: admin },
    );
    expect(tooMany.status).toBe(422);
    expect((await svc.http.get('/api/v1/labels.pdf', { token: admin })).status).toBe(422);
    expect(
      (await svc.http.get('/api/v1/storage-places/999999/label.pdf', { token: admin })).status,
    ).toBe(404);
    expect((await fetch(`${svc.url}/api/v1/lots/${lot.id}/label.pdf`)).status).toBe(401);
  });

  test('when a lot of an earlier version without a code is printed, then it gets its code there, once', async () => {
    const lot = await newLot();
    await unlabel(lot.id);
    const [page] = await renderPdf((await pdf(`/api/v1/lots/${lot.id}/label.pdf`)).body);
    const code = (await svc.http.get(`/api/v1/lots/${lot.id}`, { token: admin })).body.label_code;
    expect(code).toMatch(CODE);
    expect(decodeQr(page!)).toBe(`${PUBLIC}/admin/scan/${code}`);
    const [again] = await renderPdf((await pdf(`/api/v1/lots/${lot.id}/label.pdf`)).body);
    expect(decodeQr(again!)).toBe(`${PUBLIC}/admin/scan/${code}`);
  });
});

describe('the scan of a code', () => {
  test("when a lot's code is scanned, typed in lower case or with a dash, then the lot with its place; a place's code answers the place with its lots", async () => {
    const place = await newPlace('Halle D / Regal 1', 51);
    const lot = await newLot({ name: { de: 'Kommode', uk: 'Комод' } });
    await move(lot.id, place.id);

    const scanned = await svc.http.get(`/api/v1/scan/${lot.label_code.toLowerCase()}`, {
      token: volunteer,
    });
    expect(scanned.status).toBe(200);
    expect(scanned.body).toMatchObject({
      kind: 'lot',
      lot: { id: lot.id, name: { de: 'Kommode' }, status: 'available', storage_place: place },
    });
    const typed = `${lot.label_code.slice(0, 3)}-${lot.label_code.slice(3)}`.toLowerCase();
    expect((await svc.http.get(`/api/v1/scan/${typed}`, { token: volunteer })).body.lot.id).toBe(
      lot.id,
    );

    const shelf = await svc.http.get(`/api/v1/scan/${place.code.toLowerCase()}`, { token: admin });
    expect(shelf.body).toEqual({
      kind: 'place',
      storage_place: { ...place, lot_count: 1 },
      lots: [expect.objectContaining({ id: lot.id, storage_place_id: place.id })],
    });
  });

  test("when an unknown or malformed code is scanned, or without a staff token, then 404 LABEL_NOT_FOUND in the caller's language, or 401", async () => {
    const res = await svc.http.get('/api/v1/scan/zzzzzz', {
      token: admin,
      headers: { 'accept-language': 'uk' },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('LABEL_NOT_FOUND');
    expect(res.body.message).toContain('Перевірте');
    expect((await svc.http.get('/api/v1/scan/not-a-code!', { token: admin })).status).toBe(404);
    expect((await svc.http.get(`/api/v1/scan/${'a'.repeat(60)}`, { token: admin })).status).toBe(
      404,
    );
    expect((await svc.http.get('/api/v1/scan/zzzzzz')).status).toBe(401);
  });
});

describe('stock counts', () => {
  test('when a place is counted, then missing names what is recorded there but not scanned, unexpected what was scanned but is recorded elsewhere or nowhere, unknown_codes the rest', async () => {
    const place = await newPlace('Halle E / Regal 1', 61);
    const other = await newPlace('Halle E / Regal 2', 61);
    const [here, gone, strayed, loose] = [
      await newLot(),
      await newLot(),
      await newLot(),
      await newLot(),
    ];
    await move(here.id, place.id);
    await move(gone.id, place.id);
    await move(strayed.id, other.id);

    const res = await svc.http.post(
      `/api/v1/storage-places/${place.id}/count`,
      {
        codes: [
          here.label_code,
          strayed.label_code.toLowerCase(),
          loose.label_code,
          'ZZZZZZ',
          other.code,
          here.label_code,
        ],
      },
      { token: volunteer },
    );
    expect(res.status).toBe(200);
    expect(res.body.missing.map((l: { id: number }) => l.id)).toEqual([gone.id]);
    expect(
      res.body.unexpected.map((l: { id: number; storage_place_id: number | null }) => [
        l.id,
        l.storage_place_id,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [strayed.id, other.id],
        [loose.id, null],
      ]),
    );
    expect(res.body.unexpected).toHaveLength(2);
    expect(res.body.unknown_codes.sort()).toEqual(['ZZZZZZ', other.code].sort());

    // corrected in one step each: the strays moved here, the missing one off the place
    await move(strayed.id, place.id);
    await move(loose.id, place.id);
    await move(gone.id, null);
    const recount = await svc.http.post(
      `/api/v1/storage-places/${place.id}/count`,
      { codes: [here.label_code, strayed.label_code, loose.label_code] },
      { token: volunteer },
    );
    expect(recount.body).toEqual({ missing: [], unexpected: [], unknown_codes: [] });
  });

  test('when a count names no place, too many codes or no list, then 404 or 422', async () => {
    expect(
      (await svc.http.post('/api/v1/storage-places/999999/count', { codes: [] }, { token: admin }))
        .status,
    ).toBe(404);
    const place = await newPlace('Halle E / Regal 3', 61);
    const tooMany = await svc.http.post(
      `/api/v1/storage-places/${place.id}/count`,
      { codes: Array.from({ length: 1001 }, () => 'ABCDEF') },
      { token: admin },
    );
    expect(tooMany.status).toBe(422);
    expect(
      (await svc.http.post(`/api/v1/storage-places/${place.id}/count`, {}, { token: admin }))
        .status,
    ).toBe(422);
  });
});
