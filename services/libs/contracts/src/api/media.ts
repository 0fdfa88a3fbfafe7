import { z } from 'zod';
import type { LocalizedText } from '../errors/types';
import { idParamSchema, successData } from './common';

/**
 * Photo calls of the media service (back-office §7 "POST photos for a lot", §4 photo upload):
 *
 * - POST   /api/v1/lots/{id}/photos            staff; multipart: `file`, optional `generate_thumbnails`
 * - GET    /api/v1/lots/{id}/photos            staff; the lot's photos with their ids
 * - DELETE /api/v1/lots/{id}/photos/{photoId}  staff
 * - GET    /media/lots/{id}/{uuid}-{size}.webp  anyone; image bytes, cached for a year (immutable)
 */

/** Every photo is stored as three WebP renditions; URLs are relative, under MEDIA_URL_PREFIX. */
export const PhotoSizeNames = ['thumbnail', 'medium', 'large'] as const;
export type PhotoSizeName = (typeof PhotoSizeNames)[number];

/** Longest side (fit inside a square, never enlarged) and WebP quality of each rendition. */
export const PhotoSizes = {
  thumbnail: { maxSide: 320, quality: 70 },
  medium: { maxSide: 800, quality: 78 },
  large: { maxSide: 1600, quality: 82 },
} as const satisfies Record<PhotoSizeName, { maxSide: number; quality: number }>;

export const MEDIA_URL_PREFIX = '/media/';

export const lotPhotosParamsSchema = idParamSchema;
export const lotPhotoParamsSchema = idParamSchema.extend({ photoId: idParamSchema.shape.id });

/**
 * Text fields of the upload form. The spec's client always sends generate_thumbnails='true';
 * the three renditions are always made, so the field is accepted and otherwise ignored.
 */
export const photoUploadFieldsSchema = z.object({
  generate_thumbnails: z.enum(['true', 'false', '1', '0']).optional(),
});

export const photoUrlsSchema = z.object({
  thumbnail: z.string(),
  medium: z.string(),
  large: z.string(),
});
export type PhotoUrls = z.infer<typeof photoUrlsSchema>;

export const photoAnswer = z
  .object({
    id: z.number().int(),
    lot_id: z.number().int(),
    urls: photoUrlsSchema,
    /** of the uploaded image after applying its EXIF orientation */
    width: z.number().int(),
    height: z.number().int(),
    /** size of the uploaded file */
    bytes: z.number().int(),
    /** the lot's photo slot (0-9) this photo holds; not the display order, which the lot keeps */
    position: z.number().int(),
    created_by_user_id: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'Photo' });
export type Photo = z.infer<typeof photoAnswer>;

/** The spec's upload answer (back-office §3 "Photo upload response") plus the photo itself. */
export const photoUploadAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: photoAnswer,
});

export const photoListAnswer = successData(z.array(photoAnswer));

export const photoDeleteAnswer = z.object({ success: z.literal(true), message: z.string() });

export const MediaMessages = {
  photo_uploaded: { de: 'Foto erfolgreich hochgeladen.', uk: 'Фото успішно завантажено.' },
  photo_deleted: { de: 'Foto gelöscht.', uk: 'Фото видалено.' },
} as const satisfies Record<string, LocalizedText>;
