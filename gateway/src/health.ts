import type { ServiceName } from './routes';
import type { Upstreams } from './upstreams';

export interface ServiceHealth {
  status: 'up' | 'down';
  ready: boolean;
  /** how many of its processes are ready (of `configured`) */
  instances: number;
  configured: number;
}

/** Asks every process of every service for /ready (in parallel, with a timeout). */
export async function servicesHealth(
  pools: Record<ServiceName, Upstreams>,
  timeoutMs = 2000,
): Promise<Record<ServiceName, ServiceHealth>> {
  const entries = await Promise.all(
    (Object.entries(pools) as [ServiceName, Upstreams][]).map(async ([name, pool]) => {
      const probed = await pool.probe(timeoutMs);
      const instances = probed.filter((p) => p.ready).length;
      const health: ServiceHealth = {
        status: probed.some((p) => p.error === undefined) ? 'up' : 'down',
        ready: instances > 0,
        instances,
        configured: probed.length,
      };
      return [name, health] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ServiceName, ServiceHealth>;
}
