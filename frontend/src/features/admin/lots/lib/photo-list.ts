import type { Photo } from '@furniture/contracts/api/media';

/** One photo of a lot's gallery in the form. `photo` is null for an address media does not list. */
export interface GalleryItem {
  key: string;
  /** what the lot lists in `photos` (medium) */
  url: string;
  /** what the lot lists in `gallery_photos` (large) */
  large: string;
  thumbnail: string;
  photo: Photo | null;
}

/** The address a lot keeps for a photo: medium, else large, else thumbnail (back-office §4). */
export const listUrlOf = (urls: Photo['urls']) => urls.medium || urls.large || urls.thumbnail;
export const galleryUrlOf = (urls: Photo['urls']) => urls.large || urls.medium || urls.thumbnail;

const matches = (photo: Photo, url: string) =>
  photo.urls.medium === url || photo.urls.large === url || photo.urls.thumbnail === url;

/**
 * The gallery in the lot's order (the first is the main photo), with media's photo records for
 * deletion. The catalog learns of uploads and deletions by events, a moment later: a photo media
 * lists but the lot not yet joins at the end, and an address the lot lists but media no longer
 * knows (deleted) is left out. Without media's list (it failed), the lot's addresses are shown.
 */
export function galleryItems(lotPhotos: string[], mediaPhotos: Photo[] | undefined): GalleryItem[] {
  if (!mediaPhotos) {
    return lotPhotos.map((url) => ({ key: url, url, large: url, thumbnail: url, photo: null }));
  }
  const items: GalleryItem[] = [];
  const used = new Set<number>();
  for (const url of lotPhotos) {
    const photo = mediaPhotos.find((p) => !used.has(p.id) && matches(p, url));
    if (!photo) continue;
    used.add(photo.id);
    items.push(itemOf(photo));
  }
  for (const photo of [...mediaPhotos].sort((a, b) => a.position - b.position)) {
    if (!used.has(photo.id)) items.push(itemOf(photo));
  }
  return items;
}

const itemOf = (photo: Photo): GalleryItem => ({
  key: `photo-${photo.id}`,
  url: listUrlOf(photo.urls),
  large: galleryUrlOf(photo.urls),
  thumbnail: photo.urls.thumbnail || listUrlOf(photo.urls),
  photo,
});

/** The list with `index` moved to the front (set main photo). */
export function withMainFirst<T>(items: T[], index: number): T[] {
  const chosen = items[index];
  if (chosen === undefined) return items;
  return [chosen, ...items.slice(0, index), ...items.slice(index + 1)];
}

/**
 * The thumbnail of a photo address. The media service stores every photo as
 * `/media/lots/{id}/{uuid}-{thumbnail|medium|large}.webp`; other addresses are used as they are.
 */
export const thumbnailOf = (url: string) =>
  url.replace(/-(medium|large)\.webp$/, '-thumbnail.webp');
