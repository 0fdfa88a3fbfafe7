// docker-compose.yml cannot be started here (no Docker engine), so its wiring is checked
// statically, and the environment it gives each service is run through that service's own
// configuration parser: a key the service would refuse fails this test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';
import { loadApplicationsConfig } from '@furniture/applications/config';
import { loadAuthConfig } from '@furniture/auth/config';
import { loadCatalogConfig } from '@furniture/catalog/config';
import { loadMediaConfig } from '@furniture/media/config';
import { loadNotificationConfig } from '@furniture/notification/config';
import { loadGatewayConfig } from '@furniture/gateway/config';
import { REPO_ROOT } from '../src/paths';

interface ComposeService {
  image?: string;
  profiles?: string[];
  entrypoint?: string[];
  volumes?: string[];
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  logging?: { driver: string; options?: Record<string, string> };
}

const compose = parse(fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as {
  services: Record<string, ComposeService>;
};
const APP = ['auth', 'catalog', 'applications', 'media', 'notification', 'gateway'] as const;
const loaders: Record<(typeof APP)[number], (env: NodeJS.ProcessEnv) => unknown> = {
  auth: loadAuthConfig,
  catalog: loadCatalogConfig,
  applications: loadApplicationsConfig,
  media: loadMediaConfig,
  notification: loadNotificationConfig,
  gateway: loadGatewayConfig,
};

test('when compose is read, then MongoDB 7, RabbitMQ with management, MinIO, Mailpit and every service are there', () => {
  const s = compose.services;
  expect(s.mongo?.image).toBe('mongo:7');
  expect(s.rabbitmq?.image).toMatch(/^rabbitmq:.*management$/);
  expect(s.minio?.image).toMatch(/^minio\/minio:/);
  expect(s.mailpit?.image).toMatch(/^axllent\/mailpit/);
  for (const name of APP) expect(s[name]).toBeDefined();
});

test('when compose is read, then every third-party image names a version (no latest, no bare name)', () => {
  const images = Object.values(compose.services)
    .filter((service) => !service.build && service.image)
    .map((service) => service.image!);
  expect(images.length).toBeGreaterThanOrEqual(4);
  for (const image of images) expect(image).toMatch(/^[\w./-]+:(?!latest$)[\w.-]+$/);
});

test('when compose is read, then every container keeps a bounded log (json-file with max-size and max-file)', () => {
  const services = Object.entries(compose.services);
  expect(services.length).toBeGreaterThanOrEqual(APP.length + 5);
  for (const [name, service] of services) {
    expect([name, service.logging?.driver]).toEqual([name, 'json-file']);
    expect([name, service.logging?.options]).toEqual([
      name,
      { 'max-size': expect.stringMatching(/^\d+m$/), 'max-file': expect.stringMatching(/^\d+$/) },
    ]);
  }
});

test.each(APP)(
  'when %s is built, then it uses the one Dockerfile pattern with its own SERVICE',
  (name) => {
    const service = compose.services[name]!;
    expect(service.build).toEqual({
      context: '.',
      dockerfile: 'infra/docker/Dockerfile',
      args: { SERVICE: name },
    });
    expect(service.healthcheck?.test.join(' ')).toMatch(
      /fetch\('http:\/\/127\.0\.0\.1:\d+\/(ready|api\/v1\/health)'\)/,
    );
  },
);

test.each(APP.filter((n) => n !== 'gateway'))(
  'when %s starts, then it waits for healthy MongoDB and RabbitMQ and the keys',
  (name) => {
    expect(compose.services[name]?.depends_on).toMatchObject({
      mongo: { condition: 'service_healthy' },
      rabbitmq: { condition: 'service_healthy' },
      keys: { condition: 'service_completed_successfully' },
    });
  },
);

test("when the admin command line is asked for, then it is the admin-cli image with the services' settings, started by hand only", () => {
  const admin = compose.services.admin as ComposeService & {
    profiles?: string[];
    entrypoint?: string[];
  };
  expect(admin.build?.args).toEqual({ SERVICE: 'admin-cli' });
  expect(admin.profiles).toEqual(['tools']);
  expect(admin.entrypoint).toEqual(['node', '/app/start.js']);
  const { MONGO_URL, NODE_ENV } = compose.services.catalog!.environment!;
  expect(admin.environment).toMatchObject({ MONGO_URL, NODE_ENV });
});

test('when an image is assembled, then it holds its workspace and every workspace that one uses', () => {
  // as the Dockerfile runs it
  const workspacesOf = (start: string) =>
    execFileSync(process.execPath, ['infra/docker/workspaces.mjs', start], { cwd: REPO_ROOT })
      .toString()
      .trim()
      .split(' ')
      .sort();
  expect(workspacesOf('services/catalog')).toEqual([
    'services/catalog',
    'services/libs/contracts',
    'services/libs/platform',
  ]);
  expect(workspacesOf('services/admin-cli')).toEqual(
    expect.arrayContaining(['services/auth', 'services/notification', 'services/libs/platform']),
  );
});

test('when the gateway starts, then every service is healthy first', () => {
  const deps = compose.services.gateway?.depends_on ?? {};
  for (const name of APP.filter((n) => n !== 'gateway'))
    expect(deps[name]).toEqual({ condition: 'service_healthy' });
});

test.each(APP)(
  'when %s reads the environment compose gives it, then its config parser accepts it',
  (name) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compose-keys-'));
    const env = { ...compose.services[name]?.environment };
    for (const [key, value] of Object.entries(env)) {
      // ${VAR:-default} is what compose substitutes when VAR is unset
      env[key] = String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
      if (key.endsWith('_FILE')) {
        const file = path.join(dir, path.basename(String(value)));
        fs.writeFileSync(file, 'placeholder key');
        env[key] = file;
      }
    }
    expect(() => loaders[name](env)).not.toThrow();
  },
);

