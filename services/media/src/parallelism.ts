import os from 'node:os';

/**
 * Images in processing at once by default: two per CPU core, at most 8. One image's libvips
 * pipeline keeps a core busy only part of the time (its decode and encode hand pixels to each
 * other); two per core keep every core busy (docs/benchmarks.md, "bench:media"). In a container
 * the cores counted are the node's, not the CPU limit: k8s sets MEDIA_MAX_PARALLEL itself.
 */
export function defaultParallel(): number {
  return Math.min(8, 2 * os.availableParallelism());
}

/**
 * The libuv thread pool the process needs: every image in processing holds one of its threads
 * (sharp runs there), and file system and DNS work must not wait behind them; the pool's default
 * of 4 would be full with 4 images in processing.
 */
export function threadPoolSize(env: NodeJS.ProcessEnv): number {
  const parallel = Number.parseInt(env.MEDIA_MAX_PARALLEL ?? '', 10);
  return (Number.isInteger(parallel) && parallel > 0 ? parallel : defaultParallel()) + 4;
}
