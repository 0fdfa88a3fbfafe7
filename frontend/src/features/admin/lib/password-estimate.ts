// zxcvbn-ts and its dictionary: loaded only when staff first type a new password (password-check.ts)
import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { judgePassword, type PasswordVerdict } from '@furniture/contracts/password-policy';

zxcvbnOptions.setOptions({ graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary } });

/** The server's verdict on a new password (the auth service applies the same policy). */
export function passwordCheck(password: string, userInputs: readonly string[]): PasswordVerdict {
  return judgePassword(password, userInputs, (pw, words) => zxcvbn(pw, words));
}
