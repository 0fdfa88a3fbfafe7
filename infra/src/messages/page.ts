// The stand-in's page: captured WhatsApp and SMS messages, newest first. Everything is escaped.
import type { Channel, StoredMessage } from './store';

/** For text inside HTML and attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderPage(messages: StoredMessage[], down: ReadonlySet<Channel>): string {
  const rows = messages
    .map(
      (m) => `<tr>
  <td class="muted">${escapeHtml(new Date(m.created_at).toLocaleString('de-DE'))}</td>
  <td>${m.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'}</td>
  <td>${escapeHtml(m.to)}</td>
  <td>${escapeHtml(m.language ?? '')}</td>
  <td>${escapeHtml(m.template ?? '')}</td>
  <td class="status-${escapeHtml(m.status)}">${escapeHtml(m.status)}${m.errorCode ? ` (${m.errorCode})` : ''}</td>
  <td><pre>${escapeHtml(m.text)}</pre></td>
</tr>`,
    )
    .join('\n');
  const state = (['whatsapp', 'sms'] as const)
    .map((c) => `${c === 'whatsapp' ? 'WhatsApp' : 'SMS'}: ${down.has(c) ? 'down' : 'up'}`)
    .join(' · ');
  const table = messages.length
    ? `<table><thead><tr><th>Time</th><th>Channel</th><th>To</th><th>Lang</th><th>Template</th><th>Status</th><th>Text</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No messages captured yet.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Captured messages (${messages.length})</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  .muted { color: #666; }
  pre { white-space: pre-wrap; margin: 0; font-family: inherit; }
  .status-failed, .status-undelivered { color: #b00020; font-weight: 600; }
  .status-read, .status-delivered { color: #1b5e20; }
</style>
</head>
<body>
<h1>Captured messages (${messages.length})</h1>
<p class="muted">WhatsApp Cloud API and Twilio-compatible SMS stand-in. Newest first. ${escapeHtml(state)}.
JSON: <a href="/api/messages">/api/messages</a>, templates: <a href="/api/templates">/api/templates</a>.</p>
<form method="post" action="/delete-all"><button type="submit">Delete all</button></form>
${table}
</body>
</html>
`;
}
