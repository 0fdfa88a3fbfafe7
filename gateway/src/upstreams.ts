/**
 * The processes of one service (several with `make run REPLICAS=2`, one Service address on
 * Kubernetes, where kube-proxy spreads the connections itself): requests go round robin to the
 * ones that are up; a process that refuses a connection or fails its readiness is passed over
 * until its /ready answers again, as a Kubernetes Service passes over a pod that is not ready.
 */
export interface Instance {
  url: string;
  /** what the last probe or request said */
  up: boolean;
  /** a request saw it refuse or reset a connection at this time (ms); cleared by a good probe */
  failedAt: number;
}

export interface InstanceHealth {
  url: string;
  ready: boolean;
  checks?: Record<string, boolean>;
  latency_ms: number;
  error?: string;
}

/** How long an instance a request saw fail is passed over before it is tried again unprobed. */
const PASSED_OVER_MS = 2000;

export class Upstreams {
  readonly instances: Instance[];
  private next = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly service: string,
    urls: readonly string[],
  ) {
    if (urls.length === 0) throw new Error(`${service}: no address`);
    this.instances = urls.map((url) => ({ url: url.replace(/\/+$/, ''), up: true, failedAt: 0 }));
  }

  /** One address from a service's setting: a URL, or several separated by commas. */
  static parse(service: string, setting: string): Upstreams {
    return new Upstreams(
      service,
      setting
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }

  get size(): number {
    return this.instances.length;
  }

  /**
   * The next instance that is up, round robin, other than those in `tried`; when none is up,
   * the next untried one anyway (it may be back before the probe says so).
   */
  pick(tried: ReadonlySet<string> = new Set()): string | undefined {
    const now = Date.now();
    const usable = (i: Instance): boolean =>
      !tried.has(i.url) && i.up && now - i.failedAt > PASSED_OVER_MS;
    for (const pass of [usable, (i: Instance) => !tried.has(i.url)]) {
      for (let n = 0; n < this.instances.length; n++) {
        const instance = this.instances[(this.next + n) % this.instances.length]!;
        if (!pass(instance)) continue;
        this.next = (this.next + n + 1) % this.instances.length;
        return instance.url;
      }
    }
    return undefined;
  }

  /** A request could not reach `url` (connection refused or reset): passed over for a while. */
  failed(url: string): void {
    const instance = this.instances.find((i) => url.startsWith(i.url));
    if (instance) instance.failedAt = Date.now();
  }

  /** Asks every instance's /ready (in parallel, with a timeout) and remembers the answers. */
  async probe(timeoutMs = 2000): Promise<InstanceHealth[]> {
    return Promise.all(
      this.instances.map(async (instance): Promise<InstanceHealth> => {
        const started = Date.now();
        try {
          const res = await fetch(`${instance.url}/ready`, {
            signal: AbortSignal.timeout(timeoutMs),
          });
          const body = (await res.json().catch(() => ({}))) as {
            checks?: Record<string, boolean>;
          };
          instance.up = res.ok;
          if (res.ok) instance.failedAt = 0;
          return {
            url: instance.url,
            ready: res.ok,
            checks: body.checks,
            latency_ms: Date.now() - started,
          };
        } catch (err) {
          instance.up = false;
          return {
            url: instance.url,
            ready: false,
            latency_ms: Date.now() - started,
            error: (err as Error).message,
          };
        }
      }),
    );
  }

  /** Probes every `everyMs` while the gateway runs (only worth it with several instances). */
  watch(everyMs: number): void {
    if (this.instances.length < 2 || this.timer) return;
    this.timer = setInterval(() => void this.probe(Math.min(everyMs, 2000)), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
