import { ProviderError } from '../domain/message-types';

/** One request to a provider; a network failure or timeout is `unreachable`. */
export async function providerFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new ProviderError(
      `provider unreachable: ${cause ?? (err as Error).name ?? 'network error'}`,
      'unreachable',
    );
  }
  let text = '';
  try {
    text = await res.text();
  } catch {
    throw new ProviderError('provider unreachable: the answer broke off', 'unreachable');
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/** Resolves when the provider answers at all (any HTTP status). */
export async function probeUrl(url: string, timeoutMs: number): Promise<void> {
  const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
  await res.body?.cancel().catch(() => undefined);
}
