// Imported first by start.ts, before tracing and before anything else: the libuv thread pool is
// sized when it runs its first task, so its size must be in the environment before anything reads
// a file asynchronously, looks up a name or runs sharp. A size set by hand wins.
import { threadPoolSize } from './parallelism';

process.env.UV_THREADPOOL_SIZE ??= String(threadPoolSize(process.env));
