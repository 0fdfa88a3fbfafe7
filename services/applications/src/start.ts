// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('applications');

import { runService } from '@furniture/platform';
import { applicationsService } from './compose';

runService(applicationsService);
