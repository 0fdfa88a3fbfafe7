// Renders every kustomize overlay under k8s/overlays and validates each object offline against
// the Kubernetes API schemas shipped in the kubernetes-models package, plus the rules our
// deployments rely on (probes, resources, no secrets in the repository, wiring between objects).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../src/paths';
import { ensureTool } from '../src/tools';

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};

interface Container {
  name: string;
  image: string;
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  env?: { name: string; value?: string }[];
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
}

const overlaysDir = path.join(REPO_ROOT, 'k8s', 'overlays');
const overlays = fs
  .readdirSync(overlaysDir)
  .filter((d) => fs.existsSync(path.join(overlaysDir, d, 'kustomization.yaml')));

/** kubernetes-models class for an apiVersion/kind, e.g. apps/v1 Deployment. */
function modelFor(obj: K8sObject): { new (data: unknown): { validate(): void } } {
  // the Prometheus Operator's resources (PodMonitor, PrometheusRule) have their own package
  const modulePath = obj.apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${obj.apiVersion}`
    : `kubernetes-models/${obj.apiVersion}`; // core 'v1' or 'group/version'
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is chosen by the object's apiVersion
  const mod = require(modulePath) as Record<string, { new (data: unknown): { validate(): void } }>;
  const model = mod[obj.kind];
  if (!model) throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
  return model;
}

let kustomize: string;
const rendered = new Map<string, K8sObject[]>();

beforeAll(async () => {
  kustomize = await ensureTool('kustomize');
  for (const overlay of overlays) {
    const out = execFileSync(kustomize, ['build', path.join(overlaysDir, overlay)], {
      encoding: 'utf8',
    });
    rendered.set(
      overlay,
      parseAllDocuments(out).map((d) => d.toJS() as K8sObject),
    );
  }
});

test('when the overlays are listed, then there is a production overlay and a staging overlay', () => {
  expect(overlays.sort()).toEqual(['production', 'staging']);
});

describe.each(overlays)('overlay %s', (overlay) => {
  const objects = () => rendered.get(overlay) ?? [];
  const byKind = (kind: string) => objects().filter((o) => o.kind === kind);
  const containersOf = (d: K8sObject) =>
    (d.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;

  test('when rendered, then every object validates against the Kubernetes API schema', () => {
    expect(objects().length).toBeGreaterThan(20);
    for (const obj of objects()) {
      const Model = modelFor(obj);
      expect(() => new Model(obj).validate()).not.toThrow();
    }
  });

  test('when rendered, then all six deployments exist with probes, resources and a locked-down container', () => {
    const deployments = byKind('Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([
      'applications',
      'auth',
      'catalog',
      'gateway',
      'media',
      'notification',
    ]);
    for (const d of deployments) {
      for (const c of containersOf(d)) {
        expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/ready' } });
        expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/health' } });
        expect(c.resources?.requests?.cpu && c.resources.requests.memory).toBeTruthy();
        expect(c.resources?.limits?.cpu && c.resources.limits.memory).toBeTruthy();
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        expect(c.image).not.toMatch(/:latest$/);
      }
    }
  });

  test('when rendered with monitoring, then the alerts cover service down, 5xx, media latency, dead letters, outbox backlog, paused consumers and stuck events, and the dashboard is valid JSON', () => {
    const rules = byKind('PrometheusRule');
    if (overlay !== 'production') return expect(rules).toEqual([]);
    const alerts = rules.flatMap((r) =>
      (r.spec as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap(
        (g) => g.rules,
      ),
    );
    expect(alerts.map((a) => a.alert).sort()).toEqual([
      'ConsumerPaused',
      'DeadLetters',
      'EventsStuck',
      'HighServerErrorRate',
      'MediaUploadsSlow',
      'OutboxBacklogGrowing',
      'ServiceDown',
    ]);
    // every metric an alert reads is one the services export
    const exported = [
      'up',
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      'events_dead_letter_depth',
      'outbox_backlog',
      'events_consumer_paused',
      'events_age_at_handling_seconds_bucket',
    ];
    for (const a of alerts) {
      const metrics = a.expr.match(/\b[a-z_]+(?=\{|\[| *[=!<>)])/g) ?? [];
      const used = metrics.filter((m) => /_/.test(m) || m === 'up');
      expect(
        used.filter(
          (m) =>
            !exported.includes(m) &&
            !/^(by|and|sum|max|min|rate|delta|histogram_quantile)$/.test(m),
        ),
      ).toEqual([]);
    }
    const dashboard = byKind('ConfigMap').find(
      (c) => c.metadata.name === 'moebelbruecke-dashboard',
    );
    const json = JSON.parse(dashboard?.data?.['moebelbruecke.json'] ?? 'null') as {
      panels: { title: string }[];
    };
    expect(json.panels.length).toBeGreaterThanOrEqual(8);
    // every process's own metrics port (its API port has none)
    const monitors = byKind('PodMonitor');
    expect(monitors).toHaveLength(1);
    expect(JSON.stringify(monitors[0]?.spec)).toContain('"port":"metrics"');
  });

  test('when rendered, then no credentials are in the manifests: connection URLs come from Secrets created outside the repository', () => {
    expect(byKind('Secret')).toEqual([]);
    for (const d of byKind('Deployment')) {
      for (const c of containersOf(d)) {
        for (const e of c.env ?? []) expect(e.value ?? '').not.toMatch(/:\/\/[^/\s]*:[^/\s]*@/);
        expect(
          (c.env ?? []).some((e) => /PASSWORD|SECRET|PRIVATE_KEY$/.test(e.name) && e.value),
        ).toBe(false);
      }
    }
    for (const cm of byKind('ConfigMap')) {
      for (const value of Object.values(cm.data ?? {}))
        expect(value).not.toMatch(/:\/\/[^/\s]*:[^/\s]*@/);
    }
  });

  test('when rendered, then every Service selects a Deployment and the Ingress reaches the gateway', () => {
    const deployments = byKind('Deployment');
    for (const svc of byKind('Service')) {
      const selector = (svc.spec as { selector: Record<string, string> }).selector;
      const target = deployments.find((d) => {
        const labels = (d.spec as { template: { metadata: { labels: Record<string, string> } } })
          .template.metadata.labels;
        return Object.entries(selector).every(([k, v]) => labels[k] === v);
      });
      expect(target).toBeDefined();
    }
    const [ingress] = byKind('Ingress');
    expect(JSON.stringify(ingress?.spec)).toContain('"name":"gateway"');
  });

  test('when rendered, then the nightly backup is a CronJob running the backup command of an image with a tag, locked down, with the keys and connection URLs from Secrets', () => {
    const cron = byKind('CronJob').find((c) => c.metadata.name === 'backup');
    const spec = cron!.spec as {
      concurrencyPolicy: string;
      jobTemplate: { spec: { template: { spec: { containers: Container[] } } } };
    };
    expect(spec.concurrencyPolicy).toBe('Forbid');
    const [c] = spec.jobTemplate.spec.template.spec.containers;
    expect((c as Container & { command: string[] }).command).toEqual([
      'node',
      'services/libs/platform/dist/cli/backup.js',
      'backup',
    ]);
    expect(c!.image).not.toMatch(/:latest$/);
    expect(c!.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
    });
    expect(c!.resources?.limits?.memory).toBeTruthy();
    for (const e of c!.env ?? []) expect(e.value ?? '').not.toMatch(/:\/\/[^/\s]*:[^/\s]*@/);
    const config = byKind('ConfigMap').find((m) => m.metadata.name === 'furniture-config')!;
    expect(config.data?.BACKUP_S3_BUCKET).toBeTruthy();
    expect(Number(config.data?.BACKUP_RETENTION_DAYS)).toBeLessThanOrEqual(
      Number(config.data?.PERSONAL_DATA_RETENTION_DAYS),
    );
    expect(config.data?.ERASURE_LEDGER).toBe(`s3://${config.data?.BACKUP_S3_BUCKET}/erasures/`);
  });

  test('when rendered, then every workload has an egress policy, and the gateway metrics port is on no Service', () => {
    const policies = byKind('NetworkPolicy').filter((p) =>
      ((p.spec as { policyTypes?: string[] }).policyTypes ?? []).includes('Egress'),
    );
    const covered = new Set<string>();
    for (const p of policies) {
      const sel = (
        p.spec as {
          podSelector: {
            matchLabels?: Record<string, string>;
            matchExpressions?: { values: string[] }[];
          };
        }
      ).podSelector;
      const name = sel.matchLabels?.['app.kubernetes.io/name'];
      if (name) covered.add(name);
      for (const e of sel.matchExpressions ?? []) e.values.forEach((v) => covered.add(v));
    }
    expect([...covered].sort()).toEqual(
      [...byKind('Deployment'), ...byKind('CronJob')].map((d) => d.metadata.name).sort(),
    );
    for (const svc of byKind('Service')) expect(JSON.stringify(svc.spec)).not.toContain('9464');
  });

  test('when rendered, then the media service has its own CPU autoscaler and every workload a disruption budget', () => {
    const hpa = byKind('HorizontalPodAutoscaler');
    expect(hpa).toHaveLength(1);
    expect(hpa[0]?.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: 'media' } });
    expect(JSON.stringify(hpa[0]?.spec)).toContain('"name":"cpu"');
    expect(
      byKind('PodDisruptionBudget')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(
      byKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    );
  });

  test('when rendered, then a rollout drops no request: each pod drains longer than it takes endpoints to forget it, within its grace period', () => {
    const config = byKind('ConfigMap').find((m) => m.metadata.name === 'furniture-config')!;
    const drainMs = Number(config.data?.DRAIN_DELAY_MS);
    expect(drainMs).toBeGreaterThanOrEqual(5000);
    for (const d of byKind('Deployment')) {
      const pod = (
        d.spec as {
          template: {
            spec: {
              terminationGracePeriodSeconds: number;
              topologySpreadConstraints?: { topologyKey: string }[];
              containers: Container[];
            };
          };
        }
      ).template.spec;
      const env = pod.containers[0]!.env ?? [];
      const shutdownMs = Number(
        env.find((e) => e.name === 'SHUTDOWN_TIMEOUT_MS')?.value ??
          config.data?.SHUTDOWN_TIMEOUT_MS ??
          10000,
      );
      // lifecycle.ts: the process ends by itself at drain + shutdown + 8 s
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs + shutdownMs + 8000);
      // an upload may take 120 s at the gateway: media and the gateway let it finish
      if (['media', 'gateway'].includes(d.metadata.name))
        expect(shutdownMs).toBeGreaterThanOrEqual(120000);
      expect(pod.topologySpreadConstraints?.map((t) => t.topologyKey).sort()).toEqual([
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
      ]);
    }
  });

  test('when rendered, then the autoscaler alone sets the media replicas, and in production every other service runs two', () => {
    const replicas = Object.fromEntries(
      byKind('Deployment').map((d) => [
        d.metadata.name,
        (d.spec as { replicas?: number }).replicas,
      ]),
    );
    expect(replicas.media).toBeUndefined();
    if (overlay === 'production')
      for (const name of ['auth', 'catalog', 'applications', 'notification', 'gateway'])
        expect(replicas[name]).toBe(2);
  });

  test('when rendered, then Prometheus in the monitoring namespace may reach every port a PodMonitor scrapes, and every pod may reach an OTLP collector there', () => {
    type Peer = { namespaceSelector?: { matchLabels?: Record<string, string> } };
    type Rule = { from?: Peer[]; to?: Peer[]; ports?: { port: number }[] };
    const fromMonitoring = (rules: Rule[] | undefined, side: 'from' | 'to') =>
      (rules ?? []).filter((r) =>
        (r[side] ?? []).some(
          (p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring',
        ),
      );
    const policies = byKind('NetworkPolicy').map(
      (p) =>
        p.spec as {
          podSelector: { matchExpressions?: { values: string[] }[] };
          ingress?: Rule[];
          egress?: Rule[];
        },
    );
    const portsFor = (name: string, side: 'ingress' | 'egress') =>
      policies
        .filter((p) => (p.podSelector.matchExpressions ?? []).some((e) => e.values.includes(name)))
        .flatMap((p) => fromMonitoring(p[side], side === 'ingress' ? 'from' : 'to'))
        .flatMap((r) => (r.ports ?? []).map((x) => x.port));
    for (const d of byKind('Deployment')) {
      const [c] = (
        d.spec as {
          template: {
            spec: {
              containers: (Container & { ports: { name: string; containerPort: number }[] })[];
            };
          };
        }
      ).template.spec.containers;
      const scraped = c!.ports.find((p) => p.name === 'metrics')!;
      expect(portsFor(d.metadata.name, 'ingress')).toContain(scraped.containerPort);
      expect(portsFor(d.metadata.name, 'egress')).toEqual(expect.arrayContaining([4317, 4318]));
    }
  });

  test('when rendered, then production runs images by an immutable reference: a release version or a digest, never a branch or latest', () => {
    if (overlay !== 'production') return;
    const images = objects().flatMap((o) =>
      [...JSON.stringify(o.spec ?? {}).matchAll(/"image":"([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(images.length).toBeGreaterThanOrEqual(8);
    for (const image of images)
      expect(image).toMatch(
        /^ghcr\.io\/moebelbruecke\/[a-z-]+(:\d+\.\d+\.\d+)?(@sha256:[0-9a-f]{64})?$/,
      );
    for (const image of images) expect(image).toMatch(/:\d+\.\d+\.\d+|@sha256:/);
  });

  test('when rendered, then everything lands in the overlay namespace', () => {
    const [ns] = byKind('Namespace');
    expect(ns).toBeDefined();
    for (const obj of objects().filter((o) => o.kind !== 'Namespace')) {
      expect(obj.metadata.namespace).toBe(ns?.metadata.name);
    }
  });
});
