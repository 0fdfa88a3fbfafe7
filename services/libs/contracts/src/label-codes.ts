/*
 * Label codes (issue 45) without zod: the SPA's scanner reads them in chunks that load no schema.
 */

/**
 * The label code's letters: digits and capitals without the ones a tired volunteer mixes up
 * (0/O, 1/I); 32 of them, so six make about a billion codes.
 */
export const LABEL_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const LABEL_CODE_LENGTH = 6;

/**
 * A code as typed or read from a label: case, spaces and dashes do not matter ("k7m-4qx" is
 * K7M4QX). Answers null for anything that cannot be a code.
 */
export function normalizeLabelCode(raw: string): string | null {
  const code = raw.replace(/[\s-]+/g, '').toUpperCase();
  if (code.length !== LABEL_CODE_LENGTH) return null;
  for (const c of code) if (!LABEL_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** A code as printed and shown: two groups of three ("K7M 4QX"), easier to read out. */
export const formatLabelCode = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;

/** The back-office page a label's QR code opens (the path below the public site). */
export const scanPath = (code: string): string => `/admin/scan/${code}`;
