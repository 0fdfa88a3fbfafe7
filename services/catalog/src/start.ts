import { runService } from '@furniture/platform';
import { catalogService } from './compose';

runService(catalogService);
