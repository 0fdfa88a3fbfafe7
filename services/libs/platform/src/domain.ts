/**
 * What domain code may import from the platform (enforced by lint, eslint.config.mjs): errors,
 * events and a few types, none of which pulls express, mongoose or amqplib into the domain's
 * graph. No lock and nothing of the store: what must not interleave is a repository's business.
 */
export { AppError } from './app-error';
export { createEvent } from './messaging/events';
export { inTraceOf } from './messaging/trace-context';
export { DependencyUnavailableError } from './failures';
export { findSnapshotLot } from './read-models/lot-view';
export type { LotLookup, LotSnapshotSource, LotView } from './read-models/lot-view';
export type { Logger } from 'pino';
export type { AuthenticatedActor, PresentedToken } from './auth';
export { formatLocal, localDay, localInstant, rangeEnd, rangeStart } from './dates';
export { changesOf } from './changes';
export type { ErasureLedger, ErasureEntry, ErasedRecord } from './backup/erasure-ledger';
export { ledgerWatermark } from './backup/watermark';
