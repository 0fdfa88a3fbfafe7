import '../../test/admin-test-utils';
import { checkPhotoFiles } from '../lib/photo-checks';
import { galleryItems, withMainFirst } from '../lib/photo-list';

const file = (name: string, type = 'image/jpeg', bytes = 1000) =>
  new File([new Uint8Array(bytes)], name, { type });

const sizes: Record<string, { width: number; height: number } | 'broken'> = {};
const readSize = async (f: File) => {
  const size = sizes[f.name] ?? { width: 1200, height: 800 };
  if (size === 'broken') throw new Error('cannot decode');
  return size;
};

describe('photo checks in the browser', () => {
  test('when files of the right kind are chosen, then all are accepted', async () => {
    const result = await checkPhotoFiles(
      [file('a.jpg'), file('b.PNG', 'image/png'), file('c.webp', 'image/webp')],
      {
        present: 0,
        readSize,
      },
    );
    expect(result.problems).toEqual([]);
    expect(result.accepted.map((f) => f.name)).toEqual(['a.jpg', 'b.PNG', 'c.webp']);
  });

  test('when a selection would pass ten photos, then it is refused as a whole with the remaining number', async () => {
    const result = await checkPhotoFiles([file('a.jpg'), file('b.jpg'), file('c.jpg')], {
      present: 8,
      readSize,
    });
    expect(result).toEqual({
      accepted: [],
      problems: [{ key: 'tooMany', values: { max: 10, remaining: 2 } }],
    });
  });

  test('when two files share a name, then the selection is refused', async () => {
    const result = await checkPhotoFiles([file('sofa.jpg'), file('sofa.jpg')], {
      present: 0,
      readSize,
    });
    expect(result.problems).toEqual([{ key: 'duplicateNames', values: { names: 'sofa.jpg' } }]);
  });

  test('when files break a rule, then each is refused with its reason and the rest pass', async () => {
    sizes['small.jpg'] = { width: 299, height: 600 };
    sizes['broken.jpg'] = 'broken';
    const result = await checkPhotoFiles(
      [
        file('ok.jpg'),
        file('doc.pdf', 'application/pdf'),
        file('fake.jpg', 'image/gif'),
        file('huge.jpg', 'image/jpeg', 10 * 1024 * 1024 + 1),
        file('small.jpg'),
        file('broken.jpg'),
      ],
      { present: 0, readSize },
    );
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.jpg']);
    expect(result.problems.map((p) => [p.key, p.values.file])).toEqual([
      ['wrongExtension', 'doc.pdf'],
      ['wrongType', 'fake.jpg'],
      ['tooLarge', 'huge.jpg'],
      ['tooSmall', 'small.jpg'],
      ['corrupt', 'broken.jpg'],
    ]);
  });

  test('when nothing is chosen, then "no file" is the answer', async () => {
    expect((await checkPhotoFiles([], { present: 0, readSize })).problems).toEqual([
      { key: 'noFile', values: {} },
    ]);
  });
});

describe('gallery order', () => {
  const photo = (id: number, position: number) => ({
    id,
    lot_id: 1,
    position,
    urls: {
      thumbnail: `/media/lots/1/p${id}-thumbnail.webp`,
      medium: `/media/lots/1/p${id}-medium.webp`,
      large: `/media/lots/1/p${id}-large.webp`,
    },
    width: 800,
    height: 600,
    bytes: 1000,
    created_by_user_id: 1,
    created_at: '2026-01-01T00:00:00.000Z',
  });

  test('when the lot and media disagree, then the lot order leads, new photos follow and deleted ones are gone', () => {
    const lotPhotos = [
      '/media/lots/1/p2-medium.webp',
      '/media/lots/1/p9-medium.webp',
      '/media/lots/1/p1-medium.webp',
    ];
    const items = galleryItems(lotPhotos, [photo(1, 0), photo(2, 1), photo(3, 2)]);
    expect(items.map((i) => i.photo?.id)).toEqual([2, 1, 3]);
    expect(items[0]).toMatchObject({
      url: '/media/lots/1/p2-medium.webp',
      large: '/media/lots/1/p2-large.webp',
    });
  });

  test('when a photo is made the main one, then it moves to the front and the rest keep their order', () => {
    expect(withMainFirst(['a', 'b', 'c', 'd'], 2)).toEqual(['c', 'a', 'b', 'd']);
  });
});
