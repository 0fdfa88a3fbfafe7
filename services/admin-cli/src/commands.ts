// The commands of npm run admin (cli.ts runs them): a password reset and unlock for staff who
// cannot log in, a new user, the mails that failed for good and sending them again, the kept
// counts counted afresh, the version and what each database holds. They talk to the services'
// databases with the services' own configuration and code (docs/operations.md, "Admin commands").
/* eslint-disable no-console -- a command-line tool prints */
import { randomBytes } from 'node:crypto';
import { ServiceNames, userCreateSchema, type ServiceName } from '@furniture/contracts';
import { platformRelease, type ServiceBaseConfig } from '@furniture/platform';
import { loadApplicationsConfig } from '@furniture/applications/config';
import { applicationsService } from '@furniture/applications/service';
import { loadAuthConfig } from '@furniture/auth/config';
import { authService } from '@furniture/auth/service';
import { loadCatalogConfig } from '@furniture/catalog/config';
import { catalogService } from '@furniture/catalog/service';
import { loadMediaConfig } from '@furniture/media/config';
import { loadNotificationConfig } from '@furniture/notification/config';
import { notificationService } from '@furniture/notification/service';
import { fillDemo, NotEmptyError } from './demo/fill';
import { DEFAULT_LOTS, DEFAULT_SEED, MAX_LOTS, MIN_LOTS } from './demo/plan';
import { composeService, openDatabase, serviceEnv } from './services';

export const usage = `usage: npm run admin -- <command> [arguments]

  version                              the platform's version
  info                                 the version, and the documents in each collection of
                                       each service's database
  users list                           staff users: id, role, e-mail, name
  users create <email> <admin|volunteer> <name>
                                       a new user; prints a password, changed at the first login
  users reset-password <email>         a new password, printed, changed at the first login; the
                                       user's sessions end and the login locks lift
  users unlock <email>                 lifts the login locks of failed logins; the password stays
  mails failed                         mails that failed for good: id, kind, application, why
  mails resend (<id> ... | --all)      failed mails back into the queue; the notification service
                                       sends them within MAIL_WAKE_MAX_MS (60 s)
  counts rebuild [<service>]           the kept counts and summaries of catalog, applications
                                       and notification (or the one named) counted afresh
  demo [--lots <n>] [--seed <n>] [--force] [--url <gateway>]
                                       fills an empty running platform with invented data for
                                       training and screenshots, through its API (make demo):
                                       ${DEFAULT_LOTS} lots by default; refuses a platform with
                                       lots unless --force

  env: the services' own settings: MONGO_URL (default: make run's, mongodb://127.0.0.1:27018/),
       AUTH_MONGO_DB, CATALOG_MONGO_DB, … where a service's database is not furniture_<service>;
       demo: GATEWAY_URL (default: make run's, http://127.0.0.1:$PORT or 8080), ADMIN_EMAIL and
       ADMIN_PASSWORD (default: make run's first administrator)`;

/** A wrong command or argument: the usage, exit code 2. */
export class UsageError extends Error {}

type Env = NodeJS.ProcessEnv;

const CONFIGS: Record<
  ServiceName,
  (env: Env) => Pick<ServiceBaseConfig, 'MONGO_URL' | 'MONGO_DB'>
> = {
  auth: loadAuthConfig,
  catalog: loadCatalogConfig,
  applications: loadApplicationsConfig,
  media: loadMediaConfig,
  notification: loadNotificationConfig,
};

/** The services whose repositories keep counts (store lists); a test checks no other has one. */
export const COUNTED_SERVICES: Record<'catalog' | 'applications' | 'notification', object> = {
  catalog: catalogService,
  applications: applicationsService,
  notification: notificationService,
};

/** A password for someone else to hand over: 20 characters of 120 random bits. */
function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

async function withAuth<T>(
  env: Env,
  run: (users: Awaited<ReturnType<typeof authService.compose>>['users']) => Promise<T>,
) {
  const auth = await composeService(authService, env);
  try {
    return await run(auth.service.users);
  } finally {
    await auth.close();
  }
}

async function withMails<T>(
  env: Env,
  run: (mails: Awaited<ReturnType<typeof notificationService.compose>>['mails']) => Promise<T>,
) {
  const notification = await composeService(notificationService, env);
  try {
    return await run(notification.service.mails);
  } finally {
    await notification.close();
  }
}

