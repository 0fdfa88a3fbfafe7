/** Turns a pino JSON line into one short readable console line (other lines pass unchanged). */
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

export function formatLogLine(name: string, line: string): string {
  const prefix = name.padEnd(12);
  if (!line.startsWith('{')) return `${prefix} ${line}`;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `${prefix} ${line}`;
  }
  const time =
    typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : '';
  const level = LEVELS[Number(entry.level)] ?? 'INFO ';
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req && res) {
    return `${time} ${prefix} ${level} ${req.method ?? ''} ${req.url ?? ''} ${res.statusCode ?? ''} ${String(entry.responseTime ?? '')}ms`;
  }
  const err = entry.err as { message?: string } | string | undefined;
  const errText = typeof err === 'string' ? err : err?.message;
  return `${time} ${prefix} ${level} ${String(entry.msg ?? '')}${errText ? ` (${errText})` : ''}`;
}
