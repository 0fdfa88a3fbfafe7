import { Router } from 'express';
import {
  applicationCreateSchema,
  applicationNoteSchema,
  applicationStatsQuerySchema,
  applicationStatusUpdateSchema,
  applicationsQuerySchema,
  idParamSchema,
  lapseSchema,
  limitSkipQuerySchema,
  pickupUpdateSchema,
  phoneParamSchema,
  prepareMessageSchema,
} from '@furniture/contracts';
import {
  AppError,
  input,
  phoneFields,
  requestLanguage,
  requireStaff,
  takeWrite,
  type WriteLimits,
} from '@furniture/platform';
import type { MessageRequests } from '../../domain/message-requests';
import type { Moderation } from '../../domain/moderation';
import type { PublicApplications } from '../../domain/public-applications';
import { honeypotFilled } from './input-helpers';

/**
 * The Idempotency-Key a browser sends with a submission (one per filled form): a resend after a
 * lost answer (a timeout, a 503 while the service restarted) gets the first answer again.
 */
function idempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^[\w-]{1,100}$/.test(value)) throw new AppError('INVALID_IDEMPOTENCY_KEY');
  return value;
}

/** /api/v1/applications: the public submit and status check, and the staff calls. */
export function applicationsRouter(deps: {
  publicApplications: PublicApplications;
  moderation: Moderation;
  messageRequests: MessageRequests;
  writeLimits?: WriteLimits;
}): Router {
  const { publicApplications, moderation, writeLimits } = deps;
  const r = Router();

  // ---- public --------------------------------------------------------------------------------

  r.post('/', async (req, res) => {
    const requestKey = idempotencyKey(req.headers['idempotency-key']);
    const body = input.body(req, applicationCreateSchema);
    const phones = phoneFields(req, 'body', {
      applicant_phone: { value: body.applicant_phone, key: 'invalid_phone' },
      applicant_whatsapp: { value: body.applicant_whatsapp, key: 'invalid_whatsapp' },
    });
    const created = await publicApplications.submit({
      lot_id: body.lot_id,
      applicant_name: body.applicant_name,
      phone: phones.applicant_phone!,
      applicant_whatsapp: phones.applicant_whatsapp?.e164 ?? null,
      applicant_email: body.applicant_email,
      applicant_city: body.applicant_city,
      applicant_address: body.applicant_address,
      needs_delivery_help: body.needs_delivery_help,
      language: body.language ?? requestLanguage(req),
      honeypot: honeypotFilled(body.website),
      request_key: requestKey,
      admit: () => takeWrite(writeLimits, req, phones.applicant_phone!.e164),
    });
    res.status(201).json(created);
  });

  r.get('/public/check-status/:phone', async (req, res) => {
    const { phone } = input.params(req, phoneParamSchema);
    const e164 = phoneFields(req, 'path', { phone: { value: phone, key: 'invalid_phone' } }).phone!;
    res.json(await publicApplications.statusCheck(e164.e164));
  });

  // ---- staff ---------------------------------------------------------------------------------

  r.get('/', requireStaff, async (req, res) => {
    res.json(await moderation.list(input.query(req, applicationsQuerySchema)));
  });

  r.get('/stats', requireStaff, async (req, res) => {
    const { lot_ids } = input.query(req, applicationStatsQuerySchema);
    res.json(await moderation.stats(lot_ids));
  });

  r.get('/by-phone/:phone', requireStaff, async (req, res) => {
    const { phone } = input.params(req, phoneParamSchema);
    const { limit, skip } = input.query(req, limitSkipQuerySchema);
    const e164 = phoneFields(req, 'path', { phone: { value: phone, key: 'invalid_phone' } }).phone!;
    res.json(await moderation.list({ phone: e164.e164, limit, skip }));
  });

  r.get('/:id', requireStaff, async (req, res) => {
    res.json(await moderation.get(input.params(req, idParamSchema).id));
  });

  r.patch('/:id/status', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const body = input.body(req, applicationStatusUpdateSchema);
    const { application, accepted } = await moderation.changeStatus(req.actor!, id, body);
    // an approval is requested, not done: 202 until the catalog has reserved the lot
    res.status(accepted ? 202 : 200).json(application);
  });

  r.patch('/:id/pickup', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await moderation.changePickup(req.actor!, id, input.body(req, pickupUpdateSchema)));
  });

  r.post('/:id/lapse', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await moderation.lapse(req.actor!, id, input.body(req, lapseSchema)));
  });

  r.patch('/:id/notes', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await moderation.addNote(req.actor!, id, input.body(req, applicationNoteSchema)));
  });

  // a prepared WhatsApp/SMS message (issue 30): on its way once the note and event are stored
  r.post('/:id/messages', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const { template } = input.body(req, prepareMessageSchema);
    await deps.messageRequests.forApplication(req.actor!, id, template);
    res.status(202).json({ requested: true });
  });

  return r;
}
