import { buildApplicationPayload, EMPTY_APPLY_FORM, validateApplyForm } from '../lib/apply-form';

describe('apply form', () => {
  test('when WhatsApp and e-mail are empty, then the payload carries null for both', () => {
    const payload = buildApplicationPayload(
      { ...EMPTY_APPLY_FORM, name: 'Olena', phone: '0049 176 1234567', whatsapp: '   ' },
      '12',
      'de',
    );
    expect(payload).toMatchObject({
      applicant_phone: '00491761234567',
      applicant_whatsapp: null,
      applicant_email: null,
      lot_id: 12,
      language: 'de',
    });
  });

  test('when city and address are given, then they are sent trimmed instead of "Не вказано"', () => {
    const payload = buildApplicationPayload(
      { ...EMPTY_APPLY_FORM, city: ' Berlin ', address: ' Hauptstr. 1 ', email: ' a@b.de ' },
      7,
      'uk',
    );
    expect(payload).toMatchObject({
      applicant_city: 'Berlin',
      applicant_address: 'Hauptstr. 1',
      applicant_email: 'a@b.de',
    });
  });

  test('when city or address are too long, then the form refuses them', () => {
    const errors = validateApplyForm({
      ...EMPTY_APPLY_FORM,
      name: 'Olena',
      phone: '0176 1234567',
      whatsapp: '0176 1234567',
      city: 'c'.repeat(101),
      address: 'a'.repeat(201),
    });
    expect(errors).toEqual({
      city: { key: 'tooLong', count: 100 },
      address: { key: 'tooLong', count: 200 },
    });
  });
});
