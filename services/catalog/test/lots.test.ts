import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Events } from '@furniture/contracts';
import { Store } from '@furniture/platform';
import { signTestToken } from '@furniture/platform/testing';
import { LotsRepository } from '../src/data-access/lots-repository';
import {
  ADMIN,
  VOLUNTEER,
  adminToken,
  lotBody,
  startCatalog,
  volunteerToken,
  type CatalogHarness,
} from './harness';

let svc: CatalogHarness;
const admin = adminToken();
const volunteer = volunteerToken();

beforeAll(async () => {
  svc = await startCatalog();
});
afterAll(async () => {
  await svc?.stop();
});

async function newCategory(de: string, uk: string): Promise<number> {
  const res = await svc.http.post('/api/v1/categories/', { name: { de, uk } }, { token: admin });
  expect(res.status).toBe(201);
  return res.body.data.id;
}
async function newLot(overrides: Record<string, unknown> = {}, token = admin) {
  const res = await svc.http.post('/api/v1/lots/', lotBody(overrides), { token });
  expect(res.status).toBe(201);
  return res.body;
}
const ids = (lots: { id: number }[]) => lots.map((l) => l.id);

function conditionalGet(path: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${svc.url}${path}`, { headers: { 'if-none-match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('creating lots', () => {
  test('when staff create a lot, then 201 with every field in snake_case, the creator from the token, server timestamps, version 1 and lot.created', async () => {
    const res = await svc.http.post(
      '/api/v1/lots',
      lotBody({
        name: { de: '  Kleiderschrank weiß ', uk: 'Шафа біла' },
        description: { de: 'Dreitürig' },
        category_id: 4,
        photos: ['/media/lots/x/1-medium.webp'],
        created_by_user_id: 999,
        created_at: '2001-01-01T00:00:00Z',
        id: 5,
        version: 7,
      }),
      { token: volunteer },
    );
    expect(res.status).toBe(201);
    const lot = res.body;
    expect(lot).toMatchObject({
      name: { de: 'Kleiderschrank weiß', uk: 'Шафа біла' },
      description: { de: 'Dreitürig', uk: '' },
      detailed_description: { de: 'Dreitürig', uk: '' },
      status: 'available',
      category_id: 4,
      photos: ['/media/lots/x/1-medium.webp'],
      gallery_photos: [],
      dimensions: '250 x 160 cm',
      condition: 'gut',
      donor: 'Familie Müller',
      location: 'Berlin-Neukölln',
      created_by_user_id: VOLUNTEER.id,
      version: 1,
    });
    expect(Object.keys(lot).sort()).toEqual(
      [
        'id',
        'name',
        'description',
        'detailed_description',
        'status',
        'category_id',
        'photos',
        'gallery_photos',
        'dimensions',
        'condition',
        'donor',
        'location',
        'created_at',
        'updated_at',
        'created_by_user_id',
        'version',
        // staff answers (issue 45)
        'label_code',
        'storage_place_id',
      ].sort(),
    );
    expect(Date.now() - Date.parse(lot.created_at)).toBeLessThan(60000);
    expect(lot.id).not.toBe(5);
    const event = await svc.recorder.waitFor(Events.LotCreated, (e) => e.payload.lot.id === lot.id);
    expect(event.payload.lot).toMatchObject({ status: 'available', category_id: 4, version: 1 });
    expect(event.actor).toMatchObject({ id: VOLUNTEER.id, role: 'volunteer' });
  });

  test('when the condition is free text or one of the five keys, then it is stored as sent; beyond 200 characters, 422', async () => {
    for (const condition of ['ein Bein wackelt, sonst gut', 'like_new', 'worn', 'Зі слідами']) {
      const res = await svc.http.post('/api/v1/lots/', lotBody({ condition }), { token: admin });
      expect(res.status).toBe(201);
      expect(res.body.condition).toBe(condition);
    }
    const long = await svc.http.post('/api/v1/lots/', lotBody({ condition: 'x'.repeat(201) }), {
      token: admin,
    });
    expect(long.status).toBe(422);
    expect(long.body.detail[0].loc).toEqual(['body', 'condition']);
  });

  test('when a detailed description is given for one language only, then the other takes its short description', async () => {
    const lot = await newLot({
      description: { de: 'Kurz', uk: 'Коротко' },
      detailed_description: { de: 'Ausführlich beschrieben', uk: '' },
    });
    expect(lot.detailed_description).toEqual({ de: 'Ausführlich beschrieben', uk: 'Коротко' });
  });

  test('when required fields are missing, then 422 lists German name, German short description, category and status with the form text', async () => {
    const res = await svc.http.post(
      '/api/v1/lots/',
      { name: { uk: 'Тільки українською' }, description: { de: '   ' } },
      { token: admin },
    );
    expect(res.status).toBe(422);
    const byLoc = Object.fromEntries(
      (res.body.detail as { loc: string[]; msg: string }[]).map((d) => [d.loc.join('.'), d.msg]),
    );
    expect(byLoc).toMatchObject({
      'body.name.de': 'Dieses Feld ist erforderlich',
      'body.description.de': 'Dieses Feld ist erforderlich',
      'body.category_id': 'Dieses Feld ist erforderlich',
      'body.status': 'Dieses Feld ist erforderlich',
    });
  });

  test('when category_id is not an integer, the category does not exist or the status is unknown, then 422 at that field', async () => {
    const asString = await svc.http.post('/api/v1/lots/', lotBody({ category_id: '3' }), {
      token: admin,
    });
    expect(asString.status).toBe(422);
    expect(asString.body.detail[0].loc).toEqual(['body', 'category_id']);

    const unknown = await svc.http.post('/api/v1/lots/', lotBody({ category_id: 4242 }), {
      token: admin,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      code: 'LOT_CATEGORY_NOT_FOUND',
      detail: [{ loc: ['body', 'category_id'], msg: 'Die gewählte Kategorie existiert nicht.' }],
    });

    const status = await svc.http.post('/api/v1/lots/', lotBody({ status: 'sold' }), {
      token: admin,
      headers: { 'accept-language': 'uk' },
    });
    expect(status.status).toBe(422);
    expect(status.body.detail[0]).toMatchObject({
      loc: ['body', 'status'],
      msg: 'Неправильний статус',
    });
  });

  test('when more than 10 photos or a photo from outside /media/ is sent, then 422; duplicates are listed once', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `/media/lots/a/${i}.webp`);
    const tooMany = await svc.http.post('/api/v1/lots/', lotBody({ photos: eleven }), {
      token: admin,
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({
      loc: ['body', 'photos'],
      type: 'too_many_items',
    });

    for (const url of [
      'https://evil.example/x.jpg',
      '//evil.example/x.jpg',
      '/media/../etc/passwd',
      'javascript:alert(1)',
    ]) {
      const res = await svc.http.post('/api/v1/lots/', lotBody({ gallery_photos: [url] }), {
        token: admin,
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'gallery_photos', 0]);
    }
    const twice = await newLot({ photos: ['/media/a.webp', '/media/b.webp', '/media/a.webp'] });
    expect(twice.photos).toEqual(['/media/a.webp', '/media/b.webp']);
  });
});

describe('reading lots', () => {
  test('when a lot does not exist, then 404 "Lot nicht gefunden" (or Ukrainian) with code LOT_NOT_FOUND, also for ids that cannot be one', async () => {
    const de = await svc.http.get('/api/v1/lots/999999');
    expect(de.status).toBe(404);
    expect(de.body).toMatchObject({
      code: 'LOT_NOT_FOUND',
      message: 'Lot nicht gefunden',
      detail: 'Lot nicht gefunden',
    });
    const uk = await svc.http.get('/api/v1/lots/999999', {
      headers: { 'accept-language': 'uk-UA,uk;q=0.9' },
    });
    expect(uk.body.message).toBe('Лот не знайдено');
    expect((await svc.http.get('/api/v1/lots/abc')).status).toBe(404);
    expect((await svc.http.get('/api/v1/lots/0')).status).toBe(404);
  });

  test('when a lot is archived, then anonymous visitors see it nowhere while staff see it everywhere', async () => {
    const cat = await newCategory('Sichtbarkeit', 'Видимість');
    const open = await newLot({ category_id: cat, name: { de: 'Sichtbarer Tisch' } });
    const archived = await newLot({
      category_id: cat,
      status: 'archived',
      name: { de: 'Archivierter Tisch' },
    });

    const anon = {
      list: await svc.http.get(`/api/v1/lots/?category_id=${cat}`),
      one: await svc.http.get(`/api/v1/lots/${archived.id}`),
      byCategory: await svc.http.get(`/api/v1/lots/category/${cat}`),
      search: await svc.http.get('/api/v1/lots/search?search=Tisch&category_id=' + cat),
      count: await svc.http.get(`/api/v1/lots/count?category_id=${cat}`),
      asked: await svc.http.get(`/api/v1/lots/?category_id=${cat}&status=archived`),
    };
    expect(ids(anon.list.body)).toEqual([open.id]);
    expect(anon.one.status).toBe(404);
    expect(ids(anon.byCategory.body)).toEqual([open.id]);
    expect(ids(anon.search.body.lots)).toEqual([open.id]);
    expect(anon.count.body).toEqual({ count: 1 });
    expect(anon.asked.body).toEqual([]);

    const opts = { token: volunteer };
    expect(ids((await svc.http.get(`/api/v1/lots/?category_id=${cat}`, opts)).body)).toEqual([
      archived.id,
      open.id,
    ]);
    expect((await svc.http.get(`/api/v1/lots/${archived.id}`, opts)).body.status).toBe('archived');
    expect(ids((await svc.http.get(`/api/v1/lots/category/${cat}`, opts)).body)).toEqual([
      archived.id,
      open.id,
    ]);
    expect(
      (await svc.http.get(`/api/v1/lots/search?search=Tisch&category_id=${cat}`, opts)).body.total,
    ).toBe(2);
    expect((await svc.http.get(`/api/v1/lots/count?category_id=${cat}`, opts)).body).toEqual({
      count: 2,
    });
    expect(
      ids((await svc.http.get(`/api/v1/lots/?category_id=${cat}&status=archived`, opts)).body),
    ).toEqual([archived.id]);
  });

  test("when a partner agency's referrer reads or writes lots, then it sees what a visitor sees and every write is 403 (issue 44)", async () => {
    const cat = await newCategory('Vermittlung', 'Направлення');
    const open = await newLot({ category_id: cat, name: { de: 'Offener Schrank' } });
    const archived = await newLot({
      category_id: cat,
      status: 'archived',
      name: { de: 'Archivierter Schrank' },
    });
    const referrer = signTestToken({ id: 9001, role: 'referrer', name: 'Olena' });
    const opts = { token: referrer };
    expect(ids((await svc.http.get(`/api/v1/lots/?category_id=${cat}`, opts)).body)).toEqual([
      open.id,
    ]);
    expect((await svc.http.get(`/api/v1/lots/${archived.id}`, opts)).status).toBe(404);
    expect((await svc.http.get(`/api/v1/lots/count?category_id=${cat}`, opts)).body).toEqual({
      count: 1,
    });
    expect((await svc.http.post('/api/v1/lots/', lotBody({ category_id: cat }), opts)).status).toBe(
      403,
    );
    expect(
      (await svc.http.patch(`/api/v1/lots/${open.id}`, { status: 'archived' }, opts)).status,
    ).toBe(403);
    expect((await svc.http.delete(`/api/v1/lots/${open.id}`, opts)).status).toBe(403);
  });

  test('when the lots of a category are asked for by number, numeric string or slug, then the same lots; anything else is refused clearly', async () => {
    const lot = await newLot({ category_id: 6, name: { de: 'Hochstuhl' } });
    const byNumber = await svc.http.get('/api/v1/lots/category/6');
    const bySlug = await svc.http.get('/api/v1/lots/category/children-furniture');
    const byPadded = await svc.http.get('/api/v1/lots/category/06');
    expect(byNumber.status).toBe(200);
    expect(ids(byNumber.body)).toContain(lot.id);
    expect(bySlug.body).toEqual(byNumber.body);
    expect(byPadded.body).toEqual(byNumber.body);

    const unknownSlug = await svc.http.get('/api/v1/lots/category/garden-furniture');
    expect(unknownSlug.status).toBe(400);
    expect(unknownSlug.body).toMatchObject({
      code: 'CATEGORY_INVALID_ID',
      message: 'Unbekannte Kategorie: garden-furniture.',
    });
    expect((await svc.http.get('/api/v1/lots/category/-1')).status).toBe(400);
    const missing = await svc.http.get('/api/v1/lots/category/4242');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('CATEGORY_NOT_FOUND');
  });

  test('when a lot is created, archived or deleted, then the next public category list shows it at once', async () => {
    const cat = await newCategory('Frisch', 'Свіже');
    expect((await svc.http.get(`/api/v1/lots/category/${cat}`)).body).toEqual([]);
    const lot = await newLot({ category_id: cat });
    expect(ids((await svc.http.get(`/api/v1/lots/category/${cat}`)).body)).toEqual([lot.id]);
    const cats = await svc.http.get('/api/v1/categories/');
    expect(cats.body.data.find((c: { id: number }) => c.id === cat).lot_count).toBe(1);

    await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { status: 'archived', version: 1 },
      { token: admin },
    );
    expect((await svc.http.get(`/api/v1/lots/category/${cat}`)).body).toEqual([]);
    expect(
      (await svc.http.get('/api/v1/categories/')).body.data.find(
        (c: { id: number }) => c.id === cat,
      ).lot_count,
    ).toBe(0);
    expect(
      ids((await svc.http.get(`/api/v1/lots/category/${cat}`, { token: admin })).body),
    ).toEqual([lot.id]);
  });
  test('when a client asks again with the ETag of the lots of a category, then 304 until a lot changes', async () => {
    const cat = await newCategory('Etag', 'Етег');
    await newLot({ category_id: cat });
    const first = await svc.http.get(`/api/v1/lots/category/${cat}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    // node:http, because fetch adds "Cache-Control: no-cache" to conditional requests
    expect(await conditionalGet(`/api/v1/lots/category/${cat}`, etag)).toBe(304);
    await newLot({ category_id: cat });
    expect(await conditionalGet(`/api/v1/lots/category/${cat}`, etag)).toBe(200);
    expect((await svc.http.get(`/api/v1/lots/category/${cat}`)).headers.get('etag')).not.toBe(etag);
  });

  test('when a client accepts gzip, then the lots of a category come gzipped, with the same ETag and body', async () => {
    const cat = await newCategory('Gzip', 'Гзіп');
    for (let i = 0; i < 8; i++) await newLot({ category_id: cat });
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            `${svc.url}/api/v1/lots/category/${cat}`,
            { headers: { 'accept-encoding': encoding } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      });
    const plain = await raw('identity');
    const gzipped = await raw('gzip, deflate, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzipped.headers.etag).toBe(plain.headers.etag);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(gzipped.body.length).toBeLessThan(plain.body.length);
  });

  test('when the public lists are read anonymously, then a shared cache may keep them a second; staff answers never', async () => {
    const cat = await newCategory('Geteilt', 'Спільний');
    await newLot({ category_id: cat });
    const shared = 'public, max-age=0, s-maxage=1';
    expect((await svc.http.get('/api/v1/categories/')).headers.get('cache-control')).toBe(shared);
    expect((await svc.http.get(`/api/v1/lots/category/${cat}`)).headers.get('cache-control')).toBe(
      shared,
    );
    const staff = await svc.http.get(`/api/v1/lots/category/${cat}`, { token: admin });
    expect(staff.headers.get('cache-control') ?? '').not.toMatch(/public|s-maxage/);
  });

  test('when one lot is read anonymously, then a shared cache may keep it (the gateway drops it when the lot changes); staff answers never', async () => {
    const cat = await newCategory('Einzeln', 'Окремо');
    const lot = await newLot({ category_id: cat });
    const shared = 'public, max-age=0, s-maxage=1';
    const anonymous = await svc.http.get(`/api/v1/lots/${lot.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toBe(shared);
    expect(anonymous.headers.get('etag')).toBeTruthy();
    const staff = await svc.http.get(`/api/v1/lots/${lot.id}`, { token: admin });
    expect(staff.body.id).toBe(lot.id);
    expect(staff.headers.get('cache-control') ?? '').not.toMatch(/public|s-maxage/);
  });
});

describe('pages of a category', () => {
  /** A category whose lots lie in several blocks of 100 ids, a few lots per block. */
  async function spreadCategory(name: string, statuses: string[], perBlock: number) {
    const cat = await newCategory(`Seitenweise ${name}`, `Посторінково ${name}`);
    const made: { id: number; status: string }[] = [];
    for (let i = 0; i < statuses.length; i++) {
      if (i % perBlock === 0)
        await svc.conn
          .collection<{ _id: string; seq: number }>('counters')
          .updateOne({ _id: 'lots' }, { $inc: { seq: 100 } });
      made.push({
        id: (await newLot({ category_id: cat, status: statuses[i] })).id,
        status: statuses[i]!,
      });
    }
    const newestFirst = made.map((l) => l.id).reverse();
    const visible = [...made]
      .reverse()
      .filter((l) => l.status !== 'archived')
      .map((l) => l.id);
    return { cat, newestFirst, visible };
  }

  /** Follows the cursor from the first page to an empty or short one. */
  async function allPages(cat: number, limit: number, token?: string) {
    const pages: number[][] = [];
    const totals: string[] = [];
    let before: number | undefined;
    for (;;) {
      const res = await svc.http.get(
        `/api/v1/lots/category/${cat}?limit=${limit}${before ? `&before_id=${before}` : ''}`,
        { token },
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      pages.push(ids(res.body));
      totals.push(res.headers.get('x-total-count')!);
      if (res.body.length < limit) return { pages, totals };
      before = res.body[res.body.length - 1].id;
    }
  }

  test('when a visitor pages a category with limit and before_id, then the pages cut its visible lots newest first without gap or overlap, each with the total', async () => {
    const statuses = [
      'available',
      'reserved',
      'archived',
      'available',
      'transferred',
      'available',
      'archived',
      'available',
      'available',
      'reserved',
      'available',
    ];
    // three lots per block: the cursor falls inside blocks and at their ends
    const { cat, newestFirst, visible } = await spreadCategory('elf', statuses, 3);
    for (const limit of [1, 2, 3, 4, 100]) {
      const { pages, totals } = await allPages(cat, limit);
      expect(pages.flat()).toEqual(visible);
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      expect(new Set(totals)).toEqual(new Set([String(visible.length)]));
    }
    // staff see the archived lots too, and count them
    const staff = await allPages(cat, 4, admin);
    expect(staff.pages.flat()).toEqual(newestFirst);
    expect(staff.totals[0]).toBe(String(newestFirst.length));
    // the total is the category's lot_count on the category cards (public: all but archived)
    const cats = await svc.http.get('/api/v1/categories/');
    expect(cats.body.data.find((c: { id: number }) => c.id === cat).lot_count).toBe(visible.length);
    // without parameters the whole category, as the spec's client expects, with the total
    const whole = await svc.http.get(`/api/v1/lots/category/${cat}`);
    expect(ids(whole.body)).toEqual(visible);
    expect(whole.headers.get('x-total-count')).toBe(String(visible.length));
    // a cursor alone: every lot after it
    const after = await svc.http.get(`/api/v1/lots/category/${cat}?before_id=${visible[4]}`);
    expect(ids(after.body)).toEqual(visible.slice(5));
    // a cursor past the oldest lot: an empty page, still with the total
    const past = await svc.http.get(
      `/api/v1/lots/category/${cat}?limit=24&before_id=${visible[visible.length - 1]}`,
    );
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe(String(visible.length));
  });

  test('when a lot is added or archived between two pages, then the next page neither repeats nor skips a card', async () => {
    const { cat, visible } = await spreadCategory(
      'vier',
      ['available', 'available', 'available', 'available'],
      2,
    );
    const first = await svc.http.get(`/api/v1/lots/category/${cat}?limit=2`);
    expect(ids(first.body)).toEqual(visible.slice(0, 2));
    const added = await newLot({ category_id: cat });
    await svc.http.patch(`/api/v1/lots/${visible[1]}`, { status: 'archived' }, { token: admin });
    const next = await svc.http.get(`/api/v1/lots/category/${cat}?limit=2&before_id=${visible[1]}`);
    expect(ids(next.body)).toEqual(visible.slice(2, 4));
    expect(next.headers.get('x-total-count')).toBe('4');
    expect(ids((await svc.http.get(`/api/v1/lots/category/${cat}?limit=2`)).body)).toEqual([
      added.id,
      visible[0],
    ]);
  });

  test('when limit or before_id is not a whole number in range, then 422 names the parameter with a message; a slug pages like the id', async () => {
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=', 'limit'],
      ['before_id=0', 'before_id'],
      ['limit=24&before_id=-3', 'before_id'],
      ['before_id=x', 'before_id'],
    ]) {
      const res = await svc.http.get(`/api/v1/lots/category/2?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 422 });
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.detail[0].loc).toEqual(['query', param]);
      expect(res.body.detail[0].msg).toEqual(expect.any(String));
      expect(res.body.detail[0].msg).not.toBe('');
    }
    expect((await svc.http.get('/api/v1/lots/category/2?limit=100')).status).toBe(200);
    const lot = await newLot({ category_id: 7 });
    const bySlug = await svc.http.get('/api/v1/lots/category/office-furniture?limit=1');
    expect(ids(bySlug.body)).toEqual([lot.id]);
    expect(bySlug.body).toEqual((await svc.http.get('/api/v1/lots/category/7?limit=1')).body);
  });

  test('when pages are asked for again, then each answers under its own parameters, with an ETag that changes with the total', async () => {
    const { cat, visible } = await spreadCategory(
      'drei',
      ['available', 'available', 'available'],
      3,
    );
    const url = (q: string) => `/api/v1/lots/category/${cat}?${q}`;
    const first = await svc.http.get(url('limit=2'));
    const second = await svc.http.get(url(`limit=2&before_id=${visible[1]}`));
    expect(ids(first.body)).toEqual(visible.slice(0, 2));
    expect(ids(second.body)).toEqual(visible.slice(2));
    expect(ids((await svc.http.get(url('limit=1'))).body)).toEqual(visible.slice(0, 1));

    // the same page asked again is the same answer with the same ETag (304 for its holder)
    const again = await svc.http.get(url(`limit=2&before_id=${visible[1]}`));
    expect(again.body).toEqual(second.body);
    expect(again.headers.get('etag')).toBe(second.headers.get('etag'));
    expect(await conditionalGet(url('limit=2'), first.headers.get('etag')!)).toBe(304);

    // a lot changed in the store is seen at once (the catalog keeps no answers; the gateway's
    // cache keeps them at most a second)
    const lots = svc.conn.collection('lots');
    await lots.updateOne({ id: visible[2] }, { $set: { 'name.de': 'Heimlich geändert' } });
    expect((await svc.http.get(url(`limit=2&before_id=${visible[1]}`))).body[0].name.de).toBe(
      'Heimlich geändert',
    );

    // archiving the oldest lot changes the total (and the ETag) of a first page whose lots stay
    // the same
    await svc.http.patch(`/api/v1/lots/${visible[2]}`, { status: 'archived' }, { token: admin });
    const firstAfter = await svc.http.get(url('limit=2'));
    expect(firstAfter.body).toEqual(first.body);
    expect(firstAfter.headers.get('x-total-count')).toBe('2');
    expect(firstAfter.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(await conditionalGet(url('limit=2'), first.headers.get('etag')!)).toBe(200);
    expect((await svc.http.get(url(`limit=2&before_id=${visible[1]}`))).body).toEqual([]);
    expect(
      (await svc.http.get(url(`limit=2&before_id=${visible[1]}`), { token: admin })).body[0].name
        .de,
    ).toBe('Heimlich geändert');
  });

  test("when one block holds more of a list's lots than a part, then every page, cursor and status filter read part by part equals the stored order, also after an upgrade gives the lots their parts", async () => {
    const cat = await newCategory('Dicht gedrängt', 'Щільно');
    // 70 lots with consecutive ids from 60 ids into a fresh block: 40 in it, 30 in the next, so
    // that pages and cursors cross from one block read part by part into another
    const counters = svc.conn.collection<{ _id: string; seq: number }>('counters');
    const top = await counters.findOne({ _id: 'lots' });
    const start = (Math.floor((top?.seq ?? 0) / 100) + 1) * 100 + 60;
    await counters.updateOne({ _id: 'lots' }, { $max: { seq: start - 1 } }, { upsert: true });
    const cycle = ['available', 'reserved', 'available', 'archived', 'transferred'];
    const made: { id: number; status: string }[] = [];
    for (let i = 0; i < 70; i++) {
      const status = cycle[i % cycle.length]!;
      made.push({ id: (await newLot({ category_id: cat, status })).id, status });
    }
    expect(made[0]!.id).toBe(start);
    const lots = svc.conn.collection<{ id: number; block?: number; part?: number }>('lots');
    const stored = await lots.find({ category_id: cat }).toArray();
    expect(stored.every((l) => l.part === Math.floor(l.id / 25))).toBe(true);

    const newestFirst = made.map((l) => l.id).reverse();
    const ofStatus = (status: string) =>
      [...made]
        .reverse()
        .filter((l) => l.status === status)
        .map((l) => l.id);
    const visible = [...made]
      .reverse()
      .filter((l) => l.status !== 'archived')
      .map((l) => l.id);
    const list = async (q: string) => {
      const res = await svc.http.get(`/api/v1/lots/?category_id=${cat}&${q}`, { token: admin });
      expect(res.status).toBe(200);
      return ids(res.body);
    };
    const expectAllMatch = async () => {
      for (const limit of [7, 20, 30])
        for (let skip = 0; skip <= made.length; skip += limit)
          expect({ skip, limit, ids: await list(`skip=${skip}&limit=${limit}`) }).toEqual({
            skip,
            limit,
            ids: newestFirst.slice(skip, skip + limit),
          });
      for (const status of ['available', 'reserved', 'transferred'])
        expect(await list(`status=${status}&limit=100`)).toEqual(ofStatus(status));
      expect(await list('status=available&skip=5&limit=9')).toEqual(
        ofStatus('available').slice(5, 14),
      );
      // the category page's cursor falls inside parts and on their edges
      for (const limit of [6, 25]) {
        const { pages } = await allPages(cat, limit, admin);
        expect(pages.flat()).toEqual(newestFirst);
      }
      const { pages } = await allPages(cat, 11);
      expect(pages.flat()).toEqual(visible);
    };
    await expectAllMatch();

    // an older version stored no parts and built its counts without them (layout 1)
    await lots.updateMany({ category_id: cat }, { $unset: { part: '' } });
    await svc.conn
      .collection('lot_counts')
      .updateOne({ _id: 'all' as never }, { $unset: { layout: '' } });
    const repo = new LotsRepository(new Store(svc.conn)).stored;
    expect(await repo.open()).toBe(true);
    // the older counts stay in use meanwhile, read block by block without parts
    const counts = () => svc.conn.collection('lot_counts').findOne({ _id: 'all' as never });
    expect(await counts()).toMatchObject({ ready: true });
    await expectAllMatch();
    await repo.rebuild();
    expect(await lots.countDocuments({ category_id: cat, part: { $exists: false } })).toBe(0);
    expect(await counts()).toMatchObject({ ready: true, layout: 2 });
    expect(await repo.open()).toBe(false);
    await expectAllMatch();
  });
});

