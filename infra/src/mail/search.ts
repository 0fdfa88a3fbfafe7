// A subset of Mailpit's search syntax: space-separated terms, all of which must match.
//   to:addr  from:addr  cc:addr  subject:word  message-id:id  "quoted phrase"  plain words
// A leading "-" or "!" negates a term. Matching is case-insensitive substring matching.
import type { MailAddress, StoredMessage } from './store';

interface Term {
  field: string | undefined;
  value: string;
  negate: boolean;
}

const TERM = /(-|!)?(?:([a-z-]+):)?(?:"([^"]*)"|(\S+))/gi;

export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  for (const m of query.matchAll(TERM)) {
    const value = (m[3] ?? m[4] ?? '').toLowerCase();
    if (!value) continue;
    terms.push({ negate: Boolean(m[1]), field: m[2]?.toLowerCase(), value });
  }
  return terms;
}

function addressText(list: MailAddress[]): string {
  return list
    .map((a) => `${a.Name} <${a.Address}>`)
    .join(', ')
    .toLowerCase();
}

function matchesTerm(m: StoredMessage, t: Term): boolean {
  switch (t.field) {
    case 'to':
      return (
        addressText(m.To).includes(t.value) ||
        m.Envelope.To.some((a) => a.toLowerCase().includes(t.value))
      );
    case 'from':
      return addressText([m.From]).includes(t.value);
    case 'cc':
      return addressText(m.Cc).includes(t.value);
    case 'bcc':
      return addressText(m.Bcc).includes(t.value);
    case 'subject':
      return m.Subject.toLowerCase().includes(t.value);
    case 'message-id':
      return m.MessageID.toLowerCase().includes(t.value);
    case undefined:
      return [m.Subject, m.Text, addressText([m.From]), addressText(m.To), addressText(m.Cc)].some(
        (s) => s.toLowerCase().includes(t.value),
      );
    default:
      // Unknown field ("is:read", "tag:x" …): treat "field:value" as free text, as Mailpit does.
      return matchesTerm(m, { field: undefined, value: `${t.field}:${t.value}`, negate: false });
  }
}

export function matcher(query: string): (m: StoredMessage) => boolean {
  const terms = parseQuery(query);
  return (m) => terms.every((t) => matchesTerm(m, t) !== t.negate);
}
