import { AppError } from '../src/app-error';
import { TokenVerifier } from '../src/auth';
import { TEST_AUDIENCE, TEST_ISSUER, signTestToken, testKeys } from '../src/testing';

/** The verifier remembers a token it checked (issue 16); expiry and revocation still apply. */
describe('TokenVerifier', () => {
  const revoked = new Set<string>();
  const verifier = () =>
    new TokenVerifier({
      publicKey: testKeys().publicKey,
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      isRevoked: ({ sessionId }) => revoked.has(sessionId),
    });
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof AppError ? err.code : String(err);
    }
    return 'no error';
  };
  afterEach(() => jest.useRealTimers());

  test('when a checked token is asked again, then the same actor, and a copy a caller cannot spoil', () => {
    const v = verifier();
    const token = signTestToken({ id: 7, role: 'volunteer', sid: 'sid-7' });
    const first = v.verify(token);
    first.role = 'admin';
    expect(v.verify(token)).toMatchObject({ id: 7, role: 'volunteer', sessionId: 'sid-7' });
  });

  test('when a remembered token expires, then TOKEN_EXPIRED as without the memory', () => {
    const v = verifier();
    const token = signTestToken({ id: 8, role: 'admin' }, { expiresInSeconds: 60 });
    expect(v.verify(token).id).toBe(8);
    jest.useFakeTimers({ now: Date.now() + 61_000 });
    expect(codeOf(() => v.verify(token))).toBe('TOKEN_EXPIRED');
    expect(codeOf(() => v.verify(token))).toBe('TOKEN_EXPIRED');
  });

  test('when the session of a remembered token is revoked, then TOKEN_INVALID', () => {
    const v = verifier();
    const token = signTestToken({ id: 9, role: 'admin', sid: 'sid-9' });
    expect(v.verify(token).id).toBe(9);
    revoked.add('sid-9');
    expect(codeOf(() => v.verify(token))).toBe('TOKEN_INVALID');
  });

  test('when a token is forged, then TOKEN_INVALID every time (nothing remembered)', () => {
    const v = verifier();
    const token = signTestToken({ id: 10, role: 'admin' });
    const forged = `${token.slice(0, -4)}AAAA`;
    expect(codeOf(() => v.verify(forged))).toBe('TOKEN_INVALID');
    expect(codeOf(() => v.verify(forged))).toBe('TOKEN_INVALID');
  });
});
