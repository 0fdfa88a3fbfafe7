/**
 * The watermark of a ledger: no archive older than the personal-data retention period exists
 * (BACKUP_RETENTION_DAYS may not exceed it), so no restore needs an erasure before it; a day of
 * margin for clocks and the backup's own run.
 */
export function ledgerWatermark(now: Date, retentionDays: number): string {
  return new Date(now.getTime() - (retentionDays + 1) * 24 * 3600 * 1000).toISOString();
}
