import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * WhatsApp number normalisation of back-office §5: spaces, hyphens and brackets removed; a
 * leading 0 becomes +49 (a German number); a number starting with 380 gets a +; otherwise a + is
 * put in front. "00" is read as the international prefix (0049… → +49…), which the spec's rule
 * would turn into +49049….
 */
export function normalizeWhatsapp(raw: string): string {
  let n = raw.replace(/[\s\-()]/g, '');
  if (n.startsWith('+')) n = `+${n.slice(1).replace(/\D/g, '')}`;
  else {
    n = n.replace(/\D/g, '');
    if (n.startsWith('00')) n = `+${n.slice(2)}`;
    else if (n.startsWith('0')) n = `+49${n.slice(1)}`;
    else n = `+${n}`;
  }
  return n;
}

/** A wa.me link with the prefilled message (wa.me wants the number without +). */
export function whatsappLink(raw: string, message: string): string {
  return `https://wa.me/${normalizeWhatsapp(raw).slice(1)}?text=${encodeURIComponent(message)}`;
}

/** A +country-code number in groups (+49 176 12345678); anything unreadable as it came. */
export function formatPhone(raw: string): string {
  const parsed = parsePhoneNumberFromString(raw.startsWith('+') ? raw : normalizeWhatsapp(raw));
  return parsed?.isPossible() ? parsed.formatInternational() : raw;
}
