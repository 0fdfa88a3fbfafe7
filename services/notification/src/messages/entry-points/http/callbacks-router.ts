import { Router, type Request } from 'express';
import { whatsappVerifyQuerySchema } from '@furniture/contracts';
import { AppError, input } from '@furniture/platform';
import type { MessageService } from '../../domain/message-service';

/** The body exactly as it arrived (the app keeps it for these routes: app.ts). */
function rawOf(req: Request): Buffer {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (Buffer.isBuffer(raw)) return raw;
  if (Buffer.isBuffer(req.body)) return req.body;
  throw new AppError('BAD_REQUEST');
}

const header = (req: Request, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * /api/v1/messages/callbacks (no login: the providers call; each request signed over its raw
 * body, a bad signature refused with 403 and a log line).
 */
export function callbacksRouter(messages: MessageService): Router {
  const r = Router();

  r.get('/whatsapp', (req, res) => {
    const q = input.query(req, whatsappVerifyQuerySchema);
    const challenge = messages.verifyWebhook(
      q['hub.mode'],
      q['hub.verify_token'],
      q['hub.challenge'],
    );
    res.type('text/plain').send(challenge);
  });

  r.post('/whatsapp', async (req, res) => {
    await messages.callback('whatsapp', rawOf(req), header(req, 'x-hub-signature-256'));
    res.json({ success: true });
  });

  r.post('/sms', async (req, res) => {
    await messages.callback('sms', rawOf(req), header(req, 'x-twilio-signature'));
    res.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });

  return r;
}
