// Captured mail: parsed with mailparser, kept in memory and (with a folder) on disk as
// <ID>.json (the parsed fields) plus <ID>.eml (the raw message), so mail survives restarts.
// Field names follow Mailpit's API so the same tests run against Mailpit.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';

export interface MailAddress {
  Name: string;
  Address: string;
}

export interface MailAttachment {
  PartID: string;
  FileName: string;
  ContentType: string;
  ContentID: string;
  Size: number;
}

export interface StoredMessage {
  ID: string;
  MessageID: string;
  From: MailAddress;
  To: MailAddress[];
  Cc: MailAddress[];
  Bcc: MailAddress[];
  ReplyTo: MailAddress[];
  ReturnPath: string;
  Subject: string;
  /** Date header (ISO), or the arrival time when the header is missing. */
  Date: string;
  /** Arrival time (ISO). */
  Created: string;
  Text: string;
  HTML: string;
  Size: number;
  Snippet: string;
  Attachments: MailAttachment[];
  Inline: MailAttachment[];
  /** Header name -> values, in message order. */
  Headers: Record<string, string[]>;
  /** SMTP envelope (MAIL FROM / RCPT TO); RCPT TO also covers Bcc recipients. */
  Envelope: { From: string; To: string[] };
  Read: boolean;
}

/** Mailpit's message summary as returned by the list and search endpoints. */
export interface MessageSummary {
  ID: string;
  MessageID: string;
  Read: boolean;
  From: MailAddress;
  To: MailAddress[];
  Cc: MailAddress[];
  Bcc: MailAddress[];
  ReplyTo: MailAddress[];
  Subject: string;
  Created: string;
  Tags: string[];
  Size: number;
  Attachments: number;
  Snippet: string;
}

export function summarize(m: StoredMessage): MessageSummary {
  return {
    ID: m.ID,
    MessageID: m.MessageID,
    Read: m.Read,
    From: m.From,
    To: m.To,
    Cc: m.Cc,
    Bcc: m.Bcc,
    ReplyTo: m.ReplyTo,
    Subject: m.Subject,
    Created: m.Created,
    Tags: [],
    Size: m.Size,
    Attachments: m.Attachments.length,
    Snippet: m.Snippet,
  };
}

/** Mailpit's message detail (no Headers / Envelope: those have their own endpoints). */
export function detail(m: StoredMessage): Omit<
  StoredMessage,
  'Headers' | 'Envelope' | 'Snippet' | 'Created'
> & {
  Tags: string[];
  ListUnsubscribe: { Header: string; Links: string[]; Errors: string; HeaderPost: string };
} {
  const {
    Headers: _headers,
    Envelope: _envelope,
    Snippet: _snippet,
    Created: _created,
    ...rest
  } = m;
  return {
    ...rest,
    Tags: [],
    ListUnsubscribe: { Header: '', Links: [], Errors: '', HeaderPost: '' },
  };
}

let counter = 0;

/** Time-ordered IDs: sorting IDs sorts messages by arrival. */
function newId(): string {
  counter = (counter + 1) % 36 ** 4;
  return (
    Date.now().toString(36).padStart(9, '0') +
    counter.toString(36).padStart(4, '0') +
    randomBytes(6).toString('base64url')
  );
}

function addresses(value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const out: MailAddress[] = [];
  for (const obj of list) {
    for (const a of obj.value) {
      if (a.group)
        for (const g of a.group) out.push({ Name: g.name ?? '', Address: g.address ?? '' });
      else out.push({ Name: a.name ?? '', Address: a.address ?? '' });
    }
  }
  return out;
}

function headerMap(parsed: ParsedMail): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { line } of parsed.headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = canonicalHeaderName(line.slice(0, colon).trim());
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    (out[name] ??= []).push(value);
  }
  return out;
}

