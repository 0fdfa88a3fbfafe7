import { screen, waitFor, within } from '@testing-library/react';
import { catalogHandlers, largePhotosOf, lot, photosOf } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { server } from '../../../test/server';

const LOT = lot(3, {
  name: { de: 'Sessel', uk: 'Крісло' },
  photos: photosOf(3, 3),
  gallery_photos: largePhotosOf(3, 3),
});

async function openGallery() {
  server.use(...catalogHandlers({ lots: [LOT] }));
  const view = renderApp('/lots/3');
  const gallery = await screen.findByRole('region', { name: 'Fotos' });
  return { ...view, gallery };
}

const mainImage = (gallery: HTMLElement) =>
  within(gallery).getByRole('img', { name: /^Sessel – Foto \d von 3$/ });

describe('gallery', () => {
  test('when the arrow keys are pressed in the gallery, then the photo and counter change and wrap around', async () => {
    const { gallery, user } = await openGallery();
    expect(within(gallery).getByText('1 / 3')).toBeInTheDocument();
    expect(mainImage(gallery)).toHaveAttribute('src', '/media/lots/3/p1-medium.webp');

    await user.click(within(gallery).getByRole('button', { name: 'Nächstes Foto' }));
    expect(within(gallery).getByText('2 / 3')).toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    expect(within(gallery).getByText('3 / 3')).toBeInTheDocument();
    expect(mainImage(gallery)).toHaveAttribute('src', '/media/lots/3/p3-medium.webp');
    await user.keyboard('{ArrowRight}');
    expect(within(gallery).getByText('1 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(within(gallery).getByText('3 / 3')).toBeInTheDocument();
  });

  test('when a thumbnail is chosen, then its photo shows and it is marked current; thumbnails use the small size', async () => {
    const { gallery, user } = await openGallery();
    const second = within(gallery).getByRole('button', { name: 'Foto 2 von 3 anzeigen' });
    expect(within(second).getByRole('presentation', { hidden: true })).toHaveAttribute(
      'src',
      '/media/lots/3/p2-thumbnail.webp',
    );
    await user.click(second);
    expect(second).toHaveAttribute('aria-current', 'true');
    expect(within(gallery).getByText('2 / 3')).toBeInTheDocument();
  });

  test('when the photo is opened full screen, then the large size shows, arrow keys move, Escape closes and focus returns', async () => {
    const { gallery, user } = await openGallery();
    const opener = within(gallery).getByRole('button', { name: 'Foto 1 von 3 im Vollbild öffnen' });
    await user.click(opener);
    const viewer = await screen.findByRole('dialog', { name: /Sessel/ });
    expect(within(viewer).getByRole('img')).toHaveAttribute('src', '/media/lots/3/p1-large.webp');

    await user.keyboard('{ArrowRight}');
    expect(within(viewer).getByText('2 / 3')).toBeInTheDocument();
    expect(within(viewer).getByRole('img')).toHaveAttribute('src', '/media/lots/3/p2-large.webp');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(within(viewer).getByText('3 / 3')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // the page's gallery followed the viewer
    expect(within(gallery).getByText('3 / 3')).toBeInTheDocument();
    expect(
      within(gallery).getByRole('button', { name: 'Foto 3 von 3 im Vollbild öffnen' }),
    ).toHaveFocus();
  });

  test('when a lot has no photos, then a "no photo" placeholder shows', async () => {
    server.use(...catalogHandlers({ lots: [lot(4)] }));
    renderApp('/lots/4');
    expect(await screen.findByText('Kein Foto')).toBeInTheDocument();
  });
});
