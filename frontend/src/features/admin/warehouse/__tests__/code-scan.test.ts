import { codeFromScan } from '../../ui/CodeScanner';

/** What the scanner makes of a label's QR code or a typed code (issue 45). */
describe('codeFromScan', () => {
  test("when a label QR code is read, then the code is the scan address's last part, whichever site printed it", () => {
    expect(codeFromScan('https://moebel.example.org/admin/scan/K7M4QX')).toBe('K7M4QX');
    expect(codeFromScan('http://localhost:8080/admin/scan/k7m4qx/')).toBe('K7M4QX');
  });

  test('when a code is typed as printed, in lower case, with a space or a dash, then it is the same code', () => {
    for (const typed of ['K7M 4QX', 'k7m-4qx', ' k7m4qx ', 'K7M4QX'])
      expect(codeFromScan(typed)).toBe('K7M4QX');
  });

  test('when the text cannot be a code (wrong length, 0/O/1/I, another QR code), then null', () => {
    for (const text of [
      'K7M4Q',
      'K7M4QXX',
      'K0M4QX',
      'KOM4QX',
      'K1M4QX',
      'KIM4QX',
      'https://example.org/x',
      '',
    ])
      expect(codeFromScan(text)).toBeNull();
  });
});