const one = (args: string[], what: string): string => {
  if (args.length !== 1) throw new UsageError(`name ${what}`);
  return args[0]!;
};

async function users(command: string | undefined, args: string[], env: Env): Promise<void> {
  switch (command) {
    case 'list':
      if (args.length > 0) throw new UsageError('users list takes no arguments');
      return withAuth(env, async (service) => {
        for (let page = 1; ; page++) {
          const { users: found, total } = await service.list({
            page,
            limit: 100,
            search: undefined,
          });
          for (const u of found)
            console.log(`#${u.id}  ${u.role.padEnd(9)}  ${u.email}  ${u.name}`);
          if (page * 100 >= total) return console.log(`${total} user(s)`);
        }
      });
    case 'create': {
      const [email, role, ...name] = args;
      const parsed = userCreateSchema.safeParse({
        email,
        role,
        name: name.join(' '),
        password: newPassword(),
      });
      if (!parsed.success)
        throw new UsageError(
          `users create: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join(', ')}`,
        );
      return withAuth(env, async (service) => {
        const user = await service.create(null, parsed.data, { mustChangePassword: true });
        console.log(`user #${user.id} ${user.email} (${user.role}) created`);
        console.log(`password: ${parsed.data.password}`);
        console.log('(shown once; the first login leads to choosing a new one)');
      });
    }
    case 'reset-password': {
      const email = one(args, 'the e-mail address of the user');
      return withAuth(env, async (service) => {
        const password = newPassword();
        const user = await service.resetPassword(null, email, password);
        console.log(`user #${user.id} ${user.email}: new password, sessions ended, unlocked`);
        console.log(`password: ${password}`);
        console.log('(shown once; the first login leads to choosing a new one)');
      });
    }
    case 'unlock': {
      const email = one(args, 'the e-mail address of the user');
      return withAuth(env, async (service) => {
        const user = await service.unlock(email);
        console.log(`user #${user.id} ${user.email}: login locks lifted`);
      });
    }
    default:
      throw new UsageError(`unknown users command: ${command ?? '(none)'}`);
  }
}

async function mails(command: string | undefined, args: string[], env: Env): Promise<void> {
  switch (command) {
    case 'failed':
      if (args.length > 0) throw new UsageError('mails failed takes no arguments');
      return withMails(env, async (service) => {
        const failed = await service.failed();
        if (failed.length === 0) return console.log('no failed mails');
        for (const m of failed) {
          const about =
            typeof m.donation_id === 'number'
              ? `donation ${m.donation_id}`
              : (m.application_id ?? 0) < 0
                ? `wish ${-m.application_id!}  lot ${m.lot_id}`
                : `application ${m.application_id}  lot ${m.lot_id}`;
          console.log(
            `#${m.id}  ${m.kind}  ${about}  failed ${m.updated_at.toISOString()} after ${m.attempts} attempt(s)`,
          );
          console.log(`    ${m.last_error ?? '(no error text)'}`);
        }
        console.log(`${failed.length} failed mail(s)`);
      });
    case 'resend': {
      const all = args.includes('--all');
      const ids = args.filter((a) => a !== '--all').map(Number);
      if (all === ids.length > 0 || ids.some((id) => !Number.isInteger(id) || id <= 0))
        throw new UsageError('mails resend: name the mail ids, or --all');
      return withMails(env, async (service) => {
        const targets = all ? (await service.failed()).map((m) => m.id) : ids;
        let queued = 0;
        for (const id of targets) {
          const result = await service.resend(id);
          if (result === 'queued') queued++;
          else console.log(`#${id}: ${RESEND_REFUSALS[result]}`);
        }
        console.log(
          `${queued} mail(s) back in the queue: the notification service sends them within MAIL_WAKE_MAX_MS`,
        );
        if (queued < targets.length) process.exitCode = 1;
      });
    }
    default:
      throw new UsageError(`unknown mails command: ${command ?? '(none)'}`);
  }
}

const RESEND_REFUSALS = {
  not_found: 'no such mail (a wrong id, or deleted after MAIL_RETENTION_DAYS or an erasure)',
  not_failed: 'not failed (sent, or already waiting to be sent)',
  no_text: 'its text was not kept (it failed before failed mails kept theirs, 0.3.0)',
} as const;

