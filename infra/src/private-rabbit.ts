// A second, throw-away RabbitMQ node for chaos tests: it can be restarted without disturbing the
// shared broker on 5672 that every other test uses.
//
// How it is isolated from the machine's node (found by experiment on Debian's RabbitMQ 3.10):
// - The /usr/sbin wrappers switch to the rabbitmq user when run as root (and then could not
//   write our data folder), so the scripts in /usr/lib/rabbitmq/bin are run directly, as us.
// - Own node name, AMQP port, Erlang distribution port, mnesia/log folders and pid file.
// - Own rabbitmq.conf (the system one pins listeners.tcp to 127.0.0.1:5672) and an own,
//   empty rabbitmq-env.conf (the system one sets NODENAME=rabbit@localhost).
// - Empty enabled-plugins file: no management plugin fighting over port 15672.
// - HOME points into the data folder, whose .erlang.cookie both the node and rabbitmqctl use,
//   so the cookie always matches whatever user we run as.
// The machine's epmd (port 4369) is shared; it is made for that.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { killStaleProcess, ManagedProcess } from './process';
import { pingAmqp } from './rabbit';
import {
  choosePort,
  errorMessage,
  freePort,
  isPortFree,
  noLog,
  raceTimeout,
  waitUntil,
  type Log,
} from './util';

const execFileAsync = promisify(execFile);

export interface PrivateRabbitOptions {
  /** Folder for this node's files; its mnesia data is wiped at start (a new node every time). */
  dataDir: string;
  /** AMQP port; 0 or absent: a free port. */
  port?: number;
  log?: Log;
  /** How long to wait for the node to accept AMQP connections (default 180 s). */
  timeoutMs?: number;
}

export interface PrivateRabbit {
  /** amqp://guest:guest@127.0.0.1:PORT */
  url: string;
  port: number;
  nodeName: string;
  /** rabbitmqctl stop: halts the node (and its Erlang VM). */
  stop(): Promise<void>;
  /** rabbitmqctl stop_app + start_app: every connection drops, durable data survives. */
  restart(): Promise<void>;
  /** rabbitmqctl stop_app: the broker is gone (connections refused) until startApp(). */
  stopApp(): Promise<void>;
  /** rabbitmqctl start_app, and waits until it accepts AMQP connections again. */
  startApp(): Promise<void>;
}

function findScripts(): { server: string; ctl: string } {
  const dirs = [
    process.env.RABBITMQ_SCRIPTS_DIR,
    '/usr/lib/rabbitmq/bin',
    '/opt/homebrew/sbin',
    '/usr/local/sbin',
  ];
  for (const dir of dirs) {
    if (
      dir &&
      fs.existsSync(path.join(dir, 'rabbitmq-server')) &&
      fs.existsSync(path.join(dir, 'rabbitmqctl'))
    ) {
      return { server: path.join(dir, 'rabbitmq-server'), ctl: path.join(dir, 'rabbitmqctl') };
    }
  }
  return { server: 'rabbitmq-server', ctl: 'rabbitmqctl' }; // from PATH
}

async function chooseDistPort(amqpPort: number): Promise<number> {
  const conventional = amqpPort + 20_000; // RabbitMQ's own convention
  if (conventional <= 65_535 && (await isPortFree(conventional))) return conventional;
  return freePort();
}

function ensureCookie(home: string): void {
  const cookie = path.join(home, '.erlang.cookie');
  fs.mkdirSync(home, { recursive: true });
  if (fs.existsSync(cookie)) return;
  const value = Array.from(randomBytes(20), (b) => String.fromCharCode(65 + (b % 26))).join('');
  fs.writeFileSync(cookie, value, { mode: 0o400 });
}

/**
 * Stops nodes left behind in this folder by test processes that were killed hard, and deletes
 * the data of every node that is not running (each start is a new node). Nodes of other live
 * processes sharing the folder are left alone.
 */
async function cleanUpOldNodes(dataDir: string, log: Log): Promise<void> {
  const pidsDir = path.join(dataDir, 'pids');
  const live = new Set<string>();
  for (const file of fs.readdirSync(pidsDir)) {
    const m = /^private-rabbit-(\d+)\.pid$/.exec(file);
    if (!m) continue;
    try {
      await killStaleProcess(
        path.join(pidsDir, file),
        `RABBITMQ_NODENAME=furniture-chaos-${m[1] ?? ''}@`,
        log,
      );
    } catch {
      live.add(`furniture-chaos-${m[1] ?? ''}@localhost`); // still owned by a running process
    }
  }
  const mnesiaBase = path.join(dataDir, 'mnesia');
  for (const entry of fs.readdirSync(mnesiaBase)) {
    // <node>, <node>-plugins-expand, <node>-feature_flags, <node>.pid
    if (![...live].some((node) => entry.startsWith(node)))
      fs.rmSync(path.join(mnesiaBase, entry), { recursive: true, force: true });
  }
}

