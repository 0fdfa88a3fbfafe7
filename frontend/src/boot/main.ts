// The boot script's entry (vite.config.ts: bootScript); boot.ts is what the tests import.
import { boot } from './boot';

boot();
