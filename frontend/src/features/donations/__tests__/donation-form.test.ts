import { File as NodeFile } from 'node:buffer';
import type { ApiError } from '../../../app/api';
import {
  buildDonationPayload,
  classifySubmitError,
  emptyDonation,
  emptyItem,
  fieldOrder,
  validateDonation,
  type DonationFormValues,
} from '../lib/donation-form';
import { checkDonorPhotos } from '../lib/photo-checks';

const TODAY = '2026-06-10';

function filled(overrides: Partial<DonationFormValues> = {}): DonationFormValues {
  return {
    ...emptyDonation('uk'),
    name: '  Oksana Petrenko ',
    phone: '0176 123 45-67',
    city: 'Berlin',
    address: 'Hauptstraße 5',
    availableUntil: '2026-06-30',
    consent: true,
    items: [{ ...emptyItem(), categoryId: '3', description: 'Дерев’яний стіл на шість осіб' }],
    ...overrides,
  };
}

describe('the donation form', () => {
  test('when everything required is given, then nothing is wrong', () => {
    expect(validateDonation(filled(), TODAY)).toEqual({});
  });

  test('when the form is sent empty, then name, phone, city, address, day, category, description and consent are required', () => {
    const errors = validateDonation(emptyDonation('de'), TODAY);
    expect(errors).toEqual({
      name: { key: 'required' },
      phone: { key: 'required' },
      city: { key: 'required' },
      address: { key: 'required' },
      availableUntil: { key: 'required' },
      'items.0.categoryId': { key: 'required' },
      'items.0.description': { key: 'required' },
      consent: { key: 'consent' },
    });
    // the first field in reading order gets the focus
    expect(fieldOrder(emptyDonation('de')).find((f) => errors[f])).toBe('name');
  });

  test('when a description has 9 characters or 501, then it is too short or too long', () => {
    const short = filled();
    short.items[0]!.description = '123456789';
    expect(validateDonation(short, TODAY)['items.0.description']).toEqual({
      key: 'tooShort',
      count: 10,
    });
    const long = filled();
    long.items[0]!.description = 'x'.repeat(501);
    expect(validateDonation(long, TODAY)['items.0.description']).toEqual({
      key: 'tooLong',
      count: 500,
    });
  });

  test('when the day has passed, a phone has letters, an e-mail no @ or the floor is no whole number, then each says so', () => {
    const errors = validateDonation(
      filled({
        availableUntil: '2026-06-09',
        phone: '0176 abc',
        email: 'oksana.mail',
        floor: '2.5',
      }),
      TODAY,
    );
    expect(errors).toEqual({
      availableUntil: { key: 'pastDate' },
      phone: { key: 'invalidPhone' },
      email: { key: 'invalidEmail' },
      floor: { key: 'invalidFloor' },
    });
    // today itself is fine, and so are the ground floor and a cellar
    expect(validateDonation(filled({ availableUntil: TODAY, floor: '0' }), TODAY)).toEqual({});
    expect(validateDonation(filled({ floor: '-1' }), TODAY)).toEqual({});
    expect(validateDonation(filled({ floor: '101' }), TODAY).floor).toEqual({
      key: 'invalidFloor',
    });
  });

  test('when the second item lacks its category, then its field is named by its place', () => {
    const values = filled();
    values.items.push({ ...emptyItem(), description: 'Ein Kinderbett aus Holz' });
    const errors = validateDonation(values, TODAY);
    expect(errors).toEqual({ 'items.1.categoryId': { key: 'required' } });
    expect(fieldOrder(values).find((f) => errors[f])).toBe('items.1.categoryId');
  });

  test('when the body is built, then texts are trimmed, the phone keeps digits only and empty optional parts left out', () => {
    const values = filled({ namePublic: true, floor: ' 3 ', hasElevator: true });
    values.items[0]!.condition = 'good';
    values.items[0]!.dimensions = ' 160 × 90 ';
    values.items[0]!.canDisassemble = true;
    values.items.push({ ...emptyItem(), categoryId: '6', description: 'Kinderbett, 70 × 140' });
    expect(buildDonationPayload(values)).toEqual({
      donor_name: 'Oksana Petrenko',
      donor_phone: '01761234567',
      language: 'uk',
      city: 'Berlin',
      address: 'Hauptstraße 5',
      floor: 3,
      has_elevator: true,
      available_until: '2026-06-30',
      items: [
        {
          category_id: 3,
          description: 'Дерев’яний стіл на шість осіб',
          dimensions: '160 × 90',
          condition: 'good',
          can_disassemble: true,
        },
        { category_id: 6, description: 'Kinderbett, 70 × 140', can_disassemble: false },
      ],
      consent: true,
      donor_name_public: true,
    });
    expect(buildDonationPayload(filled({ email: ' o@example.org ' })).donor_email).toBe(
      'o@example.org',
    );
  });

  test('when the server refuses with a 422, then its entries land on their fields, items by place', () => {
    const error: ApiError = {
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'Validierungsfehler',
      detail: [
        {
          loc: ['body', 'available_until'],
          msg: 'Das Datum liegt in der Vergangenheit',
          type: 'x',
        },
        { loc: ['body', 'items', 1, 'description'], msg: 'Mindestens 10 Zeichen', type: 'x' },
      ],
    };
    expect(classifySubmitError(error, 2)).toEqual({
      fieldErrors: {
        availableUntil: 'Das Datum liegt in der Vergangenheit',
        'items.1.description': 'Mindestens 10 Zeichen',
      },
      message: null,
      messageKey: 'validation',
    });
  });

  test('when the server says too many donations or nothing answers, then its message or the connection text shows', () => {
    expect(
      classifySubmitError(
        { status: 429, code: 'RATE_LIMITED', message: 'Zu viele Spenden von dieser Nummer.' },
        1,
      ),
    ).toEqual({
      fieldErrors: {},
      message: 'Zu viele Spenden von dieser Nummer.',
      messageKey: null,
    });
    expect(
      classifySubmitError({ status: 0, code: 'NETWORK_ERROR', message: 'x' }, 1).messageKey,
    ).toBe('network');
    expect(
      classifySubmitError(
        { status: 502, code: 'HTTP_ERROR', message: 'HTTP 502', generic: true },
        1,
      ).messageKey,
    ).toBe('generic');
  });
});

