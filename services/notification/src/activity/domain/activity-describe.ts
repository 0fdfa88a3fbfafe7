import type { ActionType, ActivityLogEntry, Role, TargetType } from '@furniture/contracts';

/** German words of the CSV export (the back-office is German; the spec's display labels). */
export const ActionLabelsDe: Record<ActionType, string> = {
  LOGIN: 'Anmeldung',
  LOGOUT: 'Abmeldung',
  PASSWORD_CHANGE: 'Passwort geändert',
  CREATE: 'Erstellt',
  UPDATE: 'Geändert',
  DELETE: 'Gelöscht',
  APPROVE: 'Genehmigt',
  APPROVAL_FAILED: 'Genehmigung nicht möglich',
  REJECT: 'Abgelehnt',
  STATUS_CHANGE: 'Status geändert',
  CONTACT: 'Kontaktiert',
  NOTE_ADD: 'Notiz hinzugefügt',
  COMPLETE: 'Abgeschlossen',
  CANCEL_RESERVATION: 'Reservierung aufgehoben',
  RECONSIDER: 'Erneut geprüft',
  PHOTO_UPLOAD: 'Foto hochgeladen',
  PHOTO_DELETE: 'Foto gelöscht',
  PICKUP_EXTEND: 'Abholfrist geändert',
  PICKUP_REMINDER: 'An Abholung erinnert',
  PICKUP_OVERDUE: 'Abholfrist überschritten',
  NEXT_IN_QUEUE: 'Der nächsten Familie angeboten',
  EXPORT: 'Export',
  IMPORT: 'Import',
  ERASE: 'Personenbezogene Daten gelöscht',
  HANDOVER_BOOK: 'Übergabetermin gebucht',
  HANDOVER_CANCEL: 'Übergabetermin abgesagt',
  HANDOVER_DONE: 'Übergabe erledigt',
  HANDOVER_ABSENT: 'Nicht angetroffen',
  LOT_MOVE: 'Umgelagert',
  HANDOVER_ITEM_CHECK: 'Artikel bei der Übergabe gescannt',
  MESSAGE_OPT_OUT: 'Nachrichten abbestellt',
  MESSAGE_BUDGET_WARNING: 'Nachrichtenbudget zu 80 % verbraucht',
  MESSAGE_FAILED: 'Nachricht nicht zustellbar',
  INVITE: 'Vermittler/in eingeladen',
  REFER: 'Familie vermittelt',
};

export const TargetLabelsDe: Record<TargetType, string> = {
  category: 'Kategorie',
  lot: 'Lot',
  application: 'Bewerbung',
  user: 'Benutzer',
  wish: 'Wunsch',
  donation: 'Spende',
  agency: 'Partnerorganisation',
  system: 'System',
};

export const RoleLabelsDe: Record<Role, string> = {
  admin: 'Administrator',
  volunteer: 'Freiwilliger',
  referrer: 'Vermittler/in',
};

const StatusLabelsDe: Record<string, string> = {
  // applications
  pending: 'Ausstehend',
  approved: 'Genehmigt',
  rejected: 'Abgelehnt',
  completed: 'Abgeschlossen',
  // lots
  available: 'Verfügbar',
  reserved: 'Reserviert',
  transferred: 'Übertragen',
  taken: 'Übernommen',
  archived: 'Archiviert',
  // wishes
  active: 'Aktiv',
  fulfilled: 'Erfüllt',
  cancelled: 'Storniert',
  // donations (cancelled as above)
  submitted: 'Eingegangen',
  accepted: 'Angenommen',
  declined: 'Abgelehnt',
  collected: 'Abgeholt',
  expired: 'Abgelaufen',
};

const ReasonLabelsDe: Record<string, string> = {
  competitor_approved: 'andere Bewerbung genehmigt',
  reservation_failed: 'Lot konnte nicht reserviert werden',
  lot_closed: 'Lot nicht mehr verfügbar',
  lot_deleted: 'Lot gelöscht',
  reservation_cancelled: 'Reservierung einer anderen Bewerbung aufgehoben',
  pickup_lapsed: 'Abholfrist abgelaufen',
  referral_expired: 'Vermittlung abgelaufen',
  request: 'auf Anfrage der Familie',
  retention: 'Aufbewahrungsfrist abgelaufen',
  not_available: 'Lot nicht verfügbar',
  not_found: 'Lot existiert nicht mehr',
};

/** A handover's slot kind, who booked or gave it back, a stop's outcome (issue 29). */
const HandoverLabelsDe: Record<string, string> = {
  pickup: 'Abholung',
  delivery: 'Lieferung',
  donor_pickup: 'Abholung beim Spender',
  family: 'durch die Familie',
  staff: 'durch das Team',
  system: 'automatisch (Bewerbung beendet)',
  missed: 'Termin ohne Rückmeldung verstrichen',
};
const handoverLabel = (v: unknown) => (typeof v === 'string' ? (HandoverLabelsDe[v] ?? v) : '');

