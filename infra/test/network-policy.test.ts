// Who may reach whom in the production deployment, as a truth table checked by a NetworkPolicy
// simulator (cyclonus, built from its Go module into the per-user tool cache like kustomize): the
// production overlay is rendered, its NetworkPolicies are given to `cyclonus analyze --mode
// query-traffic`, and every connection between the workloads, the pods around them (the ingress
// controller, Prometheus, another namespace, a stranger in ours) and the outside is asked. The
// answer must be exactly the table below: a policy that opens too much or too little fails here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { InternalCallers, ServiceNames } from '@furniture/contracts';
import { REPO_ROOT } from '../src/paths';
import { ensureTool } from '../src/tools';

type K8sObject = {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
};
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { containers: { ports?: { name: string; containerPort: number }[] }[] };
}

/** The ingress controller's namespace the production overlay names (k8s/README.md). */
const INGRESS_NAMESPACE = 'ingress-nginx';
const METRICS = 9464;

/** An end of a connection as cyclonus reads it: a pod (namespace and labels) or an address. */
interface Peer {
  Internal?: {
    PodLabels: Record<string, string>;
    NamespaceLabels: Record<string, string>;
    Namespace: string;
  };
  IP: string;
}
interface Endpoint {
  name: string;
  peer: Peer;
  /** in the deployment's namespace (its policies apply to it) */
  ours: boolean;
}
interface Target extends Endpoint {
  port: number;
  protocol: 'TCP' | 'UDP';
}

const namespaceLabels = (name: string) => ({ 'kubernetes.io/metadata.name': name });

let namespace = '';
let workloads: { name: string; labels: Record<string, string>; ports: number[] }[] = [];
let policyDir = '';
let cyclonus = '';

beforeAll(async () => {
  const kustomize = await ensureTool('kustomize');
  cyclonus = await ensureTool('cyclonus');
  const rendered = execFileSync(
    kustomize,
    ['build', path.join(REPO_ROOT, 'k8s', 'overlays', 'production')],
    { encoding: 'utf8' },
  );
  const objects = parseAllDocuments(rendered).map((d) => d.toJS() as K8sObject);
  namespace = objects.find((o) => o.kind === 'Namespace')!.metadata.name;
  const templateOf = (o: K8sObject): PodTemplate | undefined =>
    o.kind === 'Deployment'
      ? (o.spec as { template: PodTemplate }).template
      : o.kind === 'CronJob'
        ? (o.spec as { jobTemplate: { spec: { template: PodTemplate } } }).jobTemplate.spec.template
        : undefined;
  workloads = objects.flatMap((o) => {
    const t = templateOf(o);
    if (!t) return [];
    const ports = t.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort));
    return [{ name: o.metadata.name, labels: t.metadata.labels, ports }];
  });
  policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netpol-'));
  fs.mkdirSync(path.join(policyDir, 'policies'));
  fs.writeFileSync(
    path.join(policyDir, 'policies', 'policies.yaml'),
    stringify({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicyList',
      items: objects.filter((o) => o.kind === 'NetworkPolicy'),
    }),
  );
}, 600_000);

afterAll(() => {
  if (policyDir) fs.rmSync(policyDir, { recursive: true, force: true });
});

