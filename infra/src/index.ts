// @furniture/infra: local infrastructure for `make run` and the integration tests: a
// MongoDB-compatible server (FerretDB on SQLite), RabbitMQ, S3 (MinIO), a mail catcher (Mailpit) and a
// WhatsApp/SMS provider stand-in.
export { startInfra, type Infra, type InfraOptions, type InfraPorts } from './start-infra';
export { ensureTools, ensureTool, type ToolName } from './tools';
export { startMailpit, type Mailpit, type MailpitOptions, type SmtpRefusal } from './mailpit';
export {
  startMessagesStandIn,
  twilioSignature,
  whatsappSignature,
  type CapturedMessage,
  type MessagesStandIn,
  type MessagesStandInOptions,
} from './messages-standin';
export {
  MESSAGES_PROVIDER_ENV_KEYS,
  gatewayCallbackUrls,
  messagesProviderEnv,
  standInSettings,
  wireToGateway,
} from './messages/local';
export {
  ensureMessagesCredentials,
  newMessagesCredentials,
  type MessagesCredentials,
} from './run/keys';
export {
  startPrivateRabbit,
  type PrivateRabbit,
  type PrivateRabbitOptions,
} from './private-rabbit';
export {
  formatS3Url,
  parseS3Url,
  DEFAULT_MINIO_USER,
  DEFAULT_MINIO_PASSWORD,
  type S3Settings,
} from './minio';
export { DEFAULT_AMQP_URL } from './rabbit';
export { runInfraForeground, DEFAULT_PORTS } from './foreground';
export { REPO_ROOT, RUN_DATA_DIR, TEST_DATA_DIR } from './paths';
export { startFerret, type RunningFerret } from './ferretdb';
export { startMinio } from './minio';
export { chooseFerretBackend, dropFerretDatabase, type FerretBackend } from './postgres';
export {
  startPlatform,
  servicePortSpan,
  SERVICE_NAMES,
  type Platform,
  type PlatformOptions,
} from './run/platform';
export { Supervisor } from './run/supervisor';
export { MEDIA_PROCESS_ENV, replicasFromEnv } from './run/local';
export { freePort, freePortRun, isPortFree, waitUntil } from './util';
export { ensureFerretIndexes, keepFerretIndexes } from './ferret-pg-indexes';
export { crop, decodeQr, renderPdf, y4mOf, type RenderedPage } from './testing/labels';
