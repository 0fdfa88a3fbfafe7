import { Limits } from '@furniture/contracts';
import { AppError } from '@furniture/platform/domain';
import type { ImageProcessor, Rendition } from '../integrations/image-processor';
import { checkContent } from './file-checks';
import { ImageDecodeError, ImagePixelLimitError, ImageTimeoutError } from './records';

export interface UploadedFile {
  name?: string;
  type?: string;
  data: Buffer;
}

/** An image that passed the checks, with its size after the EXIF orientation. */
export interface InspectedImage {
  file: UploadedFile;
  width: number;
  height: number;
}

export function tooLarge(maxBytes: number): AppError {
  const maxMb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new AppError('PHOTO_TOO_LARGE', {
    params: { max_mb: maxMb },
    extra: { max_bytes: maxBytes },
  });
}

/**
 * What every photo goes through, a lot's (staff) or a donated item's (donors): the checks of an
 * upload (a file, at most 10 MB, extension, declared type and content agree, the header's pixels
 * and size) and the three WebP renditions, made from one decode without any metadata.
 */
export class PhotoIntake {
  constructor(
    private readonly deps: {
      images: ImageProcessor;
      /** bounds how many images are decoded and encoded at once (the platform's WorkLimiter) */
      processing: { run<T>(job: () => Promise<T>): Promise<T> };
      maxInputPixels: number;
      maxBytes: number;
    },
  ) {}

  /** The checks before any processing, each refusal its own AppError. */
  async inspect(file: UploadedFile | undefined): Promise<InspectedImage> {
    if (!file || file.data.length === 0) throw new AppError('PHOTO_FILE_MISSING');
    if (file.data.length > this.deps.maxBytes) throw tooLarge(this.deps.maxBytes);
    const format = checkContent(file);
    const header = await this.deps.images.readHeader(file.data).catch((err: Error) => {
      throw new AppError('PHOTO_CORRUPT', { cause: err });
    });
    if (header.format !== format) {
      throw new AppError('PHOTO_TYPE_MISMATCH', { params: { detected: header.format } });
    }
    const { width, height } = header;
    if (width * height > this.deps.maxInputPixels) throw this.tooManyPixels(width, height);
    if (width < Limits.photoMinWidth || height < Limits.photoMinHeight) {
      const params = {
        width,
        height,
        min_width: Limits.photoMinWidth,
        min_height: Limits.photoMinHeight,
      };
      throw new AppError('PHOTO_TOO_SMALL', { params, extra: params });
    }
    return { file, width, height };
  }

  /** The three WebP sizes (in line with the other images being processed). */
  render(image: InspectedImage): Promise<Rendition[]> {
    return this.deps.processing
      .run(() => this.deps.images.render(image.file.data))
      .catch((err: Error) => {
        if (err instanceof ImageTimeoutError)
          throw new AppError('PHOTO_PROCESSING_TIMEOUT', { cause: err });
        if (err instanceof ImagePixelLimitError)
          throw this.tooManyPixels(image.width, image.height);
        if (err instanceof ImageDecodeError) throw new AppError('PHOTO_CORRUPT', { cause: err });
        throw err;
      });
  }

  private tooManyPixels(width: number, height: number): AppError {
    const params = { width, height, max_megapixels: Math.floor(this.deps.maxInputPixels / 1e6) };
    return new AppError('PHOTO_TOO_MANY_PIXELS', { params, extra: params });
  }
}
