import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import type { PasswordPolicy } from '../domain/records';

/** The password every README names for the single-machine run: never in production. */
export const DOCUMENTED_ADMIN_PASSWORD = 'moebel-admin-2026';

let configured = false;

/**
 * A new password must not be easy to guess: zxcvbn-ts's estimate (common passwords, names,
 * keyboard patterns, dates, l33t) of at least `minScore` out of 4, with the user's own name and
 * e-mail and the platform's name counted as known words. The length rule is the contract's.
 */
export function zxcvbnPasswordPolicy(minScore = 3): PasswordPolicy {
  if (!configured) {
    zxcvbnOptions.setOptions({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary },
    });
    configured = true;
  }
  return {
    isWeak(password, userInputs = []) {
      const words = [...userInputs, 'moebel', 'möbel', 'bruecke', 'brücke', 'moebelbruecke'];
      for (const input of userInputs) words.push(...input.toLowerCase().split(/[^\p{L}\p{N}]+/u));
      if (password === DOCUMENTED_ADMIN_PASSWORD) return true;
      return zxcvbn(password, words.filter(Boolean)).score < minScore;
    },
  };
}

/** Production reachable by others: everything but development and the machine-local run. */
export function isExposed(env: { NODE_ENV: string; LOCAL_RUN?: boolean }): boolean {
  return env.NODE_ENV === 'production' && !env.LOCAL_RUN;
}

/**
 * Why a production start must not seed (or keep) its first administrator with this password:
 * the documented default, or one the policy refuses. Undefined when it may.
 */
export function adminPasswordProblem(
  env: { NODE_ENV: string; LOCAL_RUN?: boolean; ADMIN_PASSWORD?: string; ADMIN_EMAIL?: string },
  policy: PasswordPolicy,
  minLength: number,
): string | undefined {
  if (!isExposed(env) || !env.ADMIN_PASSWORD) return undefined;
  if (env.ADMIN_PASSWORD === DOCUMENTED_ADMIN_PASSWORD)
    return 'ADMIN_PASSWORD is the documented default of the single-machine run: set your own';
  if (
    env.ADMIN_PASSWORD.length < minLength ||
    policy.isWeak(env.ADMIN_PASSWORD, env.ADMIN_EMAIL ? [env.ADMIN_EMAIL] : [])
  )
    return `ADMIN_PASSWORD is too easy to guess: at least ${minLength} characters, not a common word or pattern`;
  return undefined;
}
