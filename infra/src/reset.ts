// `make reset`: make run's data folder and the PostgreSQL database FerretDB keeps its data in,
// both gone, so the next `make run` starts from scratch (as deleting the folder does, see
// postgres.ts; this also frees the database at once).
import fs from 'node:fs';
import path from 'node:path';
import { dropFolderDatabases } from './postgres';
import { killStaleProcess } from './process';
import { wipe } from './start-infra';
import type { Log } from './util';

/**
 * Deletes a data folder and its databases. Refuses while the run that uses it is still running
 * (its FerretDB or MinIO belongs to a live process); servers left behind by a crashed run are
 * stopped first.
 */
export async function resetDataDir(dataDir: string, log: Log): Promise<{ dropped: string[] }> {
  await killStaleProcess(path.join(dataDir, 'pids', 'ferretdb.pid'), 'ferretdb', log);
  await killStaleProcess(path.join(dataDir, 'pids', 'minio.pid'), 'minio', log);
  const dropped = await dropFolderDatabases(dataDir, log);
  if (fs.existsSync(dataDir)) wipe(dataDir, log);
  return { dropped };
}