describe('search and paging', () => {
  test('when the search text holds regular-expression characters, then it matches them literally, case-insensitively, in both languages', async () => {
    const cat = await newCategory('Suche', 'Пошук');
    const special = await newLot({
      category_id: cat,
      name: { de: 'Regal (Eiche) [2m] *neu* 1+1?', uk: 'Полиця з дуба' },
    });
    const plain = await newLot({
      category_id: cat,
      name: { de: 'Stuhl', uk: 'Стілець' },
      description: { de: 'Massivholz', uk: 'Дерев’яний СТІЛЕЦЬ для кухні' },
    });
    const search = async (text: string) =>
      (
        await svc.http.get(
          `/api/v1/lots/search?category_id=${cat}&search=${encodeURIComponent(text)}`,
        )
      ).body;

    expect(ids((await search('(eiche) [2M]')).lots)).toEqual([special.id]);
    expect(ids((await search('*NEU* 1+1?')).lots)).toEqual([special.id]);
    expect((await search('.*')).total).toBe(0);
    expect((await search('(')).total).toBe(1);
    expect((await search('[')).total).toBe(1);
    expect(ids((await search('стілець')).lots)).toEqual([plain.id]);
    expect(ids((await search('massivHOLZ')).lots)).toEqual([plain.id]);
    expect(ids((await search('полиця')).lots)).toEqual([special.id]);
    expect(ids((await search(String(plain.id))).lots)).toEqual([plain.id]);
    // the staff list searches the same way
    const staff = await svc.http.get(
      `/api/v1/lots/?category_id=${cat}&search=${encodeURIComponent('[2m]')}`,
      { token: admin },
    );
    expect(ids(staff.body)).toEqual([special.id]);
  });

  test('when a search spans pages, then page and limit cut it newest first without overlap, with the total; defaults are page 1 and 20', async () => {
    const cat = await newCategory('Seiten', 'Сторінки');
    const made: number[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await newLot({ category_id: cat, name: { de: `Zebra-Kommode ${i}` } })).id);
    const newestFirst = [...made].reverse();
    const page = async (p: number) =>
      (
        await svc.http.get(
          `/api/v1/lots/search?search=zebra-kommode&category_id=${cat}&page=${p}&limit=2`,
        )
      ).body;
    const [p1, p2, p3, p4] = [await page(1), await page(2), await page(3), await page(4)];
    expect(p1).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect([...ids(p1.lots), ...ids(p2.lots), ...ids(p3.lots)]).toEqual(newestFirst);
    expect(p3.lots).toHaveLength(1);
    expect(p4).toMatchObject({ lots: [], total: 5, page: 4 });

    const defaults = (await svc.http.get(`/api/v1/lots/search?category_id=${cat}`)).body;
    expect(defaults).toMatchObject({ page: 1, limit: 20, total: 5 });
    const status = (await svc.http.get(`/api/v1/lots/search?category_id=${cat}&status=reserved`))
      .body;
    expect(status.total).toBe(0);
    expect((await svc.http.get('/api/v1/lots/search?page=0')).status).toBe(422);
    expect((await svc.http.get('/api/v1/lots/search?limit=101')).status).toBe(422);
    expect((await svc.http.get('/api/v1/lots/search?status=sold')).status).toBe(422);
  });

  test('when anyone asks the lot list for more than a page of 100, then 422 (anonymous and staff alike)', async () => {
    for (const token of [undefined, admin]) {
      const res = await svc.http.get('/api/v1/lots/?limit=10000', { token });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
      expect((await svc.http.get('/api/v1/lots/?limit=100', { token })).status).toBe(200);
    }
  });

  test('when staff page the lot list with limit and skip and filter it, then the list and /count agree', async () => {
    const cat = await newCategory('Verwaltung', 'Управління');
    const made: number[] = [];
    for (const status of ['available', 'reserved', 'available', 'taken']) {
      made.push((await newLot({ category_id: cat, status })).id);
    }
    const newestFirst = [...made].reverse();
    const list = async (q: string) =>
      (await svc.http.get(`/api/v1/lots/?category_id=${cat}&${q}`, { token: admin })).body;
    expect(ids(await list('limit=2&skip=0'))).toEqual(newestFirst.slice(0, 2));
    expect(ids(await list('limit=2&skip=2'))).toEqual(newestFirst.slice(2));
    expect(ids(await list('status=available'))).toEqual([made[2], made[0]]);
    expect(ids(await list('status=&search='))).toEqual(newestFirst);
    const count = await svc.http.get(`/api/v1/lots/count?category_id=${cat}&status=available`, {
      token: admin,
    });
    expect(count.body).toEqual({ count: 2 });
    expect((await svc.http.get('/api/v1/lots/?limit=0', { token: admin })).status).toBe(422);
    expect((await svc.http.get('/api/v1/lots/?category_id=abc', { token: admin })).status).toBe(
      422,
    );
  });

  test('when the lots of a category lie in many blocks of ids, then its lists and pages are the same whether read block by block or at once', async () => {
    const cat = await newCategory('Weit verstreut', 'Розкидані');
    const made: { id: number; status: string }[] = [];
    const statuses = ['available', 'archived', 'reserved', 'available', 'transferred', 'available'];
    for (const status of statuses) {
      // each lot in a block of 100 ids of its own (other lots took the ids between)
      await svc.conn
        .collection<{ _id: string; seq: number }>('counters')
        .updateOne({ _id: 'lots' }, { $inc: { seq: 100 } });
      made.push({ id: (await newLot({ category_id: cat, status })).id, status });
    }
    const newestFirst = made.map((l) => l.id).reverse();
    const visible = [...made]
      .reverse()
      .filter((l) => l.status !== 'archived')
      .map((l) => l.id);
    // the whole category: six blocks, one query
    expect(ids((await svc.http.get(`/api/v1/lots/category/${cat}`)).body)).toEqual(visible);
    expect(
      ids((await svc.http.get(`/api/v1/lots/category/${cat}`, { token: admin })).body),
    ).toEqual(newestFirst);
    const list = async (q: string) =>
      ids((await svc.http.get(`/api/v1/lots/?category_id=${cat}&${q}`, { token: admin })).body);
    // pages of up to four blocks are read block by block, longer ones at once: the same cut
    for (const [skip, limit] of <[number, number][]>[
      [0, 2],
      [1, 3],
      [0, 5],
      [1, 5],
      [0, 6],
      [2, 100],
    ])
      expect(await list(`skip=${skip}&limit=${limit}`)).toEqual(
        newestFirst.slice(skip, skip + limit),
      );
    expect(await list('status=available&limit=100')).toEqual(
      [...made]
        .reverse()
        .filter((l) => l.status === 'available')
        .map((l) => l.id),
    );
    const anonymous = await svc.http.get(`/api/v1/lots/?category_id=${cat}&limit=100`);
    expect(ids(anonymous.body)).toEqual(visible);
  });

  test('when staff filter by dates, then a day means a day in Germany, date_to includes the whole day, and /count agrees', async () => {
    const cat = await newCategory('Datum', 'Дата');
    const lateOn9th = await newLot({ category_id: cat }); // 9 March 23:30 in Berlin
    const earlyOn10th = await newLot({ category_id: cat }); // 10 March 00:30 in Berlin
    const on11th = await newLot({ category_id: cat });
    const setCreated = (id: number, iso: string) =>
      svc.setLotFields(id, { created_at: new Date(iso) });
    await setCreated(lateOn9th.id, '2024-03-09T22:30:00Z');
    await setCreated(earlyOn10th.id, '2024-03-09T23:30:00Z');
    await setCreated(on11th.id, '2024-03-11T22:59:59Z'); // 23:59:59 in Berlin

    const list = async (q: string) =>
      ids((await svc.http.get(`/api/v1/lots/?category_id=${cat}&${q}`, { token: admin })).body);
    const count = async (q: string) =>
      (await svc.http.get(`/api/v1/lots/count?category_id=${cat}&${q}`, { token: admin })).body
        .count;
    expect(await list('date_from=2024-03-10&date_to=2024-03-10')).toEqual([earlyOn10th.id]);
    expect(await list('date_to=2024-03-09')).toEqual([lateOn9th.id]);
    expect(await list('date_from=2024-03-10')).toEqual([on11th.id, earlyOn10th.id]);
    expect(await list('date_from=2024-03-11&date_to=2024-03-11')).toEqual([on11th.id]);
    expect(await count('date_from=2024-03-10&date_to=2024-03-11')).toBe(2);
    expect(await list('date_from=2024-03-09T23:00:00Z&date_to=2024-03-09T23:30:00Z')).toEqual([
      earlyOn10th.id,
    ]);
    // summer time: 1 July starts at 22:00 UTC the day before
    await setCreated(on11th.id, '2024-06-30T22:00:00Z');
    expect(await list('date_from=2024-07-01&date_to=2024-07-01')).toEqual([on11th.id]);

    const bad = await svc.http.get('/api/v1/lots/?date_from=10.03.2024', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      loc: ['query', 'date_from'],
      msg: 'Ungültiges Datum',
    });
  });
});

