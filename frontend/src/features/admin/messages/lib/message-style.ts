import type { MessageStatus } from '@furniture/contracts/enums';
import type { BadgeTone } from '../../../../components/Badge';

/** A message status's colour: waiting grey, on its way blue, arrived green, failed red. */
export const STATUS_TONES: Record<MessageStatus, BadgeTone> = {
  queued: 'slate',
  sending: 'sky',
  sent: 'blue',
  delivered: 'green',
  read: 'green',
  failed: 'red',
  skipped: 'amber',
};

/** Still on its way: the list is read again until it has settled. */
export const IN_FLIGHT: readonly MessageStatus[] = ['queued', 'sending'];

/** How often a thread is read again while a message is on its way or a new one is expected. */
export const MESSAGES_POLL_MS = 2000;
/** How long a requested message is waited for before the list stops asking (it may be skipped). */
export const AWAIT_NEW_MS = 30000;

/** Both channels off: nothing can be sent (GET /messages/status). */
export const channelsOff = (status: {
  whatsapp: { enabled: boolean };
  sms: { enabled: boolean };
}) => !status.whatsapp.enabled && !status.sms.enabled;
