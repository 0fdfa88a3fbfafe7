import { z } from 'zod';
import type { LocalizedText } from '../errors/types';

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

export const lotPhotosParamsSchema = z.object({ id: z.coerce.number().int().positive() });
export const lotPhotoParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  photoId: z.coerce.number().int().positive(),
});

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

export interface Photo {
  id: number;
  lot_id: number;
  urls: PhotoUrls;
  /** of the uploaded image after applying its EXIF orientation */
  width: number;
  height: number;
  /** size of the uploaded file */
  bytes: number;
  /** the lot's photo slot (0-9) this photo holds; not the display order, which the lot keeps */
  position: number;
  created_by_user_id: number;
  created_at: string;
}

/** The spec's upload answer (back-office §3 "Photo upload response") plus the photo itself. */
export interface PhotoUploadResponse {
  success: true;
  message: string;
  data: Photo;
}

export interface PhotoListResponse {
  success: true;
  data: Photo[];
}

export interface PhotoDeleteResponse {
  success: true;
  message: string;
}

export const MediaMessages = {
  photo_uploaded: { de: 'Foto erfolgreich hochgeladen.', uk: 'Фото успішно завантажено.' },
  photo_deleted: { de: 'Foto gelöscht.', uk: 'Фото видалено.' },
} as const satisfies Record<string, LocalizedText>;
