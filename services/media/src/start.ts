import { runService } from '@furniture/platform';
import { mediaService } from './compose';

runService(mediaService);
