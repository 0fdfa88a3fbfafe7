import { Router } from 'express';
import {
  idParamSchema,
  wishCreateSchema,
  wishStatusBodySchema,
  wishStatusQuerySchema,
  wishesQuerySchema,
  wishNotifySchema,
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
import type { WishesService } from '../../domain/wishes-service';
import { honeypotFilled, localizedField } from './input-helpers';

/** /api/v1/wishes: anyone sends a wish; staff list, read and change them. */
export function wishesRouter(
  wishes: WishesService,
  messageRequests: MessageRequests,
  writeLimits?: WriteLimits,
): Router {
  const r = Router();

  r.post('/', async (req, res) => {
    const body = input.body(req, wishCreateSchema);
    const { applicant_whatsapp } = phoneFields(req, 'body', {
      applicant_whatsapp: { value: body.applicant_whatsapp, key: 'invalid_whatsapp' },
    });
    await takeWrite(writeLimits, req, applicant_whatsapp!.e164);
    const created = await wishes.create({
      applicant_name: body.applicant_name,
      whatsapp: applicant_whatsapp!,
      applicant_email: body.applicant_email,
      furniture_category: body.furniture_category,
      furniture_description: body.furniture_description,
      language: body.language ?? requestLanguage(req),
      honeypot: honeypotFilled(body.website),
    });
    res.status(201).json(created);
  });

  r.get('/', requireStaff, async (req, res) => {
    res.json(await wishes.list(input.query(req, wishesQuerySchema)));
  });

  r.get('/:id', requireStaff, async (req, res) => {
    res.json(await wishes.detail(input.params(req, idParamSchema).id));
  });

  // the spec sends the status as ?status=; the notes travel in the body
  r.patch('/:id/status', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const query = input.query(req, wishStatusQuerySchema);
    const body = input.body(req, wishStatusBodySchema);
    const status = query.status ?? body.status;
    if (!status) {
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [localizedField(req, ['query', 'status'], 'required')],
      });
    }
    const notes = body.admin_notes !== undefined ? body.admin_notes : body.notes;
    res.json(await wishes.changeStatus(req.actor!, id, { status, admin_notes: notes }));
  });

  r.post('/:id/notify', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await wishes.notify(req.actor!, id, input.body(req, wishNotifySchema)));
  });

  // a prepared WhatsApp/SMS message to the wish's family (issue 30)
  r.post('/:id/messages', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const { template } = input.body(req, prepareMessageSchema);
    await messageRequests.forWish(req.actor!, id, template);
    res.status(202).json({ requested: true });
  });

  return r;
}
