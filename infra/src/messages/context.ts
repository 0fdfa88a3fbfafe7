// State shared by the stand-in's provider endpoints, control API and status callbacks.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../util';
import { deliver, type WebhookRequest } from './callbacks';
import type { Channel, MessageStore } from './store';

export interface WhatsAppSettings {
  token: string;
  phoneNumberId: string;
  businessAccountId: string;
  appSecret: string;
  webhookUrl?: string;
}

export interface SmsSettings {
  accountSid: string;
  authToken: string;
  inboundUrl?: string;
  /** The number inbound SMS are addressed to (default: the last From used in a send). */
  number?: string;
}

export interface Reply {
  status: number;
  contentType: string;
  body: string;
}

export function json(status: number, body: unknown): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

export class StandInContext {
  readonly down = new Set<Channel>();
  whatsappUnreachable = new Set<string>();
  smsUndeliverable = new Set<string>();
  /** digits → last inbound (ms): WhatsApp's 24-hour customer service window for free text. */
  readonly lastInbound = new Map<string, number>();
  lastSmsFrom: string | null = null;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(
    readonly store: MessageStore,
    readonly whatsapp: WhatsAppSettings,
    readonly sms: SmsSettings,
    readonly callbackDelayMs: number,
    readonly callbackAttempts: number,
    readonly log: Log,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Runs status steps one after another, `callbackDelayMs` apart, in the background. */
  statusChain(steps: Array<() => WebhookRequest | null>, what: string): void {
    const run = async (): Promise<void> => {
      for (const step of steps) {
        try {
          await sleep(this.callbackDelayMs, undefined, { signal: this.signal });
        } catch {
          return; // stopped
        }
        const req = step();
        if (req) await this.post(req, what);
      }
    };
    const p = run().catch((err: unknown) =>
      this.log(`messages stand-in: ${what}: ${err instanceof Error ? err.message : String(err)}`),
    );
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  post(req: WebhookRequest, what: string): Promise<number | null> {
    return deliver(req, {
      attempts: this.callbackAttempts,
      backoffMs: 250,
      signal: this.signal,
      log: this.log,
      what,
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }
}

/** '+49 151 …', '49151…', '0049…' → '+49151…' (digits only after the plus). */
export function e164(raw: string): string {
  let digits = raw.replace(/[^\d]/g, '');
  if (raw.trim().startsWith('00')) digits = digits.replace(/^00/, '');
  return `+${digits}`;
}

export function digitsOf(raw: string): string {
  return e164(raw).slice(1);
}

export function nowSeconds(): string {
  return String(Math.floor(Date.now() / 1000));
}
