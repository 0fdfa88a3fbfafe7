import type { EntityOf, Store } from '@furniture/platform';
import { LabelCodeRecord, type LabelKind } from '../domain/warehouse-records';

/** The label codes' claims (issue 45): one document per code, keyed by it. */
export class LabelCodesRepository {
  private readonly codes: EntityOf<typeof LabelCodeRecord>;

  constructor(store: Store) {
    this.codes = store.entity({
      name: 'label_codes',
      record: LabelCodeRecord,
      key: 'code',
      // the code is the primary key: a code is handed out once, whichever process draws it
      idFromKey: true,
      // and what it names is named once: a lot or place never holds two codes
      unique: [{ kind: 1, target_id: 1 }],
    });
  }

  get(code: string): Promise<LabelCodeRecord | null> {
    return this.codes.get(code);
  }

  /** The codes of these codes that exist (a count's scanned codes). */
  getMany(codes: readonly string[]): Promise<LabelCodeRecord[]> {
    return this.codes.getMany(codes);
  }

  ofTarget(kind: LabelKind, targetId: number): Promise<LabelCodeRecord | null> {
    return this.codes.findOne({ kind, target_id: targetId });
  }

  /** true: the claim is stored; false: the code, or a code for the target, is taken already. */
  claim(record: LabelCodeRecord): Promise<boolean> {
    return this.codes.insertUnlessTaken(record);
  }
}
