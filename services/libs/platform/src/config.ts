import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Config is parsed from the environment once, at start, and the process fails fast with every
 * problem listed. Each service documents its keys in its own config.ts.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An integer key, within min and max when given, with a default. */
export function envInt(fallback: number, range: { min?: number; max?: number } = {}) {
  let n = z.coerce.number().int();
  if (range.min !== undefined) n = n.min(range.min);
  if (range.max !== undefined) n = n.max(range.max);
  return n.default(fallback);
}

/** Keys every service reads. */
/**
 * Another service's address: one URL, or several separated by commas (make run REPLICAS=2: each
 * of its processes, asked in turn, internal-calls.ts addressesOf).
 */
export const serviceAddress = z
  .string()
  .refine(
    (value) =>
      value
        .split(',')
        .every((url) => z.url({ protocol: /^https?$/ }).safeParse(url.trim()).success),
    'a URL, or several separated by commas',
  );

export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** pino level */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** address to bind; services are reachable only through the gateway */
  HOST: z.string().default('127.0.0.1'),
  /** MongoDB (or FerretDB) URL without a database name */
  MONGO_URL: z.string().default('mongodb://127.0.0.1:27018/'),
  /** AMQP URL of RabbitMQ */
  AMQP_URL: z.string().default('amqp://guest:guest@127.0.0.1:5672'),
  /** name of the durable topic exchange for domain events */
  AMQP_EXCHANGE: z.string().default('furniture.events'),
  /**
   * classic queues (one RabbitMQ node: the single-machine run) or quorum queues (a cluster; the
   * k8s config). An existing queue keeps its type: docs/operations.md, "Quorum queues"
   */
  AMQP_QUEUE_TYPE: z.enum(['classic', 'quorum']).default('classic'),
  /** unacknowledged messages a consumer holds at once */
  AMQP_PREFETCH: envInt(20, { min: 1, max: 1000 }),
  /** handler attempts before a message is dead-lettered */
  AMQP_MAX_ATTEMPTS: envInt(5, { min: 1, max: 50 }),
  /** first retry delay; doubles per attempt */
  AMQP_RETRY_BASE_MS: envInt(1000, { min: 1 }),
  /**
   * the auth service (internal calls): a starting or reconnected process loads the sessions it
   * ended recently (unset: only the events count)
   */
  AUTH_URL: serviceAddress.optional(),
  /**
   * this service's own secret for the /internal calls it makes (or INTERNAL_SECRET_FILE), sent
   * with its name; unset: its calls carry no credential and are refused (docs/security.md)
   */
  INTERNAL_SECRET: z.string().optional(),
  INTERNAL_SECRET_FILE: z.string().optional(),
  /**
   * who may call this service's /internal routes: `service:sha256hex` of each caller's secret,
   * several per caller while one rotates (or INTERNAL_CALLERS_FILE); unset: every internal call
   * is refused (401)
   */
  INTERNAL_CALLERS: z.string().optional(),
  INTERNAL_CALLERS_FILE: z.string().optional(),
  /** PEM public key for verifying access tokens (or JWT_PUBLIC_KEY_FILE) */
  JWT_PUBLIC_KEY: z.string().optional(),
  JWT_PUBLIC_KEY_FILE: z.string().optional(),
  JWT_ISSUER: z.string().default('furniture-auth'),
  JWT_AUDIENCE: z.string().default('furniture-platform'),
  /** time allowed for in-flight requests at shutdown */
  SHUTDOWN_TIMEOUT_MS: envInt(10000, { min: 0 }),
  /**
   * after SIGTERM, how long the process reports not-ready but goes on serving before it stops
   * accepting (0 on one machine; the k8s config sets it longer than endpoint propagation)
   */
  DRAIN_DELAY_MS: envInt(0, { min: 0, max: 120000 }),
  /**
   * Shed, don't queue (admission.ts): requests served at once (at the gateway: per service), how
   * long one may wait for its place before it is answered 503 with Retry-After, and the share of
   * the places that public (anonymous) requests may fill; staff calls, logins and health keep
   * the rest
   */
  MAX_CONCURRENT_REQUESTS: envInt(64, { min: 1, max: 10000 }),
  MAX_REQUEST_WAIT_MS: envInt(1000, { min: 0, max: 60000 }),
  PUBLIC_REQUEST_SHARE: z.coerce.number().min(0.05).max(1).default(0.75),
  /** serve Prometheus metrics on /metrics of METRICS_PORT */
  METRICS_ENABLED: envBool.default(true),
  /**
   * the metrics' own port, never the API's (k8s: 9464, the only port the monitoring namespace
   * may reach); 0: one the system chooses (several processes on one machine), logged at start
   */
  METRICS_PORT: envInt(9464, { min: 0, max: 65535 }),
  /** how often the outbox relay looks for events a crash or an outage left behind */
  OUTBOX_INTERVAL_MS: envInt(5000, { min: 50 }),
  /**
   * how often one replica recounts the kept counts to repair a count a killed process left one
   * off (store/list.ts recount), and how long its two counting passes lie apart
   */
  COUNTS_RECOUNT_MS: envInt(30 * 60_000, { min: 1000 }),
  COUNTS_RECOUNT_SETTLE_MS: envInt(5000, { min: 100 }),
  /** processed event ids are remembered this long (redeliveries come within minutes) */
  PROCESSED_EVENTS_RETENTION_DAYS: envInt(30, { min: 1 }),
};

/** Reads a secret given inline or as a file path (Kubernetes secrets are mounted as files). */
export function readSecret(
  inline: string | undefined,
  file: string | undefined,
  name: string,
): string {
  if (inline && inline.trim() !== '') return inline.replace(/\\n/g, '\n');
  if (file && file.trim() !== '') return readFileSync(file, 'utf8');
  throw new Error(`Invalid configuration:\n  ${name}: set ${name} or ${name}_FILE`);
}
