import type { ServiceName } from './routes';

export interface ServiceHealth {
  status: 'up' | 'down';
  ready: boolean;
  checks?: Record<string, boolean>;
  latency_ms: number;
  error?: string;
}

/** Asks every service's /ready (in parallel, with a timeout). */
export async function servicesHealth(
  targets: Record<ServiceName, string>,
  timeoutMs = 2000,
): Promise<Record<ServiceName, ServiceHealth>> {
  const entries = await Promise.all(
    (Object.entries(targets) as [ServiceName, string][]).map(async ([name, url]) => {
      const started = Date.now();
      try {
        const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = (await res.json().catch(() => ({}))) as { checks?: Record<string, boolean> };
        return [
          name,
          { status: 'up', ready: res.ok, checks: body.checks, latency_ms: Date.now() - started },
        ] as const;
      } catch (err) {
        return [
          name,
          {
            status: 'down',
            ready: false,
            latency_ms: Date.now() - started,
            error: (err as Error).message,
          },
        ] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<ServiceName, ServiceHealth>;
}
