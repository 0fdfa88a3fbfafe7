import { Limits, PHOTO_EXTENSIONS, PHOTO_MIME_TYPES } from '@furniture/contracts/limits';
import { readImageSize } from '../../../lib/image-size';

/** A refused photo, as a key of donate:photos.errors with its values. */
export interface DonorPhotoProblem {
  key: 'tooMany' | 'wrongType' | 'tooSmall' | 'corrupt';
  values: Record<string, string | number>;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

/**
 * The browser's checks of a donor's photos, before anything is sent: JPEG, PNG or WebP, an image
 * the browser can read, at least 300×300 px, at most 5 per item (the first that fit are taken).
 * Unlike the lot form's, a photo above 10 MB is not refused: it is shrunk before the upload, and
 * photos of one name are fine (phones name every shared photo image.jpg).
 */
export async function checkDonorPhotos(
  files: File[],
  present: number,
  readSize: (file: File) => Promise<{ width: number; height: number }> = readImageSize,
): Promise<{ accepted: File[]; problems: DonorPhotoProblem[] }> {
  const room = Math.max(0, Limits.donationPhotosPerItem - present);
  const problems: DonorPhotoProblem[] = [];
  if (files.length > room) {
    problems.push({
      key: 'tooMany',
      values: { max: Limits.donationPhotosPerItem, n: files.length - room },
    });
  }
  const accepted: File[] = [];
  for (const file of files.slice(0, room)) {
    const values = { file: file.name };
    const typeKnown = (PHOTO_MIME_TYPES as readonly string[]).includes(file.type);
    const extensionKnown = (PHOTO_EXTENSIONS as readonly string[]).includes(extensionOf(file.name));
    // some Android pickers send no type: the extension decides then
    if (!(typeKnown || (file.type === '' && extensionKnown))) {
      problems.push({ key: 'wrongType', values });
      continue;
    }
    let size: { width: number; height: number };
    try {
      size = await readSize(file);
    } catch {
      problems.push({ key: 'corrupt', values });
      continue;
    }
    if (size.width < Limits.photoMinWidth || size.height < Limits.photoMinHeight) {
      problems.push({
        key: 'tooSmall',
        values: { ...values, min: `${Limits.photoMinWidth}×${Limits.photoMinHeight}` },
      });
      continue;
    }
    accepted.push(file);
  }
  return { accepted, problems };
}
