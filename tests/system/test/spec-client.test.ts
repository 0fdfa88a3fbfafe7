/**
 * The specification's own client against the real stack (issue 33): a client written only from
 * the specification's call lists (../src/spec-client.ts) logs in, lives through the expiry of its
 * access token by refreshing with the bearer token after a 401, rejects and then notes, posts to
 * the activity log, and reads lots in the shapes the specification names.
 */
import { Events } from '@furniture/contracts';
import { eventually } from '@furniture/platform/testing';
import {
  SpecClient,
  SpecClientError,
  categoryIdOf,
  lotList,
  singleLot,
  type SpecLot,
} from '../src/spec-client';
import { startSystem, SYSTEM_ADMIN, type System } from '../src/stack';

/** The shortest access token the auth service issues: the test waits for it to expire. */
const TOKEN_TTL_SECONDS = 30;

let s: System;
beforeAll(async () => {
  s = await startSystem({
    full: true,
    authEnv: { ACCESS_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) },
  });
});
afterAll(async () => {
  await s?.stop();
});

async function signedIn(opts: { refreshThresholdSeconds?: number } = {}): Promise<SpecClient> {
  const client = new SpecClient(s.url, opts);
  await client.login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  return client;
}

const lotBody = (name: string, category_id = 1) => ({
  name: { de: name, uk: 'Диван' },
  description: { de: 'Gut erhalten', uk: 'У доброму стані' },
  detailed_description: { de: '', uk: '' },
  category_id,
  status: 'available',
  dimensions: '200 x 90 cm',
  condition: 'leichte Kratzer an der Lehne',
  donor: 'Familie Schmidt',
  location: 'Berlin',
});

/** A lot the applications service knows (its queue info answers). */
async function lotToApplyFor(client: SpecClient, name: string): Promise<SpecLot> {
  const lot = await client.createLot(lotBody(name));
  await eventually(
    async () => (await client.queueInfo(lot.id).catch(() => null))?.success === true,
    { what: `lot ${lot.id} open for applications` },
  );
  return lot;
}

let phoneSeq = 0;
const phone = () => `0176 ${String(Date.now() % 1e7).padStart(7, '0')}${phoneSeq++ % 10}`;

describe('the session (public-site §4 "Session", back-office §4 "Auth")', () => {
  test('when the access token expires, then the next call gets a 401, refreshes once with the bearer token and succeeds on the retry', async () => {
    // no refresh ahead of time: the expiry must show as a 401
    const client = await signedIn({ refreshThresholdSeconds: 0 });
    const first = client.token!;
    await new Promise((r) => setTimeout(r, (TOKEN_TTL_SECONDS + 1) * 1000));
    const me = await client.call<{ email: string }>('GET', '/auth/me');
    expect(me.email).toBe(SYSTEM_ADMIN.email);
    expect(client.refreshes).toHaveLength(1);
    expect(client.token).not.toBe(first);
    // a staff call at another service works with the new token
    const apps = await client.applications({ limit: 1 });
    expect(apps).toHaveProperty('total');

    // a copy of the token that already refreshed, used again, ends the whole session
    const thief = new SpecClient(s.url);
    thief.token = first;
    await expect(thief.refresh()).rejects.toThrow('Session expired');
    await eventually(
      async () => {
        try {
          await client.call('GET', '/applications?limit=1');
          return false;
        } catch (err) {
          return err instanceof SpecClientError && err.status === 401;
        }
      },
      { what: 'the session ended everywhere' },
    );
  }, 90_000);

  test('when fewer than 300 seconds remain, then the client refreshes ahead of the call, and each token refreshes once', async () => {
    const client = await signedIn(); // a 30 s token: always under the threshold
    const before = client.refreshes.length; // login's own GET /auth/me refreshed already
    await client.call('GET', '/auth/me');
    await client.call('GET', '/auth/me');
    expect(client.refreshes).toHaveLength(before + 2);
    expect(new Set(client.refreshes).size).toBe(before + 2);
    await client.logout();
    expect(client.token).toBeNull();
  });
});

