// The providers' webhook signatures, as their documentation describes them:
// - Meta (WhatsApp Cloud API): X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>
// - Twilio: X-Twilio-Signature: base64(HMAC-SHA1(auth token, full URL + each POST parameter's
//   name and value, sorted by name)).
import { createHmac } from 'node:crypto';

export function whatsappSignature(appSecret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}