export async function startPrivateRabbit(opts: PrivateRabbitOptions): Promise<PrivateRabbit> {
  const log = opts.log ?? noLog;
  const dataDir = path.resolve(opts.dataDir);
  const host = '127.0.0.1';
  const port = await choosePort(opts.port, 'private RabbitMQ node', 'pick another port', host);
  const distPort = await chooseDistPort(port);
  const nodeName = `furniture-chaos-${port}@localhost`;
  const scripts = findScripts();

  const pidFile = path.join(dataDir, 'pids', `private-rabbit-${port}.pid`);
  const home = path.join(dataDir, 'home');
  const mnesiaBase = path.join(dataDir, 'mnesia');
  for (const dir of [mnesiaBase, path.join(dataDir, 'logs'), path.join(dataDir, 'pids')])
    fs.mkdirSync(dir, { recursive: true });
  await cleanUpOldNodes(dataDir, log);
  ensureCookie(home);
  const pluginsFile = path.join(dataDir, 'enabled_plugins');
  fs.writeFileSync(pluginsFile, '[].\n');
  const envConf = path.join(dataDir, 'rabbitmq-env.conf');
  fs.writeFileSync(envConf, '# intentionally empty: keeps /etc/rabbitmq/rabbitmq-env.conf out\n');
  const confFile = path.join(dataDir, `rabbitmq-${port}.conf`);
  fs.writeFileSync(
    confFile,
    [
      `listeners.tcp.1 = ${host}:${port}`,
      'loopback_users.guest = true',
      'disk_free_limit.absolute = 50MB',
      '', // trailing newline
    ].join('\n'),
  );

  // Inherited RABBITMQ_* settings (e.g. of the shared node) must not leak into this node.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('RABBITMQ_')),
  );
  Object.assign(env, {
    HOME: home,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: host,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: mnesiaBase,
    RABBITMQ_LOG_BASE: path.join(dataDir, 'logs'),
    RABBITMQ_PID_FILE: path.join(mnesiaBase, `${nodeName}.pid`),
    RABBITMQ_ENABLED_PLUGINS_FILE: pluginsFile,
    RABBITMQ_CONF_ENV_FILE: envConf,
    RABBITMQ_CONFIG_FILE: confFile,
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    ERL_EPMD_ADDRESS: host,
    // a node killed by the fault tests may leave a crash dump: in its folder, not the checkout
    ERL_CRASH_DUMP: path.join(dataDir, 'logs', `erl_crash-${port}.dump`),
  });

  const url = `amqp://guest:guest@${host}:${port}`;
  // an Erlang node boots in 5-20 s alone; beside a browser suite on two cores it took over 60 s
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const started = Date.now();
  // In the foreground the script stays the parent of the Erlang VM and traps SIGTERM/SIGINT to
  // run `rabbitmqctl stop`, so signalling the child stops the node gracefully.
  const proc = new ManagedProcess({
    name: `RabbitMQ node ${nodeName}`,
    command: scripts.server,
    args: [],
    env,
    logFile: path.join(dataDir, 'logs', `private-rabbit-${port}.log`),
    pidFile,
  });

  const ctl = async (...args: string[]): Promise<void> => {
    try {
      await execFileAsync(scripts.ctl, ['-n', nodeName, ...args], { env, timeout: 60_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      const output = `${e.stderr ?? ''}${e.stdout ?? ''}`
        .trim()
        .split('\n')
        .slice(0, 15)
        .join('\n');
      throw new Error(
        `rabbitmqctl -n ${nodeName} ${args.join(' ')} failed: ${errorMessage(err)}${output ? `\n${output}` : ''}`,
      );
    }
  };
  const waitForAmqp = (): Promise<void> =>
    waitUntil(() => pingAmqp(url), {
      what: `private RabbitMQ node ${nodeName} on ${host}:${port}`,
      timeoutMs,
      intervalMs: 300,
      abort: proc.exitAsError(),
      hint: () => proc.logHint(),
    });

  try {
    await waitForAmqp();
    // Proves that rabbitmqctl reaches the node (the Erlang cookie matches): restart() needs it.
    await ctl('await_startup', '--timeout', '30');
  } catch (err) {
    await proc.stop(15_000);
    throw err;
  }
  log(`private RabbitMQ node ${nodeName} ready on ${url} (${Date.now() - started} ms)`);

  return {
    url,
    port,
    nodeName,
    async restart() {
      const t = Date.now();
      await ctl('stop_app');
      await ctl('start_app');
      await waitForAmqp();
      log(`private RabbitMQ node ${nodeName} restarted (${Date.now() - t} ms)`);
    },
    async stopApp() {
      await ctl('stop_app');
    },
    async startApp() {
      await ctl('start_app');
      await waitForAmqp();
    },
    async stop() {
      if (!proc.isRunning) return;
      try {
        await ctl('stop');
      } catch (err) {
        log(`rabbitmqctl stop failed (${errorMessage(err)}); sending SIGTERM`);
      }
      await raceTimeout(proc.exited, 15_000); // the VM halts on its own after `stop`
      await proc.stop(15_000); // returns at once when it has
    },
  };
}
