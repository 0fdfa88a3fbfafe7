import { runService } from '@furniture/platform';
import { authService } from './compose';

runService(authService);
