/**
 * The thumbnail of a photo. The media service stores every photo as
 * `/media/lots/{id}/{uuid}-{thumbnail|medium|large}.webp`; a lot lists the medium ones.
 * Other addresses have no thumbnail and are used as they are.
 */
export function thumbnailOf(url: string): string {
  return url.replace(/-(medium|large)\.webp$/, '-thumbnail.webp');
}
