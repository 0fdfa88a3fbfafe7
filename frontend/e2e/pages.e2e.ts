// The page checks of issue #9 (screenshots and axe at both widths in both languages) on a
// platform and a browser of their own, seeded through the API: jest runs this file beside
// platform.e2e.ts, so the browser tests take about as long as the longer of the two instead of
// both one after the other.
import { screenshotsScenario } from './scenarios/screenshots';
import { seedWhatThePagesShow } from './support/seed';
import { World } from './support/world';

const world = new World('pages');

beforeAll(async () => {
  await world.start();
  await seedWhatThePagesShow(world);
}, 240_000);
afterAll(() => world.stop(), 60_000);

screenshotsScenario(world);
