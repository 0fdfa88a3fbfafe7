import { randomInt } from 'node:crypto';
import { LABEL_CODE_ALPHABET, LABEL_CODE_LENGTH } from '@furniture/contracts';
import type { LabelCodesRepository } from '../data-access/label-codes-repository';
import type { LabelKind } from './warehouse-records';

/** Draws after which a claim gives up (a billion codes: a second draw is already rare). */
const MAX_DRAWS = 8;

/** A random code: nothing of the lot, the donor or the family is in it. */
export function drawLabelCode(): string {
  let code = '';
  for (let i = 0; i < LABEL_CODE_LENGTH; i++)
    code += LABEL_CODE_ALPHABET[randomInt(LABEL_CODE_ALPHABET.length)];
  return code;
}

/**
 * Label codes (issue 45): every lot and place gets one random code, claimed by an insert that
 * wins or loses on two unique keys (the code itself, and what it names), so two catalog
 * processes drawing at once never hand out one code twice, and one lot never gets two codes.
 */
export class LabelCodes {
  constructor(private readonly deps: { codes: LabelCodesRepository; draw?: () => string }) {}

  /** The code of a lot or place: its claim, made now unless it has one (also another process's). */
  async claim(kind: LabelKind, targetId: number): Promise<string> {
    const draw = this.deps.draw ?? drawLabelCode;
    for (let attempt = 1; attempt <= MAX_DRAWS; attempt++) {
      const code = draw();
      if (await this.deps.codes.claim({ code, kind, target_id: targetId, created_at: new Date() }))
        return code;
      // lost: the code is another's (draw again), or the target has its code already
      const held = await this.deps.codes.ofTarget(kind, targetId);
      if (held) return held.code;
    }
    throw new Error(`no free label code for ${kind} ${targetId} after ${MAX_DRAWS} draws`);
  }

  get(code: string) {
    return this.deps.codes.get(code);
  }

  getMany(codes: readonly string[]) {
    return this.deps.codes.getMany(codes);
  }
}
