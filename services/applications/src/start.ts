import { runService } from '@furniture/platform';
import { applicationsService } from './compose';

runService(applicationsService);
