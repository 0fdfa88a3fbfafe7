import { Limits, PHOTO_EXTENSIONS, PHOTO_MIME_TYPES } from '@furniture/contracts/limits';
import { readImageSize } from '../../../../lib/image-size';

/** One refusal of the browser-side checks, as a key of admin:photos.errors with its values. */
export interface PhotoProblem {
  key:
    | 'noFile'
    | 'tooMany'
    | 'duplicateNames'
    | 'wrongExtension'
    | 'wrongType'
    | 'tooLarge'
    | 'tooSmall'
    | 'corrupt';
  values: Record<string, string | number>;
}

export type ReadImageSize = (file: File) => Promise<{ width: number; height: number }>;

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * The browser-side checks of back-office §5, mirroring the media service's: at most 10 photos per
 * lot, no two files of one name, extension and declared type JPEG/PNG/WebP, at most 10 MB, at
 * least 300x300 px, decodable. Answers the files that passed and the problems of the others; a
 * selection over the limit or with duplicate names is refused as a whole.
 */
export async function checkPhotoFiles(
  files: File[],
  opts: { present: number; readSize?: ReadImageSize },
): Promise<{ accepted: File[]; problems: PhotoProblem[] }> {
  if (files.length === 0) return { accepted: [], problems: [{ key: 'noFile', values: {} }] };
  const remaining = Math.max(0, Limits.photosPerLot - opts.present);
  if (files.length > remaining) {
    return {
      accepted: [],
      problems: [{ key: 'tooMany', values: { max: Limits.photosPerLot, remaining } }],
    };
  }
  const names = files.map((f) => f.name);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length > 0) {
    return {
      accepted: [],
      problems: [{ key: 'duplicateNames', values: { names: duplicates.join(', ') } }],
    };
  }
  const readSize = opts.readSize ?? readImageSize;
  const accepted: File[] = [];
  const problems: PhotoProblem[] = [];
  for (const file of files) {
    const problem = await checkOne(file, readSize);
    if (problem) problems.push(problem);
    else accepted.push(file);
  }
  return { accepted, problems };
}

async function checkOne(file: File, readSize: ReadImageSize): Promise<PhotoProblem | null> {
  const values = { file: file.name };
  if (!(PHOTO_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
    return { key: 'wrongExtension', values };
  }
  if (!(PHOTO_MIME_TYPES as readonly string[]).includes(file.type))
    return { key: 'wrongType', values };
  if (file.size > Limits.photoMaxBytes) {
    return {
      key: 'tooLarge',
      values: { ...values, size: mb(file.size), max: mb(Limits.photoMaxBytes) },
    };
  }
  if (file.size === 0) return { key: 'corrupt', values };
  let size: { width: number; height: number };
  try {
    size = await readSize(file);
  } catch {
    return { key: 'corrupt', values };
  }
  if (size.width < Limits.photoMinWidth || size.height < Limits.photoMinHeight) {
    return {
      key: 'tooSmall',
      values: {
        ...values,
        width: size.width,
        height: size.height,
        min: `${Limits.photoMinWidth}x${Limits.photoMinHeight}`,
      },
    };
  }
  return null;
}
