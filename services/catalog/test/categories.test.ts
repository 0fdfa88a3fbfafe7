import { CategorySlugs, Events } from '@furniture/contracts';
import { signTestToken } from '@furniture/platform/testing';
import { composeCatalog } from '../src/compose';
import { ServiceKit } from '@furniture/platform';
import { silentLogger } from '@furniture/platform/testing';
import { adminToken, lotBody, startCatalog, volunteerToken, type CatalogHarness } from './harness';

let svc: CatalogHarness;
const admin = adminToken();
const volunteer = volunteerToken();

beforeAll(async () => {
  svc = await startCatalog();
});
afterAll(async () => {
  await svc?.stop();
});

const newCategory = (de: string, uk: string, extra: Record<string, unknown> = {}) =>
  svc.http.post('/api/v1/categories/', { name: { de, uk }, ...extra }, { token: admin });

describe('the eight known categories', () => {
  test('when the service starts on an empty database, then categories 1..8 exist with their slugs, names in both languages and icons', async () => {
    const res = await svc.http.get('/api/v1/categories/');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const seeded = (res.body.data as { id: number; slug: string }[]).filter((c) => c.id <= 8);
    expect(seeded.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const c of res.body.data.slice(0, 8)) {
      expect(c.slug).toBe(CategorySlugs[c.id as keyof typeof CategorySlugs]);
      expect(c.name.de).not.toBe('');
      expect(c.name.uk).not.toBe('');
      expect(c.icon).not.toBe('');
      expect(c.lot_count).toEqual(expect.any(Number));
      expect(c).not.toHaveProperty('_id');
    }
    expect(res.body.data[0].name).toEqual({ de: 'Sofas & Sessel', uk: 'Дивани та крісла' });
    const created = await svc.recorder.waitFor(
      Events.CategoryCreated,
      (e) => e.payload.category.id === 8,
    );
    expect(created.actor).toBeNull();
  });

  test('when the service starts again, then nothing is seeded twice and a deleted known category stays deleted; new ids continue after 8', async () => {
    const del = await svc.http.delete('/api/v1/categories/8', { token: admin });
    expect(del.status).toBe(200);
    // the same database composed again, as at a restart
    await composeCatalog(new ServiceKit('catalog', svc.config, silentLogger, svc.conn, svc.bus));
    const list = await svc.http.get('/api/v1/categories/');
    const ids = (list.body.data as { id: number }[]).map((c) => c.id);
    expect(ids.filter((id) => id <= 8)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const created = await newCategory('Lampen', 'Лампи', { icon: '💡' });
    expect(created.status).toBe(201);
    expect(created.body.data.id).toBeGreaterThan(8);
  });
});

describe('reading categories', () => {
  test('when a category is asked for by id, numeric string or slug, then success, data and a message in the asked language', async () => {
    const byId = await svc.http.get('/api/v1/categories/2');
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ success: true, data: { id: 2, slug: 'beds-matresses' } });
    expect(byId.body.message).toEqual(expect.any(String));
    const bySlug = await svc.http.get('/api/v1/categories/beds-matresses?lang=uk');
    expect(bySlug.body.data.id).toBe(2);
    expect(bySlug.body.message).toBe('Категорію завантажено.');
  });

  test('when the category does not exist or the reference is nonsense, then 404 and 400 with codes', async () => {
    const missing = await svc.http.get('/api/v1/categories/999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('CATEGORY_NOT_FOUND');
    const nonsense = await svc.http.get('/api/v1/categories/sofas');
    expect(nonsense.status).toBe(400);
    expect(nonsense.body).toMatchObject({
      code: 'CATEGORY_INVALID_ID',
      message: 'Unbekannte Kategorie: sofas.',
    });
  });

  test('when lots are created and archived, then lot_count counts the lots that are not archived and archived_lot_count the others, which together are what the delete refusal counts', async () => {
    const c = await newCategory('Zählkategorie', 'Категорія для підрахунку');
    const id = c.body.data.id as number;
    expect(c.body.data.lot_count).toBe(0);
    for (const status of ['available', 'reserved', 'archived']) {
      const lot = await svc.http.post('/api/v1/lots/', lotBody({ category_id: id, status }), {
        token: admin,
      });
      expect(lot.status).toBe(201);
    }
    const list = await svc.http.get('/api/v1/categories/');
    expect(list.body.data.find((x: { id: number }) => x.id === id)).toMatchObject({
      lot_count: 2,
      archived_lot_count: 1,
    });
    const one = await svc.http.get(`/api/v1/categories/${id}`);
    expect(one.body.data).toMatchObject({ lot_count: 2, archived_lot_count: 1 });
    const refused = await svc.http.delete(`/api/v1/categories/${id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/\b3 lots are associated\b/);
  });
});

describe('managing categories', () => {
  test('when staff create a category, then 201 with both names, trimmed descriptions, the icon, version 1 and a category.created event with the actor', async () => {
    const res = await svc.http.post(
      '/api/v1/categories',
      {
        name: { de: ' Spiegel ', uk: 'Дзеркала' },
        description: { de: 'Wandspiegel und Standspiegel ' },
        icon: '🪞',
      },
      { token: volunteer },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: { de: 'Spiegel', uk: 'Дзеркала' },
      description: { de: 'Wandspiegel und Standspiegel', uk: '' },
      icon: '🪞',
      lot_count: 0,
      archived_lot_count: 0,
      version: 1,
      slug: null,
    });
    const event = await svc.recorder.waitFor(
      Events.CategoryCreated,
      (e) => e.payload.category.id === res.body.data.id,
    );
    expect(event.actor).toMatchObject({ id: 2, role: 'volunteer' });
  });

  test('when no icon is chosen, then the box; an icon outside the 20 choices is refused', async () => {
    const plain = await newCategory('Kisten', 'Ящики');
    expect(plain.body.data.icon).toBe('📦');
    const bad = await newCategory('Pflanzen', 'Рослини', { icon: '🚀' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'icon']);
  });

  test('when a name is missing, then 422 names each missing language with the form texts', async () => {
    const res = await svc.http.post('/api/v1/categories/', { name: { de: ' ' } }, { token: admin });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          loc: ['body', 'name', 'de'],
          msg: 'Deutscher Name ist erforderlich',
        }),
        expect.objectContaining({
          loc: ['body', 'name', 'uk'],
          msg: 'Ukrainischer Name ist erforderlich',
        }),
      ]),
    );
    const none = await svc.http.post('/api/v1/categories/', {}, { token: admin });
    expect(none.status).toBe(422);
    expect(none.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.name.de', 'body.name.uk']),
    );
  });

  test('when a German or a Ukrainian name is taken already (ignoring case and spaces), then 409 with the duplicate-name message', async () => {
    await newCategory('Teppiche', 'Килими');
    const sameGerman = await newCategory('  teppiche ', 'Доріжки');
    expect(sameGerman.status).toBe(409);
    expect(sameGerman.body).toMatchObject({
      code: 'CATEGORY_DUPLICATE_NAME',
      message: 'Eine Kategorie mit diesem Namen existiert bereits.',
    });
    const sameUkrainian = await newCategory('Läufer', 'КИЛИМИ');
    expect(sameUkrainian.status).toBe(409);
    const crossLanguage = await newCategory('Килими', 'Teppiche');
    expect(crossLanguage.status).toBe(201);
  });

  test('when a category is renamed to a name another category has, then 409 and nothing changes', async () => {
    const a = await newCategory('Regale A', 'Полиці A');
    await newCategory('Regale B', 'Полиці B');
    const res = await svc.http.put(
      `/api/v1/categories/${a.body.data.id}`,
      { name: { de: 'Regale B', uk: 'Полиці A' }, version: 1 },
      { token: admin },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CATEGORY_DUPLICATE_NAME');
    const after = await svc.http.get(`/api/v1/categories/${a.body.data.id}`);
    expect(after.body.data).toMatchObject({ name: { de: 'Regale A' }, version: 1 });
  });

  test('when staff save a category, then the version goes up, category.updated carries old and new values, and a save based on the old version gets 409', async () => {
    const c = await newCategory('Lampen alt', 'Лампи старі');
    const id = c.body.data.id as number;
    const body = {
      name: { de: 'Leuchten', uk: 'Світильники' },
      description: { de: 'Alle Lampen' },
      icon: '💡',
    };
    const first = await svc.http.put(
      `/api/v1/categories/${id}`,
      { ...body, version: 1 },
      { token: volunteer },
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      data: { id, version: 2, name: body.name, icon: '💡' },
    });
    const event = await svc.recorder.waitFor(
      Events.CategoryUpdated,
      (e) => e.payload.category.id === id,
    );
    expect(event.payload.changes.name).toEqual({
      old: { de: 'Lampen alt', uk: 'Лампи старі' },
      new: { de: 'Leuchten', uk: 'Світильники' },
    });
    expect(event.payload.category.version).toBe(2);

    const stale = await svc.http.put(
      `/api/v1/categories/${id}`,
      { ...body, name: { de: 'Beleuchtung', uk: 'Освітлення' }, version: 1 },
      { token: admin },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_VERSION', current_version: 2 });
    expect((await svc.http.get(`/api/v1/categories/${id}`)).body.data.name.de).toBe('Leuchten');
  });

  test('when a save leaves out the descriptions or the icon, then they keep their values', async () => {
    const c = await newCategory('Bilder', 'Картини', {
      description: { de: 'Gerahmte Bilder', uk: 'Картини в рамах' },
      icon: '🎨',
    });
    const res = await svc.http.put(
      `/api/v1/categories/${c.body.data.id}`,
      { name: { de: 'Bilder & Kunst', uk: 'Картини' }, description: { uk: '' }, version: 1 },
      { token: admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: { de: 'Bilder & Kunst', uk: 'Картини' },
      description: { de: 'Gerahmte Bilder', uk: '' },
      icon: '🎨',
      version: 2,
    });
  });

  test("when the version is missing on save (the spec's client sends none), then the save wins and bumps the version; a stale one gives 409, an unknown category 404", async () => {
    const created = await svc.http.post(
      '/api/v1/categories/',
      { name: { de: 'Ohne Version', uk: 'Без версії' } },
      { token: admin },
    );
    const id = created.body.data.id;
    const before = await svc.http.get(`/api/v1/categories/${id}`);
    const noVersion = await svc.http.put(
      `/api/v1/categories/${id}`,
      { name: { de: 'Sofas ohne Version', uk: 'Дивани без версії' } },
      { token: admin },
    );
    expect(noVersion.status).toBe(200);
    expect(noVersion.body.data).toMatchObject({
      name: { de: 'Sofas ohne Version', uk: 'Дивани без версії' },
      version: before.body.data.version + 1,
    });
    const stale = await svc.http.put(
      `/api/v1/categories/${id}`,
      { name: { de: 'X', uk: 'Y' }, version: before.body.data.version },
      { token: admin },
    );
    expect(stale.status).toBe(409);
    const missing = await svc.http.put(
      '/api/v1/categories/999',
      { name: { de: 'X', uk: 'Y' }, version: 1 },
      { token: admin },
    );
    expect(missing.status).toBe(404);
  });

  test('when a category holds lots (archived ones too), then delete is refused with "n lots are associated"; once they are gone it is deleted with an event', async () => {
    const c = await newCategory('Vorübergehend', 'Тимчасово');
    const id = c.body.data.id as number;
    const lots = [];
    for (const status of ['available', 'archived']) {
      lots.push(
        (
          await svc.http.post('/api/v1/lots/', lotBody({ category_id: id, status }), {
            token: admin,
          })
        ).body.id,
      );
    }
    const refused = await svc.http.delete(`/api/v1/categories/${id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CATEGORY_HAS_LOTS');
    expect(refused.body.message).toMatch(/\b2 lots are associated\b/);
    expect(refused.body.detail).toBe(refused.body.message);

    for (const lotId of lots) await svc.http.delete(`/api/v1/lots/${lotId}`, { token: admin });
    const deleted = await svc.http.delete(`/api/v1/categories/${id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.success).toBe(true);
    expect((await svc.http.get(`/api/v1/categories/${id}`)).status).toBe(404);
    await svc.recorder.waitFor(Events.CategoryDeleted, (e) => e.payload.category.id === id);
    // its names are free again
    expect((await newCategory('Vorübergehend', 'Тимчасово')).status).toBe(201);
  });

  test('when a lot is created in a category while the category is being deleted, then either the lot or the deletion is refused, never both pass', async () => {
    for (let round = 0; round < 3; round++) {
      const c = await newCategory(`Rennen ${round}`, `Перегони ${round}`);
      const id = c.body.data.id as number;
      const [lot, del] = await Promise.all([
        svc.http.post('/api/v1/lots/', lotBody({ category_id: id }), { token: admin }),
        svc.http.delete(`/api/v1/categories/${id}`, { token: admin }),
      ]);
      // the lot first: the category holds it and stays; the deletion first: the lot is refused
      expect(['201/409', '422/200']).toContain(`${lot.status}/${del.status}`);
      if (lot.status === 422) expect(lot.body.code).toBe('LOT_CATEGORY_NOT_FOUND');
    }
  });
});

describe('who may change categories', () => {
  test('when nobody is logged in, then every write is refused with 401 and nothing changes', async () => {
    const calls = [
      svc.http.post('/api/v1/categories/', { name: { de: 'Anonym', uk: 'Анонім' } }),
      svc.http.put('/api/v1/categories/1', { name: { de: 'Anonym', uk: 'Анонім' }, version: 1 }),
      svc.http.delete('/api/v1/categories/1'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_REQUIRED');
    }
    expect((await svc.http.get('/api/v1/categories/1')).body.data.name.de).toBe('Sofas & Sessel');
  });

  test('when a token is forged or expired, then 401 even on public reads', async () => {
    const expired = signTestToken({ id: 1, role: 'admin' }, { expiresInSeconds: -10 });
    const res = await svc.http.get('/api/v1/categories/', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_EXPIRED');
    const broken = await svc.http.post(
      '/api/v1/categories/',
      { name: { de: 'A', uk: 'B' } },
      { token: 'x.y.z' },
    );
    expect(broken.status).toBe(401);
  });
});
