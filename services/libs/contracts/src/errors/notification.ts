import type { ErrorDefinition } from './types';

/** Activity log errors. */
export const notificationErrors = {} as const satisfies Record<string, ErrorDefinition>;
