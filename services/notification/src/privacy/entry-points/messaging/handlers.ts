import { Events } from '@furniture/contracts';
import type { EventHandlers } from '@furniture/platform';
import type { ErasedFamilies } from '../../domain/privacy-service';

/** An erasure is remembered before the modules erase what they keep (compose.ts runs it first). */
export function privacyHandlers(erased: ErasedFamilies): EventHandlers {
  return { [Events.PersonalDataErased]: (event) => erased.onErased(event) };
}
