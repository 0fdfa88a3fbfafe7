// jest globalTeardown: stops what global-setup started.
import { takeTestInfra } from './state';

export default async function globalTeardown(): Promise<void> {
  await takeTestInfra()?.stop();
}
