/**
 * Lookups by phone number are limited per client address in this service's database (issue 14),
 * so the budget is one for every replica (the gateway's own limit is per replica, in memory).
 * Staff are not limited; a lot page without a phone is not a lookup.
 */
import { adminToken, startApplications, type ApplicationsHarness } from './harness';

let a: ApplicationsHarness;
beforeAll(async () => {
  a = await startApplications({ env: { PHONE_LOOKUPS_PER_IP: '4' } });
});
afterAll(async () => {
  await a?.stop();
});

const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const checkStatus = (phone: string, ip: string, token?: string) =>
  a.http.get(`/api/v1/applications/public/check-status/${encodeURIComponent(phone)}`, {
    ...from(ip),
    token,
  });

test('when one address looks up phone numbers, then the fifth lookup is refused with 429, counted in the database; staff and lookups without a phone are not counted', async () => {
  const ip = '198.51.100.9';
  const statuses = [
    (await checkStatus('+4917611111111', ip)).status,
    (await a.http.get('/api/v1/lots/1/can-apply?phone=%2B4917611111112', from(ip))).status,
    (await a.http.get('/api/v1/lots/1/applications-info?phone=%2B4917611111113', from(ip))).status,
    // no phone: the lot page's queue panel, not a lookup
    (await a.http.get('/api/v1/lots/1/applications-info', from(ip))).status,
    (await checkStatus('+4917611111114', ip)).status,
  ];
  expect(statuses.every((s) => s !== 429)).toBe(true);
  const counted = await a.conn.collection('phone_lookups').findOne({ key: { $regex: ip } });
  expect(counted?.points).toBe(4);

  const refused = await checkStatus('+4917611111115', ip);
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', retry_after: expect.any(Number) });

  // another address has its own budget; staff look up by phone as their work needs
  expect((await checkStatus('+4917611111116', '198.51.100.10')).status).not.toBe(429);
  expect((await checkStatus('+4917611111117', ip, adminToken())).status).not.toBe(429);
});
