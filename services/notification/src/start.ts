import { runService } from '@furniture/platform';
import { notificationService } from './compose';

runService(notificationService);
