export {
  createOpenApiDocument,
  errorCodesOf,
  operations,
  type Access,
  type ApiServiceName,
  type OpenApiDocument,
} from './document';
export { matchOperation, type OperationMatch } from './match';
export { errorSchema } from './responses';
