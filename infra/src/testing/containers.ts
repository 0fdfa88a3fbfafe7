// The same infrastructure as Docker containers via testcontainers (USE_TESTCONTAINERS=1), for
// machines with a Docker engine. testcontainers is an optional package: it is loaded at run time
// only, so nothing else depends on it being installed.
import { DEFAULT_MINIO_PASSWORD, DEFAULT_MINIO_USER, formatS3Url, type S3Settings } from '../minio';
import { startMessagesStandIn } from '../messages-standin';
import { messagesProviderEnv, standInSettings } from '../messages/local';
import { newMessagesCredentials } from '../run/keys';
import type { Infra } from '../start-infra';
import { noLog, type Log } from '../util';

// Loose local typings of the few testcontainers APIs used here (the package is not installed,
// so its own types are unavailable at compile time).
interface StartedContainer {
  getHost(): string;
  getMappedPort(port: number): number;
  stop(): Promise<unknown>;
}
interface ContainerBuilder {
  withExposedPorts(...ports: number[]): ContainerBuilder;
  withEnvironment(env: Record<string, string>): ContainerBuilder;
  withCommand(cmd: string[]): ContainerBuilder;
  withWaitStrategy(strategy: unknown): ContainerBuilder;
  start(): Promise<StartedContainer>;
}
interface TestcontainersModule {
  GenericContainer: new (image: string) => ContainerBuilder;
  Wait: {
    forLogMessage(message: string | RegExp, times?: number): unknown;
    forHttp(path: string, port: number): unknown;
  };
}

function loadTestcontainers(): TestcontainersModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional dependency, loaded on demand
    return require('testcontainers') as TestcontainersModule;
  } catch (err) {
    throw new Error(
      'USE_TESTCONTAINERS=1 needs the "testcontainers" package (npm install --no-save testcontainers) and a Docker engine; ' +
        `unset USE_TESTCONTAINERS to use the local launcher instead (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

export async function startContainers(log: Log = noLog): Promise<Infra> {
  const { GenericContainer, Wait } = loadTestcontainers();
  const accessKey = process.env.MINIO_ROOT_USER || DEFAULT_MINIO_USER;
  const secretKey = process.env.MINIO_ROOT_PASSWORD || DEFAULT_MINIO_PASSWORD;
  log('starting mongo:7, rabbitmq:3-management, minio/minio and axllent/mailpit containers');
  const started = await Promise.allSettled([
    new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start(),
    new GenericContainer('rabbitmq:3-management')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
      .start(),
    new GenericContainer('minio/minio')
      .withEnvironment({ MINIO_ROOT_USER: accessKey, MINIO_ROOT_PASSWORD: secretKey })
      .withCommand(['server', '/data'])
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start(),
    new GenericContainer('axllent/mailpit')
      .withExposedPorts(1025, 8025)
      .withWaitStrategy(Wait.forHttp('/livez', 8025))
      .start(),
  ]);
  const containers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.allSettled(containers.splice(0).map((c) => c.stop()));
  };
  const [mongo, rabbit, minio, mailpit] = started;
  if (
    mongo?.status !== 'fulfilled' ||
    rabbit?.status !== 'fulfilled' ||
    minio?.status !== 'fulfilled' ||
    mailpit?.status !== 'fulfilled'
  ) {
    await stop();
    const reasons = started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    throw new Error(`test containers did not start: ${reasons.join('; ')}`);
  }
  const at = (c: StartedContainer, port: number): string =>
    `${c.getHost()}:${c.getMappedPort(port)}`;
  const s3: S3Settings = {
    endPoint: minio.value.getHost(),
    port: minio.value.getMappedPort(9000),
    useSSL: false,
    accessKey,
    secretKey,
    url: `http://${at(minio.value, 9000)}`,
  };
  // the WhatsApp/SMS stand-in has no container: it runs in this process, as with the launcher
  const credentials = newMessagesCredentials();
  const standIn = await startMessagesStandIn({ ...standInSettings(credentials), log }).catch(
    async (err: unknown) => {
      await stop();
      throw err;
    },
  );
  const env = {
    MONGO_URL: `mongodb://${at(mongo.value, 27017)}/`,
    AMQP_URL: `amqp://guest:guest@${at(rabbit.value, 5672)}`,
    S3_URL: formatS3Url(s3),
    SMTP_URL: `smtp://${at(mailpit.value, 1025)}`,
    MAIL_API_URL: `http://${at(mailpit.value, 8025)}`,
    MESSAGES_API_URL: standIn.apiUrl,
  };
  return {
    mongoUrl: env.MONGO_URL,
    amqpUrl: env.AMQP_URL,
    s3,
    smtpUrl: env.SMTP_URL,
    mailApiUrl: env.MAIL_API_URL,
    messagesApiUrl: standIn.apiUrl,
    messages: { standIn, credentials },
    messagesEnv: messagesProviderEnv(standIn, credentials),
    env,
    async stop() {
      await standIn.stop();
      await stop();
    },
  };
}
