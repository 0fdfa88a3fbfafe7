import { freshMongoAnswers, watchMongoConnection } from '../src';
import { testUrls } from '../src/testing';

const tick = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('a MongoDB connection that does not recover', () => {
  afterEach(() => jest.useRealTimers());

  test('when the own connection fails while a fresh one answers three checks in a row, then the service is restarted once', async () => {
    jest.useFakeTimers();
    let ownOk = true;
    let stuck = 0;
    const stop = watchMongoConnection({
      ping: async () => ownOk,
      freshAnswers: async () => true,
      onStuck: () => stuck++,
      everyMs: 1000,
    });
    await tick(5000);
    expect(stuck).toBe(0);
    ownOk = false;
    await tick(1000);
    expect(stuck).toBe(0);
    await tick(1000);
    expect(stuck).toBe(1);
    stop();
    await tick(10_000);
    expect(stuck).toBe(1);
  });

  test('when the database itself is away (a fresh connection fails too), or the own connection comes back, then nothing is restarted', async () => {
    jest.useFakeTimers();
    let freshOk = false;
    let ownOk = false;
    let stuck = 0;
    const stop = watchMongoConnection({
      ping: async () => ownOk,
      freshAnswers: async () => freshOk,
      onStuck: () => stuck++,
      everyMs: 1000,
    });
    await tick(30_000); // a long outage
    expect(stuck).toBe(0);
    freshOk = true;
    await tick(1000); // the server is back; one check with the own connection still failing
    ownOk = true; // and then it recovers, as it should
    await tick(10_000);
    expect(stuck).toBe(0);
    stop();
  });

  test('when asked whether a fresh connection answers, then yes for the running server and no for a closed port', async () => {
    expect(await freshMongoAnswers(testUrls().mongoUrl)).toBe(true);
    expect(await freshMongoAnswers('mongodb://127.0.0.1:9/', 500)).toBe(false);
  });
});