async function counts(command: string | undefined, args: string[], env: Env): Promise<void> {
  if (command !== 'rebuild') throw new UsageError(`unknown counts command: ${command ?? '(none)'}`);
  if (args.length > 1 || (args[0] && !(args[0] in COUNTED_SERVICES)))
    throw new UsageError(
      `counts rebuild: a service whose data has kept counts: ${Object.keys(COUNTED_SERVICES).join(', ')}`,
    );
  const names = (
    args[0] ? [args[0]] : Object.keys(COUNTED_SERVICES)
  ) as (keyof typeof COUNTED_SERVICES)[];
  for (const name of names) {
    const started = Date.now();
    // only the store of the composed service is used: any of the three will do as a type
    const def = COUNTED_SERVICES[name] as unknown as typeof catalogService;
    const composed = await composeService(def, env);
    try {
      const counted = await composed.kit.store.rebuild((msg) => console.log(`${name}: ${msg}`));
      const lists = Object.entries(counted).map(([list, n]) => `${list} ${n}`);
      console.log(`${name}: counts rebuilt in ${Date.now() - started} ms (${lists.join(', ')})`);
    } finally {
      await composed.close();
    }
  }
}

async function info(env: Env): Promise<void> {
  console.log(`Möbelbrücke ${platformRelease().version}`);
  for (const service of ServiceNames) {
    const config = CONFIGS[service](serviceEnv(service, env));
    const conn = await openDatabase(config, env);
    try {
      const names = (await conn.db!.listCollections({}, { nameOnly: true }).toArray())
        .map((c) => c.name)
        .sort();
      console.log(`\n${service} (database ${config.MONGO_DB}): ${names.length} collection(s)`);
      for (const name of names)
        console.log(`  ${name.padEnd(32)} ${await conn.db!.collection(name).countDocuments({})}`);
    } finally {
      await conn.close();
    }
  }
}

/** make run's first administrator when ADMIN_EMAIL / ADMIN_PASSWORD are not set (README). */
const LOCAL_ADMIN = { email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' };

async function demo(args: string[], env: Env): Promise<void> {
  const options = { lots: DEFAULT_LOTS, seed: DEFAULT_SEED, force: false, url: '' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`demo: ${arg} needs a value`);
      return v;
    };
    const integer = (min: number, max: number) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min || n > max)
        throw new UsageError(`demo: ${arg} takes a whole number from ${min} to ${max}`);
      return n;
    };
    if (arg === '--force') options.force = true;
    else if (arg === '--lots') options.lots = integer(MIN_LOTS, MAX_LOTS);
    else if (arg === '--seed') options.seed = integer(0, 2 ** 32 - 1);
    else if (arg === '--url') options.url = value().replace(/\/+$/, '');
    else throw new UsageError(`demo: unknown argument ${arg}`);
  }
  const port = env.PORT || env.GATEWAY_PORT || '8080';
  try {
    await fillDemo({
      ...options,
      url: options.url || env.GATEWAY_URL?.replace(/\/+$/, '') || `http://127.0.0.1:${port}`,
      email: env.ADMIN_EMAIL || LOCAL_ADMIN.email,
      password: env.ADMIN_PASSWORD || LOCAL_ADMIN.password,
      say: (line) => console.log(line ? `demo  ${line}` : ''),
    });
  } catch (err) {
    if (!(err instanceof NotEmptyError)) throw err;
    console.error(`demo refused: ${err.message}`);
    process.exitCode = 3;
  }
}

export async function main(argv: string[], env: Env = process.env): Promise<void> {
  const [group, command, ...args] = argv;
  switch (group) {
    case 'version':
      if (command !== undefined) throw new UsageError('version takes no arguments');
      return console.log(platformRelease().version);
    case 'info':
      if (command !== undefined) throw new UsageError('info takes no arguments');
      return info(env);
    case 'users':
      return users(command, args, env);
    case 'mails':
      return mails(command, args, env);
    case 'counts':
      return counts(command, args, env);
    case 'demo':
      return demo(command === undefined ? [] : [command, ...args], env);
    case undefined:
    case 'help':
    case '--help':
      throw new UsageError('the operator’s commands');
    default:
      throw new UsageError(`unknown command: ${group}`);
  }
}
