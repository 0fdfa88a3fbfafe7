// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('auth');

import { runService } from '@furniture/platform';
import { authService } from './compose';

runService(authService);