describe('editing lots', () => {
  test('when staff save the lot form, then fields change, the version goes up, the creator stays, and lot.updated carries old and new values', async () => {
    const lot = await newLot({}, volunteer);
    const res = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({
        name: { de: 'Ecksofa anthrazit', uk: 'Кутовий диван антрацит' },
        condition: 'sehr gut',
        version: 1,
        created_by_user_id: 77,
        created_at: '2001-01-01T00:00:00Z',
      }),
      { token: admin },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: lot.id,
      name: { de: 'Ecksofa anthrazit' },
      condition: 'sehr gut',
      version: 2,
      created_by_user_id: VOLUNTEER.id,
      created_at: lot.created_at,
    });
    expect(res.body.updated_at >= lot.updated_at).toBe(true);
    const event = await svc.recorder.waitFor(Events.LotUpdated, (e) => e.payload.lot.id === lot.id);
    expect(event.payload.changes).toEqual({
      name: {
        old: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
        new: { de: 'Ecksofa anthrazit', uk: 'Кутовий диван антрацит' },
      },
      condition: { old: 'gut', new: 'sehr gut' },
    });
    expect(event.actor).toMatchObject({ id: ADMIN.id });
    expect(svc.recorder.of(Events.LotStatusChanged).some((e) => e.payload.lot.id === lot.id)).toBe(
      false,
    );
  });

  test('when two volunteers save the same lot from the same version, then the first wins and the second gets 409 with the current version; at the same moment only one wins', async () => {
    const lot = await newLot();
    const first = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ donor: 'A', version: 1 }),
      { token: admin },
    );
    expect(first.status).toBe(200);
    const second = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ donor: 'B', version: 1 }),
      { token: volunteer },
    );
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'STALE_VERSION', current_version: 2 });
    expect(second.body.message).toMatch(/inzwischen von jemand anderem geändert/);

    const racing = await Promise.all(
      ['C', 'D', 'E', 'F', 'G'].map((donor) =>
        svc.http.patch(`/api/v1/lots/${lot.id}`, { donor, version: 2 }, { token: admin }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const winner = racing.find((r) => r.status === 200)!.body.donor;
    expect((await svc.http.get(`/api/v1/lots/${lot.id}`)).body).toMatchObject({
      donor: winner,
      version: 3,
    });
  });

  test('when PATCH sends only some fields, then the others keep their values; a change without a version is saved, a stale version refused', async () => {
    const lot = await newLot({ location: 'Dresden' });
    const patched = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { name: { uk: 'Новий диван' }, version: 1 },
      { token: admin },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: { de: 'Ecksofa grau', uk: 'Новий диван' },
      location: 'Dresden',
      version: 2,
    });

    // the spec's client sends no version: the save is accepted and still bumps the version
    const noVersion = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { donor: 'X' },
      { token: admin },
    );
    expect(noVersion.status).toBe(200);
    expect(noVersion.body).toMatchObject({ donor: 'X', version: 3 });
    const stale = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { donor: 'Y', version: 2 },
      { token: admin },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_VERSION', current_version: 3 });
    const emptyName = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { name: { de: '' }, version: 3 },
      { token: admin },
    );
    expect(emptyName.status).toBe(422);
    const badCategory = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { category_id: 4242, version: 3 },
      { token: admin },
    );
    expect(badCategory.body.code).toBe('LOT_CATEGORY_NOT_FOUND');
    const putWithout = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ donor: 'Ohne Version' }),
      { token: admin },
    );
    expect(putWithout.status).toBe(200);
    expect(putWithout.body).toMatchObject({ donor: 'Ohne Version', version: 4 });
  });

  test('when staff choose another main photo, then only the order changes: no version needed, none spent, and an open form still saves', async () => {
    const photos = ['/media/l/1-m.webp', '/media/l/2-m.webp', '/media/l/3-m.webp'];
    const lot = await newLot({ photos, gallery_photos: photos });
    const reordered = [photos[2]!, photos[0]!, photos[1]!];
    const res = await svc.http.patch(
      `/api/v1/lots/${lot.id}`,
      { photos: reordered },
      { token: volunteer },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ photos: reordered, gallery_photos: photos, version: 1 });
    const event = await svc.recorder.waitFor(Events.LotUpdated, (e) => e.payload.lot.id === lot.id);
    expect(Object.keys(event.payload.changes)).toEqual(['photos']);
    expect(event.payload.lot).toMatchObject({ photos: reordered, version: 1 });
    const save = await svc.http.put(`/api/v1/lots/${lot.id}`, lotBody({ donor: 'Z', version: 1 }), {
      token: admin,
    });
    expect(save.status).toBe(200);
    expect(save.body.photos).toEqual(reordered);
  });

  test('when the status and other fields change in one save, then both lot.updated and lot.status_changed (cause staff) are emitted', async () => {
    const lot = await newLot();
    const res = await svc.http.put(
      `/api/v1/lots/${lot.id}`,
      lotBody({ status: 'archived', donor: 'Neu', version: 1 }),
      { token: admin },
    );
    expect(res.status).toBe(200);
    const changed = await svc.recorder.waitFor(
      Events.LotStatusChanged,
      (e) => e.payload.lot.id === lot.id,
    );
    expect(changed.payload).toMatchObject({
      old_status: 'available',
      new_status: 'archived',
      cause: 'staff',
      application_id: null,
    });
    expect(changed.actor).toMatchObject({ id: ADMIN.id });
    const updated = await svc.recorder.waitFor(
      Events.LotUpdated,
      (e) => e.payload.lot.id === lot.id,
    );
    expect(Object.keys(updated.payload.changes)).toEqual(['donor']);
  });

  test('when the short description changes and the detailed one was a copy of it, then the detailed one follows; a detailed text of its own stays', async () => {
    const copied = await newLot({ description: { de: 'Alt', uk: 'Старе' } });
    const own = await newLot({
      description: { de: 'Alt' },
      detailed_description: { de: 'Eigener Text' },
    });
    const save = (lot: { id: number; detailed_description: unknown }) =>
      svc.http.put(
        `/api/v1/lots/${lot.id}`,
        lotBody({
          description: { de: 'Neu', uk: 'Нове' },
          detailed_description: lot.detailed_description,
          version: 1,
        }),
        { token: admin },
      );
    expect((await save(copied)).body.detailed_description).toEqual({ de: 'Neu', uk: 'Нове' });
    expect((await save(own)).body.detailed_description).toEqual({ de: 'Eigener Text', uk: 'Нове' });
  });

  test('when an unchanged form is saved, then nothing is written and the version stays', async () => {
    const lot = await newLot();
    const res = await svc.http.put(`/api/v1/lots/${lot.id}`, lotBody({ version: 1 }), {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, updated_at: lot.updated_at });
  });
});

