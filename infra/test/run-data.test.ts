// make run's data lives where the README says: deleting the data folder, or `make reset`, really
// starts afresh, also when FerretDB keeps its data in a PostgreSQL database outside the folder.
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { Client } from 'pg';
import { startInfra } from '../src';
import {
  chooseFerretBackend,
  databasePrefix,
  DATABASE_MARKER,
  markedDatabase,
} from '../src/postgres';
import { resetDataDir } from '../src/reset';
import { clearInfraEnv, freshDir } from './helpers';

const SERVER = process.env.FERRETDB_POSTGRESQL_URL?.trim() || 'postgres://postgres@127.0.0.1:5432';
const log = (): void => undefined;

/** The names of the PostgreSQL databases of a data folder's path; null without a PostgreSQL. */
async function databasesOf(dataDir: string): Promise<string[] | null> {
  const url = new URL(SERVER);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return null;
  }
  try {
    const prefix = databasePrefix(dataDir);
    const rows = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    return rows.rows
      .map((r) => r.datname)
      .filter((name) => name.startsWith(prefix))
      .sort();
  } finally {
    await client.end();
  }
}

/** Starts the infrastructure on the folder, runs `fn` against its MongoDB, stops it again. */
async function withRun<T>(dataDir: string, fn: (lots: ReturnType<typeof lotsOf>) => Promise<T>) {
  const infra = await startInfra({ dataDir, log });
  const client = new MongoClient(infra.mongoUrl);
  try {
    await client.connect();
    return await fn(lotsOf(client));
  } finally {
    await client.close();
    await infra.stop();
  }
}
const lotsOf = (client: MongoClient) =>
  client.db('furniture_catalog').collection<{ _id: string; name: string }>('lots');

let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = clearInfraEnv();
});
afterAll(() => restoreEnv());

test('when the data folder is kept, then the next start finds its data; when it is deleted, then the next start is empty and the old database gone', async () => {
  const dataDir = freshDir('run-data-delete');
  await withRun(dataDir, (lots) => lots.insertOne({ _id: 'lot-1', name: 'Sofa' }));
  const firstDatabase = markedDatabase(dataDir);

  await withRun(dataDir, async (lots) => {
    expect(await lots.findOne({ _id: 'lot-1' })).toEqual({ _id: 'lot-1', name: 'Sofa' });
  });
  expect(markedDatabase(dataDir)).toBe(firstDatabase);

  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  await withRun(dataDir, async (lots) => {
    expect(await lots.countDocuments()).toBe(0);
  });

  const databases = await databasesOf(dataDir);
  if (databases === null) {
    expect(firstDatabase).toBeUndefined(); // SQLite files: the data was inside the folder
  } else {
    expect(firstDatabase).toMatch(/^furniture_ferret_[0-9a-f]{12}_[0-9a-f]{8}$/);
    expect(markedDatabase(dataDir)).not.toBe(firstDatabase);
    expect(databases).toEqual([markedDatabase(dataDir)]);
  }
  await resetDataDir(dataDir, log);
});

test('when make reset runs, then the data folder and its database are gone and the next start is empty', async () => {
  const dataDir = freshDir('run-data-reset');
  await withRun(dataDir, (lots) => lots.insertOne({ _id: 'lot-2', name: 'Schrank' }));
  const marked = markedDatabase(dataDir);

  const { dropped } = await resetDataDir(dataDir, log);

  expect(fs.existsSync(dataDir)).toBe(false);
  const databases = await databasesOf(dataDir);
  if (databases !== null) {
    expect(dropped).toEqual([marked]);
    expect(databases).toEqual([]);
  }
  await withRun(dataDir, async (lots) => {
    expect(await lots.findOne({ _id: 'lot-2' })).toBeNull();
  });
  await resetDataDir(dataDir, log);
});

test('when make run still uses the data folder, then make reset refuses and the data stays', async () => {
  const dataDir = freshDir('run-data-running');
  const infra = await startInfra({ dataDir, log });
  try {
    await expect(resetDataDir(dataDir, log)).rejects.toThrow(
      /belongs to running process .*stop that first/,
    );
    expect(
      fs.existsSync(path.join(dataDir, DATABASE_MARKER)) || (await databasesOf(dataDir)) === null,
    ).toBe(true);
    const client = new MongoClient(infra.mongoUrl);
    try {
      expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await client.close();
    }
  } finally {
    await infra.stop();
  }
  await resetDataDir(dataDir, log);
});

test('when a folder of an earlier version still holds its data in the database named after the path, then that database is kept', async () => {
  const dataDir = freshDir('run-data-legacy');
  const legacy = databasePrefix(dataDir);
  const url = new URL(SERVER);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 2000 });
  const reachable = await admin.connect().then(
    () => true,
    () => false,
  );
  if (!reachable) {
    // without PostgreSQL there is no such database to keep: FerretDB uses SQLite in the folder
    expect((await chooseFerretBackend({ dataDir, fresh: false, log })).kind).toBe('sqlite');
    return;
  }
  try {
    await admin.query(`CREATE DATABASE "${legacy}"`);
  } finally {
    await admin.end();
  }
  fs.mkdirSync(path.join(dataDir, 'ferretdb-state'), { recursive: true }); // FerretDB ran here
  const backend = await chooseFerretBackend({ dataDir, fresh: false, log });
  expect(backend).toMatchObject({ kind: 'postgresql', database: legacy });
  expect(markedDatabase(dataDir)).toBe(legacy);
  expect(await databasesOf(dataDir)).toEqual([legacy]);
  await resetDataDir(dataDir, log);
  expect(await databasesOf(dataDir)).toEqual([]);
});
