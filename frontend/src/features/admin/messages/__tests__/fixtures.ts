import type {
  Message,
  MessageChannelState,
  MessageStatusAnswer,
} from '@furniture/contracts/api/messages';
import { quietChannel } from '../../../../test/server';

/** A message as GET /messages/?… answers it (issue 30). */
export function message(overrides: Partial<Message> = {}): Message {
  return {
    id: 1,
    kind: 'approved',
    application_id: 41,
    wish_id: null,
    donation_id: null,
    lot_id: 4,
    channel: 'whatsapp',
    to: '+49 176 ••• 678',
    language: 'uk',
    template: 'mb_approved',
    text: 'Вашу заявку схвалено.',
    status: 'delivered',
    reason: null,
    steps: [],
    emailed: false,
    requested_by: null,
    created_at: '2026-03-05T09:30:00.000Z',
    updated_at: '2026-03-05T09:31:00.000Z',
    ...overrides,
  };
}

export function channelStatus(
  overrides: Partial<Record<'whatsapp' | 'sms', Partial<MessageChannelState>>> = {},
): MessageStatusAnswer {
  return {
    whatsapp: { ...quietChannel, ...overrides.whatsapp },
    sms: { ...quietChannel, ...overrides.sms },
    failed: 0,
    month: '2026-03',
  };
}
