import '../../test/admin-test-utils';
import { formatPhone, normalizeWhatsapp, whatsappLink } from '../lib/contact';
import { groupByLot, isNextInQueue, matchesSearch, queuePositions } from '../lib/grouping';
import { parseNoteLine } from '@furniture/contracts/notes';
import { noteLine, parseNotes } from '../lib/notes';
import { application, lotRef } from '../../test/application-fixtures';

describe('grouping by lot', () => {
  test('when applications of several lots are grouped, then lots not taken come first, then most pending, then lot id', () => {
    const apps = [
      application({ lot_id: 5, lot: lotRef(5, 'taken'), status: 'pending' }),
      application({ lot_id: 5, lot: lotRef(5, 'taken'), status: 'pending' }),
      application({ lot_id: 5, lot: lotRef(5, 'taken'), status: 'pending' }),
      application({ lot_id: 3, lot: lotRef(3), status: 'pending' }),
      application({ lot_id: 2, lot: lotRef(2, 'reserved'), status: 'approved' }),
      application({ lot_id: 2, lot: lotRef(2, 'reserved'), status: 'pending' }),
      application({ lot_id: 2, lot: lotRef(2, 'reserved'), status: 'pending' }),
      application({ lot_id: 1, lot: lotRef(1), status: 'rejected' }),
      application({ lot_id: 4, lot: lotRef(4), status: 'pending' }),
    ];
    const groups = groupByLot(apps);
    expect(groups.map((g) => g.lotId)).toEqual([2, 3, 4, 1, 5]);
    expect(groups[0]!.counts).toEqual({
      total: 3,
      pending: 2,
      approved: 1,
      rejected: 0,
      completed: 0,
    });
    expect(groups[0]!.approved?.id).toBe(apps[4]!.id);
  });

  test('when the approved application is on another page, then the group takes the holder the server names on the lot', () => {
    const lot = { ...lotRef(7, 'reserved'), held_by: { id: 99, applicant_name: 'Olena K.' } };
    const [group] = groupByLot([
      application({ lot_id: 7, lot, status: 'pending' }),
      application({ lot_id: 7, lot, status: 'pending' }),
    ]);
    expect(group!.approved).toEqual({ id: 99, applicant_name: 'Olena K.' });
    const [free] = groupByLot([application({ lot_id: 8, lot: lotRef(8), status: 'pending' })]);
    expect(free!.approved).toBeNull();
  });

  test('when a group is built, then its applications are oldest first and queue places follow the server', () => {
    const newest = application({ id: 3, created_at: '2026-03-03T09:00:00Z', queue_position: 2 });
    const oldest = application({ id: 1, created_at: '2026-03-01T09:00:00Z', status: 'rejected' });
    const middle = application({ id: 2, created_at: '2026-03-02T09:00:00Z', queue_position: 1 });
    const [group] = groupByLot([newest, oldest, middle]);
    expect(group!.applications.map((a) => a.id)).toEqual([1, 2, 3]);
    const places = queuePositions(group!);
    expect([...places]).toEqual([
      [2, 1],
      [3, 2],
    ]);
    expect(isNextInQueue(middle, places.get(2))).toBe(true);
    expect(isNextInQueue(newest, places.get(3))).toBe(false);
  });

  test('when the approved application holds place 1, then no pending one is "next in queue"', () => {
    const approved = application({
      id: 1,
      status: 'approved',
      queue_position: 1,
      created_at: '2026-03-01T09:00:00Z',
    });
    const waiting = application({ id: 2, queue_position: 2, created_at: '2026-03-02T09:00:00Z' });
    const [group] = groupByLot([waiting, approved]);
    const places = queuePositions(group!);
    expect(group!.applications.filter((a) => isNextInQueue(a, places.get(a.id)))).toEqual([]);
  });

  test('when the server sends no places, then open applications are counted oldest first', () => {
    const a = application({ id: 1, created_at: '2026-03-01T09:00:00Z' });
    const b = application({ id: 2, created_at: '2026-03-02T09:00:00Z', status: 'completed' });
    const c = application({ id: 3, created_at: '2026-03-03T09:00:00Z' });
    const places = queuePositions(groupByLot([c, b, a])[0]!);
    expect([...places]).toEqual([
      [1, 1],
      [3, 2],
    ]);
  });

  test('when searching, then name, city, address and phone digits match, case-insensitively', () => {
    const a = application({
      applicant_name: 'Olena Kowalenko',
      applicant_city: 'Potsdam',
      applicant_address: 'Lindenallee 4',
      applicant_phone: '+380671234567',
      applicant_phone_raw: '+380 67 123 4567',
    });
    for (const hit of ['olena', 'POTS', 'linden', '067 123', '4567'])
      expect(matchesSearch(a, hit)).toBe(true);
    for (const miss of ['Berlin', '999 888']) expect(matchesSearch(a, miss)).toBe(false);
  });
});

