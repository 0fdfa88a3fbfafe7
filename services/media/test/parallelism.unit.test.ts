import { PhotoSizeNames } from '@furniture/contracts';
import { ENCODES_PER_IMAGE, threadPoolSize } from '../src/parallelism';

test('the libuv pool has a thread for every size of every image in processing, and four more', () => {
  expect(ENCODES_PER_IMAGE).toBe(PhotoSizeNames.length);
  expect(threadPoolSize({ MEDIA_MAX_PARALLEL: '4' })).toBe(4 * 3 + 4);
  expect(threadPoolSize({ MEDIA_MAX_PARALLEL: '1' })).toBe(3 + 4);
});
