// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('notification');

import { runService } from '@furniture/platform';
import { notificationService } from './compose';

runService(notificationService);
