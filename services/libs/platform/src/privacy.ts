/**
 * Families' phone numbers and e-mail addresses must not end up in logs or in messages kept for
 * people to read (a dead-lettered event's error text). This masks both in a free text.
 */
const EMAIL = /[\w.+-]+@([\w-]+\.)+[\w-]{2,}/g;
// a phone number: an optional +, then at least 6 digits possibly split by spaces, dots, dashes
// or slashes (order and lot ids of up to 5 digits stay readable)
const PHONE = /\+?\d(?:[\s./-]?\d){5,}/g;

export function maskPersonalData(text: string): string {
  return text.replace(EMAIL, '[email]').replace(PHONE, '[phone]');
}
