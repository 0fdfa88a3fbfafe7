// Captured outgoing messages and submitted WhatsApp templates: in memory and, with a folder, on
// disk (messages/<key>.json, templates.json) so they survive a restart like captured mail does.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type Channel = 'whatsapp' | 'sms';
export type CapturedStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed' | 'undelivered';

export interface CapturedMessage {
  id: string;
  channel: Channel;
  /** E.164 */
  to: string;
  /** Template language for WhatsApp; for SMS guessed from the text (Cyrillic → uk, else de). */
  language: string | null;
  template: string | null;
  text: string;
  status: CapturedStatus;
  created_at: string;
}

/** What the stand-in keeps per message: the public fields plus what the callbacks need. */
export interface StoredMessage extends CapturedMessage {
  /** Time-ordered key: sorting keys sorts messages by arrival. */
  key: string;
  from: string | null;
  /** WhatsApp: biz_opaque_callback_data; SMS: StatusCallback URL. */
  callbackData: string | null;
  statusCallback: string | null;
  errorCode: number | null;
}

export interface TemplateComponent {
  type: string;
  text?: string;
  format?: string;
  example?: unknown;
  [key: string]: unknown;
}

export interface StoredTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  components: TemplateComponent[];
}

let counter = 0;

export function timeKey(): string {
  counter = (counter + 1) % 36 ** 4;
  return (
    Date.now().toString(36).padStart(9, '0') +
    counter.toString(36).padStart(4, '0') +
    randomBytes(4).toString('hex')
  );
}

export function publicView(m: StoredMessage): CapturedMessage {
  return {
    id: m.id,
    channel: m.channel,
    to: m.to,
    language: m.language,
    template: m.template,
    text: m.text,
    status: m.status,
    created_at: m.created_at,
  };
}

export class MessageStore {
  /** Oldest first. */
  private messages: StoredMessage[] = [];
  private templates: StoredTemplate[] = [];
  private readonly messageDir?: string;

  constructor(private readonly dir?: string) {
    if (!dir) return;
    this.messageDir = path.join(dir, 'messages');
    fs.mkdirSync(this.messageDir, { recursive: true });
    for (const file of fs.readdirSync(this.messageDir)) {
      if (!file.endsWith('.json')) continue;
      try {
        const m = JSON.parse(
          fs.readFileSync(path.join(this.messageDir, file), 'utf8'),
        ) as StoredMessage;
        if (typeof m.key === 'string' && typeof m.id === 'string') this.messages.push(m);
      } catch {
        // half-written or foreign file: skip it
      }
    }
    this.messages.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    try {
      const t = JSON.parse(
        fs.readFileSync(path.join(dir, 'templates.json'), 'utf8'),
      ) as StoredTemplate[];
      if (Array.isArray(t)) this.templates = t;
    } catch {
      // none yet
    }
  }

  add(m: StoredMessage): void {
    this.messages.push(m);
    this.persist(m);
  }

  update(id: string, change: Partial<Pick<StoredMessage, 'status' | 'errorCode'>>): void {
    const m = this.messages.find((x) => x.id === id);
    if (!m) return; // cleared meanwhile
    Object.assign(m, change);
    this.persist(m);
  }

  get(id: string): StoredMessage | undefined {
    return this.messages.find((x) => x.id === id);
  }

  /** Newest first. */
  list(filter?: (m: StoredMessage) => boolean): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i];
      if (m && (!filter || filter(m))) out.push(m);
    }
    return out;
  }

  clear(): void {
    if (this.messageDir) {
      for (const m of this.messages)
        fs.rmSync(path.join(this.messageDir, `${m.key}.json`), { force: true });
    }
    this.messages = [];
  }

  listTemplates(): StoredTemplate[] {
    return [...this.templates];
  }

  findTemplate(name: string, language: string): StoredTemplate | undefined {
    return this.templates.find((t) => t.name === name && t.language === language);
  }

  addTemplate(t: StoredTemplate): void {
    this.templates.push(t);
    if (this.dir)
      writeAtomic(path.join(this.dir, 'templates.json'), JSON.stringify(this.templates));
  }

  private persist(m: StoredMessage): void {
    if (this.messageDir)
      writeAtomic(path.join(this.messageDir, `${m.key}.json`), JSON.stringify(m));
  }
}

function writeAtomic(file: string, data: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}
