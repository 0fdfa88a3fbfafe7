/**
 * The routing table of ARCHITECTURE.md: first match wins, so the specific lot sub-resources come
 * before the catalog's /lots.
 */
export const ServiceNames = ['auth', 'catalog', 'applications', 'media', 'notification'] as const;
export type ServiceName = (typeof ServiceNames)[number];

export const routes: readonly { pattern: RegExp; service: ServiceName }[] = [
  { pattern: /^\/api\/v1\/(auth|users)(\/|$)/, service: 'auth' },
  // partners (issue 44): agencies and invitations are users and roles; referrals beside applications
  { pattern: /^\/api\/v1\/(agencies|invitations)(\/|$)/, service: 'auth' },
  { pattern: /^\/api\/v1\/referrals(\/|$)/, service: 'applications' },
  {
    pattern: /^\/api\/v1\/lots\/[^/]+\/(applications-info|can-apply|wish-matches)\/?$/,
    service: 'applications',
  },
  { pattern: /^\/api\/v1\/lots\/[^/]+\/photos(\/|$)/, service: 'media' },
  // a donor's photo upload (the donation itself is the catalog's)
  { pattern: /^\/api\/v1\/donations\/[^/]+\/items\/[^/]+\/photos\/?$/, service: 'media' },
  { pattern: /^\/api\/v1\/(categories|lots|donations)(\/|$)/, service: 'catalog' },
  // the warehouse (issue 45): storage places, scans and label sheets (a lot's label is under /lots)
  { pattern: /^\/api\/v1\/(storage-places|scan)(\/|$)/, service: 'catalog' },
  { pattern: /^\/api\/v1\/labels\.pdf$/, service: 'catalog' },
  { pattern: /^\/api\/v1\/(applications|wishes)(\/|$)/, service: 'applications' },
  // handover (issue 29): locations, slots, the family's booking, the day plan
  { pattern: /^\/api\/v1\/(locations|slots|handovers)(\/|$)/, service: 'applications' },
  { pattern: /^\/api\/v1\/activity-logs(\/|$)/, service: 'notification' },
  // data protection: the notification service's mails and log entries; the rest is applications
  { pattern: /^\/api\/v1\/privacy\/records\/?$/, service: 'notification' },
  { pattern: /^\/api\/v1\/privacy(\/|$)/, service: 'applications' },
  { pattern: /^\/api\/v1\/impact(\/|$)/, service: 'notification' },
  // WhatsApp and SMS messages, and the providers' signed callbacks (issue 30)
  { pattern: /^\/api\/v1\/messages(\/|$)/, service: 'notification' },
  { pattern: /^\/media\//, service: 'media' },
];

export function serviceFor(pathname: string): ServiceName | undefined {
  return routes.find((r) => r.pattern.test(pathname))?.service;
}

/** Photo uploads: staff's for a lot, a donor's for a donated item (the upload body limit). */
export const isUploadPath = (pathname: string): boolean =>
  /^\/api\/v1\/(lots\/[^/]+|donations\/[^/]+\/items\/[^/]+)\/photos\/?$/.test(pathname);