/** Everyone who might open a connection, and everything they might connect to. */
function world(): { sources: Endpoint[]; targets: Target[] } {
  let ip = 10;
  const pod = (ns: string, labels: Record<string, string>): Peer => ({
    Internal: { PodLabels: labels, NamespaceLabels: namespaceLabels(ns), Namespace: ns },
    IP: `10.244.0.${ip++}`,
  });
  const ours = workloads.map((w) => ({ name: w.name, peer: pod(namespace, w.labels), ours: true }));
  const ingress = pod(INGRESS_NAMESPACE, { 'app.kubernetes.io/name': 'ingress-nginx' });
  const prometheus = pod('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
  const collector = pod('monitoring', { 'app.kubernetes.io/name': 'otel-collector' });
  const sources: Endpoint[] = [
    ...ours,
    { name: 'ingress-controller', peer: ingress, ours: false },
    { name: 'prometheus', peer: prometheus, ours: false },
    { name: 'other-namespace', peer: pod('default', { app: 'debug' }), ours: false },
    // a pod someone started in our namespace (kubectl run, a compromised image)
    {
      name: 'stranger',
      peer: pod(namespace, { 'app.kubernetes.io/name': 'debug', run: 'debug' }),
      ours: true,
    },
    { name: 'internet', peer: { IP: '198.51.100.7' }, ours: false },
  ];
  const targets: Target[] = [
    // another replica of each workload (a service calls its own kind too: auth's revocations)
    ...workloads.flatMap((w) =>
      w.ports.map((port) => ({
        name: `${w.name}:${port}`,
        peer: pod(namespace, w.labels),
        ours: true,
        port,
        protocol: 'TCP' as const,
      })),
    ),
    { name: 'dns:53', peer: { IP: '10.96.0.10' }, ours: false, port: 53, protocol: 'UDP' },
    { name: 'mongodb:27017', peer: { IP: '10.20.0.5' }, ours: false, port: 27017, protocol: 'TCP' },
    { name: 'rabbitmq:5671', peer: { IP: '10.20.0.6' }, ours: false, port: 5671, protocol: 'TCP' },
    { name: 'https:443', peer: { IP: '198.51.100.20' }, ours: false, port: 443, protocol: 'TCP' },
    { name: 'smtp:587', peer: { IP: '198.51.100.25' }, ours: false, port: 587, protocol: 'TCP' },
    { name: 'otel-collector:4318', peer: collector, ours: false, port: 4318, protocol: 'TCP' },
    { name: 'http:80', peer: { IP: '198.51.100.80' }, ours: false, port: 80, protocol: 'TCP' },
  ];
  return { sources, targets };
}

/** `from → to:port` for every connection cyclonus allows (of those our policies decide). */
function simulate(): string[] {
  const { sources, targets } = world();
  const asked = sources.flatMap((s) =>
    targets
      // the policies of this namespace decide a connection one of whose ends is in it
      .filter((t) => s.ours || t.ours)
      .map((t) => ({ s, t })),
  );
  const trafficFile = path.join(policyDir, 'traffic.json');
  fs.writeFileSync(
    trafficFile,
    JSON.stringify(
      asked.map(({ s, t }) => ({
        Source: s.peer,
        Destination: t.peer,
        Protocol: t.protocol,
        ResolvedPort: t.port,
        ResolvedPortName: '',
      })),
    ),
  );
  const out = execFileSync(
    cyclonus,
    [
      'analyze',
      '--mode',
      'query-traffic',
      '--policy-path',
      path.join(policyDir, 'policies'),
      '--traffic-path',
      trafficFile,
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const verdicts = [...out.matchAll(/IS ALLOWED\? \|\s+(TRUE|FALSE)\s+\|/g)].map((m) => m[1]);
  expect(verdicts).toHaveLength(asked.length);
  return asked
    .filter((_, i) => verdicts[i] === 'TRUE')
    .map(({ s, t }) => `${s.name} → ${t.name}`)
    .sort();
}

const SERVICES = ['auth', 'catalog', 'applications', 'media', 'notification'];
const API_PORT: Record<string, number> = {
  auth: 4001,
  catalog: 4002,
  applications: 4003,
  media: 4004,
  notification: 4005,
};

/**
 * The truth table: every connection that is allowed. Anything not listed (a stranger pod, another
 * namespace, the internet, Prometheus on an API port, a service on another's metrics, an
 * unneeded call between services, the backup or the admin job to a service) is denied.
 */
function allowed(): string[] {
  const processes = ['gateway', ...SERVICES];
  const rows = [
    // the public entry
    'ingress-controller → gateway:8080',
    // Prometheus scrapes each process's metrics port, and nothing else
    ...processes.map((p) => `prometheus → ${p}:${METRICS}`),
    // the gateway proxies to every service's API port
    ...SERVICES.map((s) => `gateway → ${s}:${API_PORT[s]}`),
    // the internal calls
    ...SERVICES.map((s) => `${s} → auth:4001`),
    'applications → catalog:4002',
    'media → catalog:4002',
    'catalog → media:4004',
    // the outside: DNS and the database for every workload (the gateway: its shared rate limits,
    // the backup, the admin job), the broker for the services, S3 (443) for media, the erasure
    // ledger (applications, catalog) and the backup, the providers (443) and SMTP for
    // notification, OTLP to the collector for every process
    ...[...processes, 'backup', 'admin'].flatMap((w) => [`${w} → dns:53`, `${w} → mongodb:27017`]),
    ...SERVICES.map((s) => `${s} → rabbitmq:5671`),
    ...['media', 'applications', 'catalog', 'backup', 'notification'].map(
      (w) => `${w} → https:443`,
    ),
    'notification → smtp:587',
    ...processes.map((p) => `${p} → otel-collector:4318`),
  ];
  return [...new Set(rows)].sort();
}

test('when the production overlay is rendered, then its workloads are the six processes, the backup and the admin job, each process with its metrics port', () => {
  expect(workloads.map((w) => w.name).sort()).toEqual([
    'admin',
    'applications',
    'auth',
    'backup',
    'catalog',
    'gateway',
    'media',
    'notification',
  ]);
  for (const w of workloads.filter((x) => !['backup', 'admin'].includes(x.name)))
    expect([w.name, w.ports]).toEqual([w.name, expect.arrayContaining([METRICS])]);
});

test('when every connection is simulated against the NetworkPolicies, then exactly the truth table is allowed', () => {
  expect(simulate()).toEqual(allowed());
});

test('when a service calls another internal route, then the policies let that caller reach the callee, and no service without such a route is reachable by the others', () => {
  const table = allowed();
  for (const [route, { service: callee, callers }] of Object.entries(InternalCallers)) {
    for (const caller of callers)
      expect([route, table.includes(`${caller} → ${callee}:${API_PORT[callee]}`)]).toEqual([
        route,
        true,
      ]);
  }
  // services that serve no internal route are reached by the gateway alone
  const callees = new Set<string>(Object.values(InternalCallers).map((r) => r.service));
  for (const callee of ServiceNames.filter((s) => !callees.has(s)))
    expect(table.filter((row) => row.endsWith(`→ ${callee}:${API_PORT[callee]}`))).toEqual([
      `gateway → ${callee}:${API_PORT[callee]}`,
    ]);
});