describe('deleting lots and who may write', () => {
  test('when staff delete a lot, then it is gone with lot.deleted; deleting it again gives 404', async () => {
    const lot = await newLot({}, volunteer);
    const res = await svc.http.delete(`/api/v1/lots/${lot.id}`, { token: volunteer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Lot wurde gelöscht.' });
    expect((await svc.http.get(`/api/v1/lots/${lot.id}`, { token: admin })).status).toBe(404);
    const event = await svc.recorder.waitFor(Events.LotDeleted, (e) => e.payload.lot.id === lot.id);
    expect(event.actor).toMatchObject({ id: VOLUNTEER.id });
    expect((await svc.http.delete(`/api/v1/lots/${lot.id}`, { token: admin })).status).toBe(404);
    expect(
      (await svc.http.put(`/api/v1/lots/${lot.id}`, lotBody({ version: 1 }), { token: admin }))
        .status,
    ).toBe(404);
  });

  test('when nobody is logged in, then creating, saving, patching and deleting lots are refused with 401 and nothing changes', async () => {
    const lot = await newLot();
    const calls = await Promise.all([
      svc.http.post('/api/v1/lots/', lotBody()),
      svc.http.put(`/api/v1/lots/${lot.id}`, lotBody({ donor: 'X', version: 1 })),
      svc.http.patch(`/api/v1/lots/${lot.id}`, { photos: [] }),
      svc.http.delete(`/api/v1/lots/${lot.id}`),
    ]);
    for (const res of calls) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'AUTH_REQUIRED', message: 'Authentication required' });
    }
    expect((await svc.http.get(`/api/v1/lots/${lot.id}`)).body).toMatchObject({
      donor: 'Familie Müller',
      version: 1,
    });
  });
});
