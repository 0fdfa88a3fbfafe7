import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { DOCUMENTED_ADMIN_PASSWORD, judgePassword } from '@furniture/contracts';
import type { PasswordPolicy } from '../domain/records';

export { DOCUMENTED_ADMIN_PASSWORD };

let configured = false;

/**
 * A new password must not be easy to guess: the contracts' policy (judgePassword, the same the
 * back-office's strength helper applies) with zxcvbn-ts's estimate and its common dictionary.
 * The length rule is the contract's schema's.
 */
export function zxcvbnPasswordPolicy(): PasswordPolicy {
  if (!configured) {
    zxcvbnOptions.setOptions({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary },
    });
    configured = true;
  }
  return {
    isWeak(password, userInputs = []) {
      const verdict = judgePassword(password, userInputs, (pw, words) => zxcvbn(pw, words));
      return verdict.problems.some((p) => p !== 'too_short');
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