describe('internal notes', () => {
  test('when notes are stored oldest first, then they are parsed into their parts and shown newest first', () => {
    const stored = [
      '[01.03.2026 09:15] volunteer: vera@example.org | NOTE_ADD | Familie angerufen, kommt Samstag',
      '[02.03.2026 14:05] admin: anna@example.org | APPROVE | ',
      '[02.03.2026 14:05] system: system | REJECT | Automatisch abgelehnt: Das Lot wurde für Bewerbung #12 reserviert.',
      'eine alte Notiz ohne Format',
    ].join('\n');
    const notes = parseNotes(stored);
    expect(notes[0]).toEqual({
      timestamp: '02.03.2026 14:05',
      role: 'system',
      email: 'system',
      action: 'REJECT',
      comment: 'Automatisch abgelehnt: Das Lot wurde für Bewerbung #12 reserviert.',
    });
    expect(notes[1]).toMatchObject({
      role: 'admin',
      email: 'anna@example.org',
      action: 'APPROVE',
      comment: '',
    });
    expect(notes[2]).toEqual({
      timestamp: '01.03.2026 09:15',
      role: 'volunteer',
      email: 'vera@example.org',
      action: 'NOTE_ADD',
      comment: 'Familie angerufen, kommt Samstag',
    });
    expect(notes[3]).toMatchObject({ timestamp: '', comment: 'eine alte Notiz ohne Format' });
  });

  const parts = (
    timestamp: string,
    role: string,
    email: string,
    action: string,
    comment: string,
  ) => ({
    timestamp,
    role,
    email,
    action,
    comment,
  });
  test.each([
    [
      '[01.03.2026 09:15] volunteer: vera@example.org | NOTE_ADD | Familie angerufen',
      parts('01.03.2026 09:15', 'volunteer', 'vera@example.org', 'NOTE_ADD', 'Familie angerufen'),
    ],
    [
      '[02.03.2026 14:05] admin: anna@example.org | APPROVE | ',
      parts('02.03.2026 14:05', 'admin', 'anna@example.org', 'APPROVE', ''),
    ],
    [
      '[02.03.2026 14:05]system:system|REJECT|knapp',
      parts('02.03.2026 14:05', 'system', 'system', 'REJECT', 'knapp'),
    ],
    ['[x] a: b | c | d | e', parts('x', 'a', 'b', 'c', 'd | e')],
    ['kein Format', parts('', '', '', '', 'kein Format')],
    ['[01.03.2026] nur: Zeit', parts('', '', '', '', '[01.03.2026] nur: Zeit')],
  ])('when %p is read, then its parts are %p', (line, expected) => {
    expect(parseNoteLine(line)).toEqual(expected);
  });

  test('when a comment holds a "|", then it stays part of the comment', () => {
    expect(
      parseNotes('[01.03.2026 09:15] admin: a@b.de | NOTE_ADD | Tür 2 | Hinterhaus')[0]!.comment,
    ).toBe('Tür 2 | Hinterhaus');
  });

  test('when a note line is written, then it has the spec form in Berlin time on one line', () => {
    const line = noteLine({
      now: new Date('2026-07-01T22:30:00Z'),
      role: 'volunteer',
      email: 'vera@example.org',
      action: 'NOTE_ADD',
      comment: 'zwei\nZeilen',
    });
    expect(line).toBe('[02.07.2026 00:30] volunteer: vera@example.org | NOTE_ADD | zwei Zeilen');
    expect(parseNotes(line)[0]).toMatchObject({
      timestamp: '02.07.2026 00:30',
      comment: 'zwei Zeilen',
    });
  });
});

describe('WhatsApp links', () => {
  test.each([
    ['0176 123-456 78', '+4917612345678'],
    ['(0176) 1234 5678', '+4917612345678'],
    ['380 67 123 4567', '+380671234567'],
    ['+380 (67) 123-45-67', '+380671234567'],
    ['49 176 12345678', '+4917612345678'],
    ['0049 176 12345678', '+4917612345678'],
    ['+49 176 12345678', '+4917612345678'],
  ])('when the number is %p, then WhatsApp gets %p', (raw, normalized) => {
    expect(normalizeWhatsapp(raw)).toBe(normalized);
  });

  test('when a link is made, then it goes to wa.me without + and carries the message', () => {
    expect(whatsappLink('0176 12345678', 'Guten Tag Olena, hier ist die Möbelbrücke.')).toBe(
      'https://wa.me/4917612345678?text=Guten%20Tag%20Olena%2C%20hier%20ist%20die%20M%C3%B6belbr%C3%BCcke.',
    );
  });

  test('when a phone is shown, then it is split into groups after the country code', () => {
    expect(formatPhone('+4917612345678')).toBe('+49 176 12345678');
    expect(formatPhone('+380671234567')).toBe('+380 67 123 4567');
    expect(formatPhone('kein Telefon')).toBe('kein Telefon');
  });
});
