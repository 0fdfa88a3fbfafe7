import { Events } from '@furniture/contracts';
import { changesOf } from '../src/changes';
import { createEvent } from '../src/messaging/events';
import { RevokedTokens } from '../src/revocations';

/** A user.updated event as the auth service writes it (users-service.ts, records.ts). */
const updated = (set: Record<string, unknown>) =>
  createEvent(
    Events.UserUpdated,
    {
      user: { id: 7, name: 'Vera', email: 'vera@example.org', role: 'volunteer' },
      changes: changesOf(
        { name: 'Vera', role: 'volunteer', password_hash: 'old' },
        set,
        Object.keys(set) as never,
        {
          masked: ['password_hash'],
        },
      ),
    },
    null,
  );

const tokenBefore = { sessionId: 's1', userId: 7, issuedAt: Math.floor(Date.now() / 1000) - 60 };

test.each([
  ['a new password (an admin or the admin command line set it)', true, { password_hash: 'new' }],
  ['a new role', true, { role: 'admin' }],
  ['a new name', false, { name: 'Vera K.' }],
])('when a user gets %s, then their earlier tokens are refused: %s', (_what, revoked, set) => {
  const tokens = new RevokedTokens();
  tokens.apply(updated(set));
  expect(tokens.isRevoked(tokenBefore)).toBe(revoked);
});
