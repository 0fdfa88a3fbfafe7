// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('media');

import { runService } from '@furniture/platform';
import { mediaService } from './compose';

runService(mediaService);
