// Wiring the messages stand-in into a local platform (make run, test setup, browser tests): the
// notification service's provider settings pointing at it, and its webhooks at the gateway.
import type { MessagesStandIn } from '../messages-standin';
import type { MessagesCredentials } from '../run/keys';

/** The notification service's provider settings the stand-in fills in. */
export const MESSAGES_PROVIDER_ENV_KEYS = [
  'WHATSAPP_API_URL',
  'WHATSAPP_TOKEN',
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_BUSINESS_ACCOUNT_ID',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'SMS_API_URL',
  'SMS_ACCOUNT_SID',
  'SMS_AUTH_TOKEN',
  'SMS_FROM',
] as const;

export type MessagesProviderEnv = Record<(typeof MESSAGES_PROVIDER_ENV_KEYS)[number], string>;

/** The provider settings set in `env` (a real provider configured by hand: no stand-in then). */
export function configuredProviderKeys(env: NodeJS.ProcessEnv = process.env): string[] {
  return MESSAGES_PROVIDER_ENV_KEYS.filter((key) => Boolean(env[key]?.trim()));
}

export function messagesProviderEnv(
  standIn: Pick<MessagesStandIn, 'whatsappApiUrl' | 'smsApiUrl'>,
  c: MessagesCredentials,
): MessagesProviderEnv {
  return {
    WHATSAPP_API_URL: standIn.whatsappApiUrl,
    WHATSAPP_TOKEN: c.whatsappToken,
    WHATSAPP_PHONE_NUMBER_ID: c.whatsappPhoneNumberId,
    WHATSAPP_BUSINESS_ACCOUNT_ID: c.whatsappBusinessAccountId,
    WHATSAPP_APP_SECRET: c.whatsappAppSecret,
    WHATSAPP_VERIFY_TOKEN: c.whatsappVerifyToken,
    SMS_API_URL: standIn.smsApiUrl,
    SMS_ACCOUNT_SID: c.smsAccountSid,
    SMS_AUTH_TOKEN: c.smsAuthToken,
    SMS_FROM: c.smsFrom,
  };
}

/** The stand-in's options for these credentials. */
export function standInSettings(c: MessagesCredentials): {
  whatsapp: {
    token: string;
    phoneNumberId: string;
    businessAccountId: string;
    appSecret: string;
  };
  sms: { accountSid: string; authToken: string; number: string };
} {
  return {
    whatsapp: {
      token: c.whatsappToken,
      phoneNumberId: c.whatsappPhoneNumberId,
      businessAccountId: c.whatsappBusinessAccountId,
      appSecret: c.whatsappAppSecret,
    },
    sms: { accountSid: c.smsAccountSid, authToken: c.smsAuthToken, number: c.smsFrom },
  };
}

/** Where the gateway takes the providers' callbacks (contracts: messages routes). */
export function gatewayCallbackUrls(gatewayUrl: string): { whatsapp: string; sms: string } {
  const base = gatewayUrl.replace(/\/$/, '');
  return {
    whatsapp: `${base}/api/v1/messages/callbacks/whatsapp`,
    sms: `${base}/api/v1/messages/callbacks/sms`,
  };
}

/**
 * Points the stand-in's webhooks at the gateway and answers the notification service's settings:
 * the provider settings plus MESSAGES_CALLBACK_BASE_URL (where it tells SMS status callbacks to go).
 */
export function wireToGateway(
  standIn: Pick<MessagesStandIn, 'whatsappApiUrl' | 'smsApiUrl' | 'setWebhookUrls'>,
  c: MessagesCredentials,
  gatewayUrl: string,
): Record<string, string> {
  standIn.setWebhookUrls(gatewayCallbackUrls(gatewayUrl));
  return {
    ...messagesProviderEnv(standIn, c),
    MESSAGES_CALLBACK_BASE_URL: gatewayUrl.replace(/\/$/, ''),
  };
}
