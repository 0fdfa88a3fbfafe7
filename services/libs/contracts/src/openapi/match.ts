/**
 * Which documented operation answers a request: the path templates of the document matched
 * segment by segment, the most literal one winning (/lots/count before /lots/{id}), as the
 * services' routers and the gateway's table order them. A trailing slash is optional.
 */
export interface OperationMatch {
  /** the document's path template, e.g. /api/v1/lots/{id} */
  template: string;
  /** lower-case method as the document keys it (HEAD is answered as GET) */
  method: string;
  /** the operation object, or undefined when the path is documented but not for this method */
  operation: Record<string, unknown> | undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function segments(path: string): string[] {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return trimmed.split('/').slice(1);
}

export function matchOperation(
  paths: Record<string, Record<string, unknown>>,
  method: string,
  pathname: string,
): OperationMatch | undefined {
  const want = segments(pathname);
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(paths)) {
    const parts = segments(template);
    if (parts.length !== want.length) continue;
    let literals = 0;
    const matches = parts.every((part, i) => {
      if (/^\{[^}]+\}$/.test(part)) return want[i] !== '';
      literals += 1;
      return part === want[i];
    });
    if (matches && (!best || literals > best.literals)) best = { template, literals };
  }
  if (!best) return undefined;
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const item = paths[best.template]!;
  const operation = METHODS.includes(m)
    ? (item[m] as Record<string, unknown> | undefined)
    : undefined;
  return { template: best.template, method: m, operation };
}
