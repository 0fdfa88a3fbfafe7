import type { ActionType, Actor, Language, TargetType } from '@furniture/contracts';

/**
 * What the messages module asks of its neighbours in the service (wired in compose.ts): an
 * activity-log entry of its own, and a mail (the office's budget warning, a failed prepared
 * message's text for a family with an address).
 */
export interface MessageActivity {
  /** writes the entry once (its id: `eventId`) */
  record(entry: {
    eventId: string;
    action: ActionType;
    target: TargetType;
    targetId: number | null;
    details: Record<string, unknown>;
    user: Actor | null;
  }): Promise<void>;
}

export interface MessageMail {
  /** queues one mail (once per `eventId`) with these paragraphs */
  queue(mail: {
    eventId: string;
    eventName: string;
    kind: 'prepared_message' | 'message_budget_warning';
    to: string;
    language: Language;
    /** whom it greets ('' : no name) */
    name: string;
    subject: string;
    paragraphs: string[];
    applicationId: number | null;
    lotId: number | null;
    occurredAt: Date;
  }): Promise<void>;
}