describe('lots in the shapes the specification names (public-site §7)', () => {
  test('when the client reads the lot lists and a lot, then every answer is one of the accepted shapes and holds the new lot', async () => {
    const staff = await signedIn();
    const created = await staff.createLot(lotBody('Sofa für die Spezifikation', 1));
    expect(created.condition).toBe('leichte Kratzer an der Lehne'); // free text (back-office §3)
    const visitor = new SpecClient(s.url);
    const ids = (lots: SpecLot[]) => lots.map((l) => l.id);

    expect(ids(await visitor.lots())).toContain(created.id);
    expect(ids(await visitor.lotsOfCategory(1))).toContain(created.id);
    const found = await visitor.searchLots({ search: 'Spezifikation' });
    expect(found).toMatchObject({ page: 1, limit: 20 });
    expect(ids(found.lots)).toContain(created.id);
    expect(ids(await staff.adminLots({ page: 1, limit: 20, category_id: 1 }))).toContain(
      created.id,
    );
    expect((await visitor.lot(created.id)).name.de).toBe('Sofa für die Spezifikation');

    // the three list shapes and the three single-lot shapes the client accepts
    const lot = { id: 1, name: { de: 'a', uk: 'b' }, status: 'available', category_id: 1 };
    expect(lotList([lot])).toEqual([lot]);
    expect(lotList({ success: true, data: [lot] })).toEqual([lot]);
    expect(lotList({ lots: [lot], total: 1 })).toEqual([lot]);
    expect(singleLot(lot)).toEqual(lot);
    expect(singleLot({ success: true, data: lot })).toEqual(lot);
    expect(singleLot({ lot })).toEqual(lot);

    const categories = await visitor.categories();
    expect(categories.find((c) => c.id === 1)?.lot_count).toBeGreaterThanOrEqual(1);
  });

  test('when /lots/category/{categoryId} is asked by number, numeric string or slug, then the same lots come; anything else is an error', async () => {
    const staff = await signedIn();
    const created = await staff.createLot(lotBody('Kinderbett', 6));
    const visitor = new SpecClient(s.url);
    const byNumber = await visitor.lotsOfCategory(6);
    expect(byNumber.map((l) => l.id)).toContain(created.id);
    expect(await visitor.lotsOfCategory('6')).toEqual(byNumber);
    expect(await visitor.lotsOfCategory('children-furniture')).toEqual(byNumber);
    // the server maps the slug itself too
    expect(await visitor.lotsOfCategoryAsGiven('children-furniture')).toEqual(byNumber);
    expect(() => categoryIdOf('garden-furniture')).toThrow();
    const unknown = await visitor
      .lotsOfCategoryAsGiven('garden-furniture')
      .catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(SpecClientError);
    expect((unknown as SpecClientError).status).toBeGreaterThanOrEqual(400);
    expect((unknown as SpecClientError).status).toBeLessThan(500);
  });
});

describe('reject, then note (back-office §4, §7)', () => {
  test('when the client rejects with {status} and sends the note line after it, then the application is rejected with that note, once', async () => {
    const staff = await signedIn();
    const lot = await lotToApplyFor(staff, 'Esstisch');
    const visitor = new SpecClient(s.url);
    const applied = await visitor.apply({
      applicantName: 'Olena Kovalenko',
      applicantPhone: phone(),
      lotId: lot.id,
    });
    expect(applied).toMatchObject({ id: expect.any(Number), status: 'pending' });

    const noted = await staff.changeStatusWithNote(
      applied.id,
      'rejected',
      'REJECT',
      'Familie hat bereits einen Tisch',
    );
    expect(noted).not.toBeNull();
    const { applications } = await staff.applications({ lot_id: lot.id });
    const app = applications.find((a) => a.id === applied.id)!;
    expect(app.status).toBe('rejected');
    const lines = String(app.internal_notes).split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `\\] admin: ${SYSTEM_ADMIN.email} \\| REJECT \\| Familie hat bereits einen Tisch$`,
      ),
    );
    // one rejection: one event for the family's mail
    await s.recorder.waitFor(
      Events.ApplicationNoteAdded,
      (e) => e.payload.application_id === applied.id,
    );
    const rejections = s.recorder
      .of(Events.ApplicationRejected)
      .filter((e) => e.payload.application_id === applied.id);
    expect(rejections).toHaveLength(1);
  });
});

describe('the client-side logger (back-office §7 "Activity")', () => {
  test("when the client logs actions of the types the specification names, then each is stored under its own user, as the client's", async () => {
    const staff = await signedIn();
    for (const type of ['LOGIN', 'CREATE', 'UPDATE', 'NOTE_ADD', 'delete']) {
      const entry = await staff.logActivity(type, 42, {
        target_type: 'lot',
        user_name: 'Jemand Anderes',
      });
      expect(entry).toMatchObject({
        action_type: type.toUpperCase(),
        target_id: 42,
        user_email: SYSTEM_ADMIN.email,
        source: 'client',
      });
    }
    const page = await staff.activityLogs({ target_id: 42, action_type: 'LOGIN' });
    expect(page.data.some((e) => e.user_email === SYSTEM_ADMIN.email)).toBe(true);
  });

  test('when the client asks for 1000 or 10000 at once, then the documented refusal comes (docs/decisions.md)', async () => {
    const staff = await signedIn();
    await expect(staff.applications({ limit: 1000 })).rejects.toMatchObject({ status: 422 });
    await expect(staff.adminLots({ page: 1, limit: 10000 })).rejects.toMatchObject({ status: 422 });
  });
});
