// The log files of `make run` (.data/run/logs): every one is kept below a size, with a few older
// ones beside it (ferretdb.log, ferretdb.log.1, … the highest the oldest), so a platform that
// runs for months fills no disk. The services' and the gateway's logs pass through the
// supervisor and are rotated as they grow; FerretDB, MinIO and a private RabbitMQ write their own
// file (it must outlive a killed launcher, see process.ts) and theirs is rotated at each start.
import fs from 'node:fs';

export interface LogRotation {
  /** a file that reaches this size is moved aside */
  maxBytes: number;
  /** how many moved-aside files are kept */
  keep: number;
}

/** RUN_LOG_MAX_MB (10) and RUN_LOG_KEEP (3): at most 40 MB for each log. */
export function logRotation(env: NodeJS.ProcessEnv = process.env): LogRotation {
  const number = (key: string, fallback: number, min: number): number => {
    const raw = env[key]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`${key} must be a number ≥ ${min}`);
    return value;
  };
  return {
    maxBytes: Math.round(number('RUN_LOG_MAX_MB', 10, 0.001) * 1024 * 1024),
    keep: Math.floor(number('RUN_LOG_KEEP', 3, 0)),
  };
}

/** file → file.1 → file.2 …; what would become file.<keep + 1> is deleted. */
export function rotate(file: string, keep: number): void {
  fs.rmSync(`${file}.${keep}`, { force: true });
  for (let n = keep - 1; n >= 1; n--) {
    if (fs.existsSync(`${file}.${n}`)) fs.renameSync(`${file}.${n}`, `${file}.${n + 1}`);
  }
  if (keep > 0 && fs.existsSync(file)) fs.renameSync(file, `${file}.1`);
  else fs.rmSync(file, { force: true });
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** At a start: a file that already reached the size is moved aside first. */
export function rotateIfFull(file: string, rotation: LogRotation = logRotation()): void {
  if (sizeOf(file) >= rotation.maxBytes) rotate(file, rotation.keep);
}

/** A log file written line by line, moved aside whenever a line takes it to the size. */
export class RotatingLog {
  private fd: number;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly rotation: LogRotation = logRotation(),
  ) {
    rotateIfFull(file, rotation);
    this.size = sizeOf(file);
    this.fd = fs.openSync(file, 'a');
  }

  write(line: string): void {
    const bytes = Buffer.from(`${line}\n`);
    fs.writeSync(this.fd, bytes);
    this.size += bytes.length;
    if (this.size >= this.rotation.maxBytes) {
      fs.closeSync(this.fd);
      rotate(this.file, this.rotation.keep);
      this.fd = fs.openSync(this.file, 'a');
      this.size = 0;
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
