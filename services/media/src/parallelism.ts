import os from 'node:os';

/**
 * WebP sizes encoded at once per image (PhotoSizeNames in the contracts: thumbnail, medium,
 * large), each on a thread of the libuv pool. A constant here: this module is read before
 * anything else is loaded (thread-pool.ts).
 */
export const ENCODES_PER_IMAGE = 3;

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
 * The libuv thread pool the process needs: every image in processing holds up to one of its
 * threads per size it encodes (sharp runs there), and file system and DNS work must not wait
 * behind them; the pool's default of 4 would be full with 2 images in processing.
 */
export function threadPoolSize(env: NodeJS.ProcessEnv): number {
  const parallel = Number.parseInt(env.MEDIA_MAX_PARALLEL ?? '', 10);
  const images = Number.isInteger(parallel) && parallel > 0 ? parallel : defaultParallel();
  return images * ENCODES_PER_IMAGE + 4;
}
