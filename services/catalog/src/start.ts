// tracing first: it instruments the HTTP modules before anything else loads them
import { startTracing } from '@furniture/platform/tracing';
startTracing('catalog');

import { runService } from '@furniture/platform';
import { catalogService } from './compose';

runService(catalogService);