/** "2026-12-01" as "01.12.2026". */
const germanDay = (day: string) => day.split('-').reverse().join('.');

const status = (s: unknown) => (typeof s === 'string' ? (StatusLabelsDe[s] ?? s) : '');

function nameOf(d: Record<string, unknown>): string | undefined {
  for (const key of ['name', 'lot_name']) {
    const v = d[key] as { de?: unknown; uk?: unknown } | undefined;
    const names = v && typeof v === 'object' ? [v.de, v.uk] : [v];
    const name = names.find((n): n is string => typeof n === 'string' && n !== '');
    if (name) return name;
  }
  return undefined;
}

function short(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** What the scan at a handover found (issue 45): the booked lot, or which other one. */
function itemCheckDe(d: Record<string, unknown>): string {
  const code = `Code ${String(d.code)}`;
  if (d.match === true) return `richtiger Artikel (${code})`;
  const scanned =
    typeof d.scanned_lot_id === 'number'
      ? `Lot #${d.scanned_lot_id} „${nameOf({ name: d.scanned_lot_name }) ?? ''}“`
      : 'kein Lot';
  return d.confirmed === true
    ? `Abweichung bestätigt: ${scanned} statt des gebuchten Lots (${code})`
    : `falscher Artikel gescannt: ${scanned} (${code})`;
}

/** One German sentence of what happened, as the back-office's log shows it. */
export function describeDe(e: ActivityLogEntry): string {
  const target = `${TargetLabelsDe[e.target_type]}${e.target_id !== null ? ` #${e.target_id}` : ''}`;
  const parts = [`${ActionLabelsDe[e.action_type]}: ${target}`];
  if (typeof e.details === 'string') return `${parts[0]} – ${e.details}`;
  const d = e.details ?? {};
  const name = nameOf(d);
  if (name) parts.push(`„${name}“`);
  if (typeof d.applicant_name === 'string') parts.push(`Antragsteller: ${d.applicant_name}`);
  if (typeof d.donor_name === 'string') parts.push(`Spender: ${d.donor_name}`);
  if (typeof d.user_name === 'string' && e.target_type === 'user') parts.push(d.user_name);
  if (d.old_status !== undefined && d.new_status !== undefined)
    parts.push(`${status(d.old_status)} → ${status(d.new_status)}`);
  else if (d.new_status !== undefined) parts.push(`Status: ${status(d.new_status)}`);
  if (typeof d.reason === 'string' && ReasonLabelsDe[d.reason])
    parts.push(`Grund: ${ReasonLabelsDe[d.reason]}`);
  // a donation's reason is the staff's own words (a decline's, told to the donor)
  else if (typeof d.reason === 'string' && d.reason && e.target_type === 'donation')
    parts.push(`Grund: ${d.reason}`);
  if (e.target_type === 'donation' && typeof d.lot_id === 'number')
    parts.push(`Lot #${d.lot_id} aus Möbelstück #${String(d.item_id)}`);
  if (d.old_value && d.new_value && typeof d.new_value === 'object') {
    const old = d.old_value as Record<string, unknown>;
    const changes = Object.entries(d.new_value as Record<string, unknown>).map(
      ([field, value]) => `${field}: ${short(old[field])} → ${short(value)}`,
    );
    if (changes.length > 0) parts.push(`Änderungen: ${changes.join('; ')}`);
  }
  if (typeof d.handover_id === 'number') {
    if (d.kind !== undefined) parts.push(handoverLabel(d.kind));
    if (typeof d.location === 'string') parts.push(`Ort: ${d.location}`);
    if (d.by !== undefined) parts.push(handoverLabel(d.by));
    if (d.outcome === 'missed') parts.push(handoverLabel(d.outcome));
  }
  if (e.action_type === 'LOT_MOVE')
    parts.push(`Lagerplatz: ${short(d.from_place ?? '—')} → ${short(d.to_place ?? '—')}`);
  if (e.action_type === 'HANDOVER_ITEM_CHECK') parts.push(itemCheckDe(d));
  if (typeof d.queue_position === 'number')
    parts.push(`Platz in der Warteschlange: ${d.queue_position}`);
  if (typeof d.photo_id === 'number') parts.push(`Foto #${d.photo_id}`);
  if (typeof d.note === 'string' && d.note) parts.push(`Notiz: ${d.note}`);
  if (typeof d.rows === 'number') parts.push(`${d.rows} Zeilen`);
  if (typeof d.pickup_by === 'string') parts.push(`Abholung bis ${germanDay(d.pickup_by)}`);
  return parts.join(', ');
}
