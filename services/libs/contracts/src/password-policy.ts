/**
 * The new-password policy, one for the server and the back-office's strength helper: at least
 * Limits.newPasswordMin characters, and not easy to guess by zxcvbn-ts's estimate (common
 * passwords, names, keyboard patterns, dates, l33t) of at least PASSWORD_MIN_SCORE of 4, the
 * user's own name and e-mail and the platform's name counted as known words. Free of zod and of
 * zxcvbn itself: the caller passes the estimate (the auth service its own, the back-office one
 * it loads only when a new password is typed), so `@furniture/contracts/password-policy` stays
 * small (docs/decisions.md, "New passwords need 12 characters and a strength check").
 */
import { Limits } from './limits';

export const PASSWORD_MIN_SCORE = 3;

/** The password every README names for the single-machine run: never accepted as a new one. */
export const DOCUMENTED_ADMIN_PASSWORD = 'moebel-admin-2026';

const PLATFORM_WORDS = ['moebel', 'möbel', 'bruecke', 'brücke', 'moebelbruecke'];

/** The words a guesser would try first for this user (zxcvbn's user inputs). */
export function knownWords(userInputs: readonly string[]): string[] {
  const words = [...userInputs, ...PLATFORM_WORDS];
  for (const input of userInputs) words.push(...input.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return words.filter(Boolean);
}

/** What an estimate (zxcvbn-ts's `zxcvbn(password, words)`) answers that the policy reads. */
export interface PasswordEstimate {
  score: number;
  sequence: readonly { pattern: string; dictionaryName?: string }[];
}

/** Why a password is refused, most telling first. */
export type PasswordProblem =
  | 'too_short'
  | 'documented'
  | 'own_name'
  | 'common_word'
  | 'keyboard_pattern'
  | 'repeats'
  | 'sequence'
  | 'date'
  | 'guessable';

export interface PasswordVerdict {
  /** the server accepts it */
  ok: boolean;
  /** zxcvbn's score, 0 to 4 */
  score: number;
  problems: PasswordProblem[];
  /** characters still missing to the minimum */
  missing: number;
}

const PATTERN_PROBLEM: Record<string, PasswordProblem> = {
  spatial: 'keyboard_pattern',
  repeat: 'repeats',
  sequence: 'sequence',
  date: 'date',
  // zxcvbn's regex matcher finds recent years
  regex: 'date',
  dictionary: 'common_word',
};

/** The policy's verdict on a new password, with the reasons a refusal names. */
export function judgePassword(
  password: string,
  userInputs: readonly string[],
  estimate: (password: string, words: string[]) => PasswordEstimate,
): PasswordVerdict {
  // UTF-16 units, as the contract's schema counts them
  const missing = Math.max(0, Limits.newPasswordMin - password.length);
  const { score, sequence } = estimate(password, knownWords(userInputs));
  const problems: PasswordProblem[] = [];
  if (missing > 0) problems.push('too_short');
  if (password === DOCUMENTED_ADMIN_PASSWORD) problems.push('documented');
  if (score < PASSWORD_MIN_SCORE) {
    const found = sequence.map((m) =>
      m.pattern === 'dictionary' && m.dictionaryName === 'userInputs'
        ? 'own_name'
        : PATTERN_PROBLEM[m.pattern],
    );
    const named = [...new Set(found.filter((p): p is PasswordProblem => p !== undefined))];
    problems.push(...(named.length > 0 ? named : ['guessable' as const]));
  }
  return { ok: problems.length === 0, score, problems, missing };
}
