import { createHmac } from 'node:crypto';
import { twilioSignature, whatsappSignature } from '../src/messages/signatures';

describe("the providers' webhook signatures", () => {
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';

  it("Twilio's: the documented example (auth token 12345) gives the documented signature", () => {
    // twilio.com/docs/usage/webhooks/webhooks-security, the current and an earlier edition
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    const earlier = { ...params, Caller: '+14158675310', From: '+14158675310' };
    expect(twilioSignature('12345', url, earlier)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it("Twilio's: the parameters are signed sorted by name, whatever their order", () => {
    const a = twilioSignature('token', url, { To: '+4915112345678', Body: 'STOP' });
    const b = twilioSignature('token', url, { Body: 'STOP', To: '+4915112345678' });
    expect(a).toBe(b);
    expect(twilioSignature('token', url, { Body: 'START', To: '+4915112345678' })).not.toBe(a);
    expect(twilioSignature('other', url, { Body: 'STOP', To: '+4915112345678' })).not.toBe(a);
  });

  it("Meta's: sha256= and the hex HMAC-SHA256 of the raw body with the app secret", () => {
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    expect(whatsappSignature('secret', body)).toBe(
      `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`,
    );
    expect(whatsappSignature('secret', Buffer.from(body))).toBe(whatsappSignature('secret', body));
  });
});
