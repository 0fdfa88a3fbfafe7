/**
 * The thumbnail of a photo. The media service stores every photo as
 * `/media/lots/{id}/{uuid}-{thumbnail|medium|large}.webp`; a lot lists the medium ones.
 * Other addresses have no thumbnail and are used as they are.
 */
export function thumbnailOf(url: string): string {
  return url.replace(/-(medium|large)\.webp$/, '-thumbnail.webp');
}

/** What an <img> (or a preload of it) asks for: the address, the sources by width, the sizes. */
export interface ImageSource {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/** How wide a card is in GRID_COLUMNS (1, 2, 3, 4, 6 columns). */
export const CARD_SIZES =
  '(min-width: 1536px) 16vw, (min-width: 1280px) 25vw, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';

/** A lot card's photo: the 320 px thumbnail or the 800 px (medium) photo. */
export function cardImage(photo: string): ImageSource {
  const thumbnail = thumbnailOf(photo);
  return {
    src: photo,
    srcSet: thumbnail !== photo ? `${thumbnail} 320w, ${photo} 800w` : undefined,
    sizes: CARD_SIZES,
  };
}

/**
 * The gallery's photo: the 800 px one on phones, the 1600 px one where the gallery is wide
 * enough (half the page from 1024 px on).
 */
export function galleryImage(photo: string, large: string | undefined): ImageSource {
  return {
    src: photo,
    srcSet: large && large !== photo ? `${photo} 800w, ${large} 1600w` : undefined,
    sizes: '(min-width: 1024px) 50vw, 100vw',
  };
}
