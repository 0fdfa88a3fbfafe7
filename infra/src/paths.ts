// Where things live on disk. This file sits in infra/src (or infra/dist once compiled),
// so the repository root is two levels up in both cases.
import path from 'node:path';

export const INFRA_DIR = path.resolve(__dirname, '..');
export const REPO_ROOT = path.resolve(INFRA_DIR, '..');

/** Data folder of `make run` (kept between runs); RUN_DATA_DIR moves it (a second stack). */
export const RUN_DATA_DIR = process.env.RUN_DATA_DIR
  ? path.resolve(process.env.RUN_DATA_DIR)
  : path.join(REPO_ROOT, '.data', 'run');
/**
 * Where `make backup` writes its archives and the erasure ledger lives (beside them, never inside
 * make run's data: `make reset` and `make restore` leave it alone); BACKUP_DIR moves it.
 */
export const BACKUP_DIR = process.env.BACKUP_DIR
  ? path.resolve(process.env.BACKUP_DIR)
  : path.join(REPO_ROOT, '.data', 'backups');
/** The erasure ledger of make run's applications service (docs/privacy.md, "Backups"). */
export const ERASURE_LEDGER_FILE = path.join(BACKUP_DIR, 'erasures.jsonl');
/**
 * Data folder of the jest integration tests (wiped at the start of every test run).
 * TEST_INFRA_DIR lets two test runs on one machine use separate folders.
 */
export const TEST_DATA_DIR = process.env.TEST_INFRA_DIR
  ? path.resolve(process.env.TEST_INFRA_DIR)
  : path.join(REPO_ROOT, '.data', 'test-infra');

/** Path relative to the repository root when it is inside it (shorter error messages). */
export function displayPath(p: string): string {
  const rel = path.relative(REPO_ROOT, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}
