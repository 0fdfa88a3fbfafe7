// @furniture/platform/backup: the backup archive, its restore and the erasure ledger, for the
// backup command (cli/backup.ts), `make backup` / `make restore` (infra) and the restore drill.
export * from './archive';
export * from './command';
export * from './encryption';
export * from './erasure-ledger';
export { s3Client, listObjects } from './s3';