test('when the Dockerfile is read, then its Node is the one .nvmrc names, and one package.json supports', () => {
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'infra/docker/Dockerfile'), 'utf8');
  const image = /^ARG NODE_IMAGE=node:(\d+)-[\w-]+$/m.exec(dockerfile);
  const nvmrc = fs.readFileSync(path.join(REPO_ROOT, '.nvmrc'), 'utf8').trim();
  expect(image?.[1]).toBe(nvmrc);
  const { engines } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
  };
  expect(semver.satisfies(`${nvmrc}.0.0`, engines.node)).toBe(true);
  // and the machine's own Node, which make test runs on
  expect(semver.satisfies(process.versions.node, engines.node)).toBe(true);
});

test('when the Dockerfile is read, then the runtime stage runs as a non-root user with production dependencies only', () => {
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'infra/docker/Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
  expect(runtime).toMatch(/^USER node$/m);
  expect(dockerfile).toMatch(/npm ci --omit=dev/);
  expect(runtime).not.toMatch(/COPY \. \./);
});

test('when the backup profile is read, then it runs the backup command of a built image against compose MongoDB and MinIO, with the keys, into the backups volume that holds the erasure ledger', () => {
  const backup = compose.services.backup!;
  expect(backup.profiles).toEqual(['backup']);
  expect(APP.some((name) => compose.services[name]?.image === backup.image)).toBe(true);
  expect(backup.entrypoint).toEqual(['node', 'services/libs/platform/dist/cli/backup.js']);
  expect(backup.environment).toMatchObject({
    MONGO_URL: compose.services.applications?.environment?.MONGO_URL,
    S3_URL: compose.services.media?.environment?.S3_URL,
    S3_BUCKET: compose.services.media?.environment?.S3_BUCKET,
    BACKUP_DIR: '/backups',
    ERASURE_LEDGER: compose.services.applications?.environment?.ERASURE_LEDGER,
  });
  expect(backup.volumes).toEqual(expect.arrayContaining(['keys:/keys', 'backups:/backups']));
  for (const name of ['applications', 'catalog']) {
    expect(compose.services[name]?.volumes).toContain('backups:/backups');
    expect(compose.services[name]?.environment?.ERASURE_LEDGER).toBe(
      compose.services.applications?.environment?.ERASURE_LEDGER,
    );
  }
  expect(String(compose.services.applications?.environment?.ERASURE_LEDGER)).toMatch(
    /^\/backups\//,
  );
  // a new volume takes the owner of the image's folder: the services run as node
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'infra/docker/Dockerfile'), 'utf8');
  expect(dockerfile).toMatch(/mkdir -p \/backups && chown node:node \/backups/);
});
