/**
 * Checks an HTTP answer against the OpenAPI document generated from the contracts
 * (@furniture/contracts/openapi): the test client `api()` runs every answer it receives through
 * here, so an answer that the published document does not describe (an undocumented route,
 * status, field or error code) fails the test that received it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  createOpenApiDocument,
  errorSchema,
  matchOperation,
  type OpenApiDocument,
} from '@furniture/contracts/openapi';

/** Paths that belong to the API: an answer there must be documented (or be a 404). */
const API_PREFIXES = ['/api/', '/internal/', '/media/'];

interface Loaded {
  doc: OpenApiDocument;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}
let loaded: Loaded | undefined;

function load(): Loaded {
  if (!loaded) {
    const doc = createOpenApiDocument({ internal: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
    loaded = { doc, ajv, validators: new Map() };
  }
  return loaded;
}

const pointer = (...tokens: string[]): string =>
  tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function validatorFor(template: string, method: string, status: string): ValidateFunction {
  const { ajv, validators } = load();
  const ref = `openapi.json#/${pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export interface AnswerToCheck {
  method: string;
  /** the request URL (absolute) */
  url: string;
  status: number;
  contentType: string;
  /** the parsed JSON body, or the text */
  body: unknown;
}

/** What is wrong with an answer in the document's eyes; undefined when it is described there. */
export function contractProblem(answer: AnswerToCheck): string | undefined {
  const { doc } = load();
  const pathname = new URL(answer.url).pathname;
  const method = answer.method.toUpperCase();
  const where = `${method} ${pathname} → ${answer.status}`;
  if (answer.status === 304 || (answer.status === 204 && !answer.body)) return undefined;
  const isJson = /\bjson\b/.test(answer.contentType);
  const match = matchOperation(doc.paths, method, pathname);

  if (!match?.operation) {
    if (!match && !API_PREFIXES.some((p) => pathname.startsWith(p))) return undefined;
    // an undocumented route or method may only be refused as not found
    if (answer.status === 404 && isJson && errorSchema().safeParse(answer.body).success)
      return undefined;
    return `${where}: ${match ? `${method} is not documented for ${match.template}` : 'the path is not in the OpenAPI document'} (only a 404 error answer may come from there)`;
  }

  const responses = (match.operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, unknown> }
  >;
  const status = String(answer.status);
  const response = responses[status];
  if (!response) {
    return `${where}: status ${status} is not documented for ${method} ${match.template} (documented: ${Object.keys(responses).join(', ')})`;
  }
  const mediaTypes = Object.keys(response.content ?? {});
  if (!isJson) {
    const type = answer.contentType.split(';')[0]!.trim();
    if (answer.body === '' && mediaTypes.length === 0) return undefined;
    if (mediaTypes.includes(type) || (method === 'HEAD' && answer.body === '')) return undefined;
    return `${where}: content type ${type || '(none)'} is not documented (documented: ${mediaTypes.join(', ') || 'no body'})`;
  }
  if (!mediaTypes.includes('application/json')) {
    return `${where}: a JSON answer is not documented (documented: ${mediaTypes.join(', ') || 'no body'})`;
  }
  const validate = validatorFor(match.template, match.method, status);
  if (validate(answer.body)) return undefined;
  const errors = (validate.errors ?? [])
    .slice(0, 8)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
  const body = JSON.stringify(answer.body);
  return `${where}: the answer does not match the OpenAPI document (${match.template}):\n${errors}\n  body: ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`;
}

/** Throws when the answer is not what the OpenAPI document describes. */
export function assertAnswerInContract(answer: AnswerToCheck): void {
  const problem = contractProblem(answer);
  if (problem) {
    const err = new Error(
      `OpenAPI contract: ${problem}\n(the document is generated from services/libs/contracts/src/openapi)`,
    );
    Error.captureStackTrace?.(err, assertAnswerInContract);
    throw err;
  }
}
