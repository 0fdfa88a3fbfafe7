// The mail catcher's HTML pages. Everything taken from a message is escaped; HTML bodies are
// shown in a sandboxed iframe (no scripts, no same-origin access) via an escaped srcdoc.
import type { MailAddress, StoredMessage } from './store';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function addr(a: MailAddress): string {
  return a.Name ? `${a.Name} <${a.Address}>` : a.Address;
}

function addrs(list: MailAddress[]): string {
  return list.map(addr).join(', ');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  tr.unread td { font-weight: 600; }
  .muted { color: #666; }
  pre { white-space: pre-wrap; background: #f6f6f6; padding: 1rem; }
  iframe { width: 100%; height: 60vh; border: 1px solid #ccc; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function renderList(messages: StoredMessage[]): string {
  const rows = messages
    .map(
      (m) => `<tr class="${m.Read ? '' : 'unread'}">
  <td class="muted">${escapeHtml(new Date(m.Created).toLocaleString('en-GB'))}</td>
  <td>${escapeHtml(addr(m.From))}</td>
  <td>${escapeHtml(addrs(m.To))}</td>
  <td><a href="/view/${encodeURIComponent(m.ID)}">${escapeHtml(m.Subject || '(no subject)')}</a>
    <div class="muted">${escapeHtml(m.Snippet.slice(0, 120))}</div></td>
</tr>`,
    )
    .join('\n');
  const table = messages.length
    ? `<table><thead><tr><th>Received</th><th>From</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No mail captured yet.</p>';
  return layout(
    `Captured mail (${messages.length})`,
    `<h1>Captured mail (${messages.length})</h1>
<p class="muted">Newest first. JSON API: <a href="/api/v1/messages">/api/v1/messages</a> (Mailpit-compatible subset).</p>
<form method="post" action="/delete-all"><button type="submit">Delete all</button></form>
${table}`,
  );
}

export function renderMessage(m: StoredMessage): string {
  const id = encodeURIComponent(m.ID);
  const meta: Array<[string, string]> = [
    ['From', addr(m.From)],
    ['To', addrs(m.To)],
    ['Cc', addrs(m.Cc)],
    ['Subject', m.Subject],
    ['Date', m.Date],
    ['Message-ID', m.MessageID],
    ['Envelope', `${m.Envelope.From} -> ${m.Envelope.To.join(', ')}`],
    [
      'Attachments',
      m.Attachments.map((a) => `${a.FileName} (${a.ContentType}, ${a.Size} bytes)`).join(', '),
    ],
  ];
  const rows = meta
    .filter(([, v]) => v)
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('\n');
  const html = m.HTML
    ? `<h2>HTML</h2>\n<iframe sandbox="" referrerpolicy="no-referrer" srcdoc="${escapeHtml(m.HTML)}"></iframe>`
    : '';
  const text = m.Text ? `<h2>Text</h2>\n<pre>${escapeHtml(m.Text)}</pre>` : '';
  return layout(
    m.Subject || '(no subject)',
    `<p><a href="/">&larr; all mail</a> · <a href="/api/v1/message/${id}">JSON</a> · <a href="/api/v1/message/${id}/raw">raw</a></p>
<h1>${escapeHtml(m.Subject || '(no subject)')}</h1>
<table>${rows}</table>
${html}
${text}`,
  );
}
