/*
 * Races between OS processes (issue 42): what must hold across pods is proven by two processes on
 * one database, never by two instances inside the test's process (they would share the store's
 * in-process turns). A test starts a race script twice with `raceProcesses`; the script is a
 * `raceProcess(...)`: it declares what it needs on its store, waits for the common start moment,
 * races, and prints its outcome as JSON.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Connection } from 'mongoose';
import { connectMongo } from '../mongo';
import { Store } from '../store';
import { silentLogger } from './silent-logger';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');

export interface RaceContext {
  conn: Connection;
  store: Store;
  /** the script's own arguments (after the database and the start moment) */
  args: string[];
  /** opens the store (its indexes) and waits for the common start moment */
  atStart(): Promise<void>;
}

/** The body of a race script: its outcome is printed as JSON for the test. */
export function raceProcess(race: (ctx: RaceContext) => Promise<unknown>): void {
  const [mongoUrl, dbName, startAt, ...args] = process.argv.slice(2) as [string, string, string];
  const run = async () => {
    const conn = await connectMongo({
      url: mongoUrl,
      dbName,
      logger: silentLogger,
      timeoutMs: 20000,
    });
    const store = new Store(conn);
    const atStart = async () => {
      await store.open(silentLogger);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())),
      );
    };
    try {
      process.stdout.write(JSON.stringify(await race({ conn, store, args, atStart })));
    } finally {
      await conn.close();
    }
  };
  run().catch((err: unknown) => {
    process.stderr.write(String((err as Error).stack ?? err));
    process.exit(1);
  });
}

/**
 * Starts `script` twice, with arguments `a` and `b`, both on database `dbName`, racing from one
 * moment `startInMs` from now (time enough for both processes to start); answers each process's
 * outcome.
 */
export async function raceProcesses<T>(
  script: string,
  opts: { mongoUrl: string; dbName: string; startInMs?: number },
  a: string[],
  b: string[],
): Promise<[T, T]> {
  const startAt = String(Date.now() + (opts.startInMs ?? 6000));
  const run = async (args: string[]) => {
    const out = await promisify(execFile)(
      path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
      [script, opts.mongoUrl, opts.dbName, startAt, ...args],
      { env: process.env },
    );
    return JSON.parse(out.stdout) as T;
  };
  return Promise.all([run(a), run(b)]);
}
