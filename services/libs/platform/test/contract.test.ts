// The test client's contract check (src/testing/contract.ts): what the OpenAPI document does not
// describe is refused, what it describes passes.
import { contractProblem, type AnswerToCheck } from '@furniture/platform/testing';

const answer = (over: Partial<AnswerToCheck>): AnswerToCheck => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/api/v1/lots/count',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: { count: 3 },
  ...over,
});
const error = (code: string) => ({
  success: false,
  code,
  message: 'Nicht gefunden.',
  detail: 'Nicht gefunden.',
});

test('when an answer is what the document describes, then it passes', () => {
  expect(contractProblem(answer({}))).toBeUndefined();
  expect(
    contractProblem(
      answer({ url: 'http://h/api/v1/lots/7/', status: 404, body: error('LOT_NOT_FOUND') }),
    ),
  ).toBeUndefined();
});

test('when a field has the wrong type or is not in the document, then the answer is refused naming it', () => {
  const problem = contractProblem(answer({ body: { count: '3', total: 3 } }));
  expect(problem).toMatch(/\/count must be integer/);
  expect(problem).toMatch(/additional properties.*"total"/);
});

test('when the status is not documented for the operation, then the answer is refused', () => {
  expect(contractProblem(answer({ status: 201 }))).toMatch(
    /status 201 is not documented for GET \/api\/v1\/lots\/count \(documented: 200/,
  );
});

test('when an error code is not one the operation answers with that status, then the answer is refused', () => {
  expect(
    contractProblem(
      answer({ url: 'http://h/api/v1/lots/7', status: 404, body: error('USER_NOT_FOUND') }),
    ),
  ).toMatch(/\/code must be equal to one of the allowed values/);
});

test('when an error lacks part of its shape, then the answer is refused', () => {
  const { detail: _detail, ...noDetail } = error('LOT_NOT_FOUND');
  expect(
    contractProblem(answer({ url: 'http://h/api/v1/lots/7', status: 404, body: noDetail })),
  ).toMatch(/must have required property 'detail'/);
});

test('when an API path is not documented, then only a 404 error may come from it', () => {
  const url = 'http://h/api/v1/lots/7/comments';
  expect(contractProblem(answer({ url, body: [] }))).toMatch(
    /the path is not in the OpenAPI document/,
  );
  expect(
    contractProblem(answer({ url, status: 404, body: error('ROUTE_NOT_FOUND') })),
  ).toBeUndefined();
  expect(
    contractProblem(answer({ method: 'PUT', url: 'http://h/api/v1/lots/count', body: {} })),
  ).toMatch(/PUT is not documented for \/api\/v1\/lots\/count/);
});

test('when the most literal path matches, then its operation is the one checked (/lots/count, not /lots/{id})', () => {
  expect(
    contractProblem(answer({ url: 'http://h/api/v1/lots/count', body: { count: 1 } })),
  ).toBeUndefined();
  expect(contractProblem(answer({ url: 'http://h/api/v1/lots/5', body: { count: 1 } }))).toMatch(
    /\/api\/v1\/lots\/\{id\}/,
  );
});

test('when an answer is not JSON, then its content type must be documented', () => {
  const csv = answer({
    url: 'http://h/api/v1/activity-logs/export.csv',
    contentType: 'text/csv; charset=utf-8',
    body: 'a;b',
  });
  expect(contractProblem(csv)).toBeUndefined();
  expect(contractProblem({ ...csv, contentType: 'text/html' })).toMatch(
    /content type text\/html is not documented/,
  );
});

test('when a path is outside the API (a test app of its own), then nothing is checked', () => {
  expect(
    contractProblem(answer({ url: 'http://h/items', status: 418, body: { any: 1 } })),
  ).toBeUndefined();
});