function canonicalHeaderName(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((part) => (part === 'id' ? 'ID' : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('-');
}

function attachmentsOf(parsed: ParsedMail, inline: boolean): MailAttachment[] {
  return parsed.attachments
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => (a.contentDisposition === 'inline' && Boolean(a.contentId)) === inline)
    .map(({ a, i }) => ({
      PartID: String(i + 1),
      FileName: a.filename ?? '',
      ContentType: a.contentType,
      ContentID: a.contentId ?? '',
      Size: a.size,
    }));
}

export async function parseMessage(
  raw: Buffer,
  envelope: { From: string; To: string[] },
): Promise<StoredMessage> {
  const parsed = await simpleParser(raw);
  const created = new Date().toISOString();
  const text = parsed.text ?? '';
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  return {
    ID: newId(),
    MessageID: (parsed.messageId ?? '').replace(/^<|>$/g, ''),
    From: addresses(parsed.from)[0] ?? { Name: '', Address: envelope.From },
    To: addresses(parsed.to),
    Cc: addresses(parsed.cc),
    Bcc: addresses(parsed.bcc),
    ReplyTo: addresses(parsed.replyTo),
    ReturnPath: envelope.From,
    Subject: parsed.subject ?? '',
    Date: parsed.date ? parsed.date.toISOString() : created,
    Created: created,
    Text: text,
    HTML: html,
    Size: raw.length,
    Snippet: snippetOf(text || html.replace(/<[^>]*>/g, ' ')),
    Attachments: attachmentsOf(parsed, false),
    Inline: attachmentsOf(parsed, true),
    Headers: headerMap(parsed),
    Envelope: envelope,
    Read: false,
  };
}

function snippetOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 250 ? `${flat.slice(0, 250)}...` : flat;
}

export class MailStore {
  /** Oldest first (IDs are time-ordered). */
  private messages: StoredMessage[] = [];
  /** Raw messages when there is no folder (kept only while the process runs). */
  private readonly rawInMemory = new Map<string, Buffer>();

  constructor(private readonly dir?: string) {
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      this.load(dir);
    }
  }

  private load(dir: string): void {
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.json')) continue;
      try {
        const m = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as StoredMessage;
        if (typeof m.ID === 'string' && m.ID) this.messages.push(m);
      } catch {
        // a half-written or foreign file: skip it
      }
    }
    this.messages.sort((a, b) => (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0));
  }

  async add(raw: Buffer, envelope: { From: string; To: string[] }): Promise<StoredMessage> {
    const m = await parseMessage(raw, envelope);
    if (this.dir) {
      // .eml first, then the .json that makes the message visible after a restart.
      writeAtomic(path.join(this.dir, `${m.ID}.eml`), raw);
      writeAtomic(path.join(this.dir, `${m.ID}.json`), JSON.stringify(m));
    } else {
      this.rawInMemory.set(m.ID, raw);
    }
    this.messages.push(m);
    return m;
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

  get(id: string): StoredMessage | undefined {
    if (id === 'latest') return this.messages[this.messages.length - 1];
    return this.messages.find((m) => m.ID === id);
  }

  raw(id: string): Buffer | undefined {
    const m = this.get(id);
    if (!m) return undefined;
    if (this.dir) {
      try {
        return fs.readFileSync(path.join(this.dir, `${m.ID}.eml`));
      } catch {
        // fall through
      }
    }
    return this.rawInMemory.get(m.ID);
  }

  /** Deletes the given IDs, or everything when `ids` is undefined. Returns how many were deleted. */
  delete(ids?: readonly string[]): number {
    const doomed = ids ? new Set(ids) : undefined;
    const keep: StoredMessage[] = [];
    let deleted = 0;
    for (const m of this.messages) {
      if (doomed && !doomed.has(m.ID)) {
        keep.push(m);
        continue;
      }
      deleted++;
      this.rawInMemory.delete(m.ID);
      if (this.dir) {
        fs.rmSync(path.join(this.dir, `${m.ID}.json`), { force: true });
        fs.rmSync(path.join(this.dir, `${m.ID}.eml`), { force: true });
      }
    }
    this.messages = keep;
    return deleted;
  }

  get size(): number {
    return this.messages.length;
  }
}

function writeAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}
