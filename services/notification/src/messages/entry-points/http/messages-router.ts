import { Router, type Request } from 'express';
import {
  failedMessagesQuerySchema,
  messageIdParamSchema,
  messageThreadQuerySchema,
  optOutChangeSchema,
  optOutLookupSchema,
} from '@furniture/contracts';
import { input, phoneFields, requireStaff } from '@furniture/platform';
import type { MessageService } from '../../domain/message-service';

const e164Of = (req: Request, phone: string): string =>
  phoneFields(req, 'body', { phone: { value: phone, key: 'invalid_phone' } }).phone!.e164;

/**
 * /api/v1/messages (staff: admin and volunteer): a thread's messages, the parked ones, the
 * channels' state, a resend, and the opt-outs of a number (in the body, never in the URL).
 */
export function messagesRouter(messages: MessageService): Router {
  const r = Router();

  r.get('/', requireStaff, async (req, res) => {
    const data = await messages.thread(input.query(req, messageThreadQuerySchema));
    res.json({ success: true, data });
  });

  r.get('/failed', requireStaff, async (req, res) => {
    const q = input.query(req, failedMessagesQuerySchema);
    res.json({ success: true, data: await messages.failed(q.page, q.limit) });
  });

  r.get('/status', requireStaff, async (_req, res) => {
    res.json({ success: true, data: await messages.status() });
  });

  r.post('/opt-outs/lookup', requireStaff, async (req, res) => {
    const { phone } = input.body(req, optOutLookupSchema);
    res.json({ success: true, data: await messages.optOutState(e164Of(req, phone)) });
  });

  r.put('/opt-outs', requireStaff, async (req, res) => {
    const body = input.body(req, optOutChangeSchema);
    const e164 = e164Of(req, body.phone);
    res.json({
      success: true,
      data: await messages.setOptOut(req.actor!, e164, body.channel, body.opted_out),
    });
  });

  r.post('/:id/resend', requireStaff, async (req, res) => {
    const { id } = input.params(req, messageIdParamSchema);
    res
      .status(202)
      .json({ success: true, data: { message: await messages.resend(id, req.actor!) } });
  });

  return r;
}
