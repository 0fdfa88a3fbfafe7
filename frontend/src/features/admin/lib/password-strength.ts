export type PasswordStrengthLabel = 'weak' | 'medium' | 'strong';

/**
 * Password strength helper of back-office §5: one point each for a length of at least 8, a
 * lower-case letter, an upper-case letter, a digit and a special character (score 0-5); weak up
 * to 2, medium at 3, strong above. Letters of every alphabet count (Cyrillic too).
 */
export function passwordStrength(password: string): {
  score: number;
  label: PasswordStrengthLabel;
} {
  const checks = [
    password.length >= 8,
    /\p{Ll}/u.test(password),
    /\p{Lu}/u.test(password),
    /\d/.test(password),
    /[^\p{L}\d\s]/u.test(password),
  ];
  const score = checks.filter(Boolean).length;
  return { score, label: score <= 2 ? 'weak' : score <= 3 ? 'medium' : 'strong' };
}
