// the thread pool's size before anything uses the pool; tracing next: it instruments the HTTP
// modules before anything else loads them
import './thread-pool';
import { startTracing } from '@furniture/platform/tracing';
startTracing('media');

import { runService } from '@furniture/platform';
import { mediaService } from './compose';

runService(mediaService);