const photo = (name: string, type = 'image/jpeg') =>
  new NodeFile([new Uint8Array(100)], name, { type }) as unknown as File;

describe("the browser's checks of a donor's photos", () => {
  const sizes: Record<string, { width: number; height: number }> = {
    'gross.jpg': { width: 4000, height: 3000 },
    'klein.jpg': { width: 200, height: 200 },
  };
  const readSize = async (file: File) => {
    const size = sizes[file.name];
    if (!size) throw new Error('not an image');
    return size;
  };

  test('when a PDF, a 200×200 image and a broken file come with a big photo, then only the big photo is taken', async () => {
    const { accepted, problems } = await checkDonorPhotos(
      [
        photo('gross.jpg'),
        photo('rechnung.pdf', 'application/pdf'),
        photo('klein.jpg'),
        photo('kaputt.jpg'),
      ],
      0,
      readSize,
    );
    expect(accepted.map((f) => f.name)).toEqual(['gross.jpg']);
    expect(problems).toEqual([
      { key: 'wrongType', values: { file: 'rechnung.pdf' } },
      { key: 'tooSmall', values: { file: 'klein.jpg', min: '300×300' } },
      { key: 'corrupt', values: { file: 'kaputt.jpg' } },
    ]);
  });

  test('when an item has four photos and two more come, then one is taken and the other refused', async () => {
    const { accepted, problems } = await checkDonorPhotos(
      [photo('gross.jpg'), photo('gross.jpg')],
      4,
      readSize,
    );
    expect(accepted).toHaveLength(1);
    expect(problems).toEqual([{ key: 'tooMany', values: { max: 5, n: 1 } }]);
  });

  test('when a PDF is named .jpg, then the browser reads no image and refuses it', async () => {
    const { accepted, problems } = await checkDonorPhotos([photo('scan.jpg')], 0, readSize);
    expect(accepted).toEqual([]);
    expect(problems).toEqual([{ key: 'corrupt', values: { file: 'scan.jpg' } }]);
  });
});
