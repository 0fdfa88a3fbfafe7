// Shared jest settings: every workspace has its own project built from this preset.
const path = require('node:path');

const root = __dirname;

/**
 * The real servers (FerretDB, RabbitMQ, MinIO, Mailpit) are started once per jest run by
 * the first project that needs them; projects that talk to none (component tests with mocked
 * HTTP) say `infra: false` and run without them.
 */
const INFRA = {
  globalSetup: path.join(root, 'infra/src/testing/global-setup.ts'),
  globalTeardown: path.join(root, 'infra/src/testing/global-teardown.ts'),
};

/** The services, the gateway and their entry points that other workspaces' tests may import. */
const SERVICES = 'auth|catalog|applications|media|notification';

/**
 * @param {string} dir absolute path of the workspace
 * @param {object} extra overrides; `infra: false` for a project that needs no real servers
 */
module.exports = function preset(dir, extra = {}) {
  const { infra = true, ...rest } = extra;
  return {
    displayName: path.relative(root, dir),
    rootDir: dir,
    testEnvironment: 'node',
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '^@furniture/contracts$': path.join(root, 'services/libs/contracts/src/index.ts'),
      '^@furniture/contracts/openapi$': path.join(
        root,
        'services/libs/contracts/src/openapi/index.ts',
      ),
      '^@furniture/platform$': path.join(root, 'services/libs/platform/src/index.ts'),
      '^@furniture/platform/testing$': path.join(
        root,
        'services/libs/platform/src/testing/index.ts',
      ),
      '^@furniture/platform/domain$': path.join(root, 'services/libs/platform/src/domain.ts'),
      '^@furniture/platform/backup$': path.join(root, 'services/libs/platform/src/backup/index.ts'),
      '^@furniture/infra$': path.join(root, 'infra/src/index.ts'),
      [`^@furniture/(${SERVICES})/service$`]: path.join(root, 'services/$1/src/compose.ts'),
      [`^@furniture/(${SERVICES})/config$`]: path.join(root, 'services/$1/src/config.ts'),
      [`^@furniture/(${SERVICES})/testing$`]: path.join(root, 'services/$1/test/harness.ts'),
      '^@furniture/gateway/(app|config)$': path.join(root, 'gateway/src/$1.ts'),
      '^@furniture/gateway/testing$': path.join(root, 'gateway/test/harness.ts'),
    },
    // age-encryption (the backups' encryption) and the noble and scure libraries under it are ES
    // modules only: transformed to CommonJS like our own code
    transformIgnorePatterns: ['/node_modules/(?!(age-encryption|@noble|@scure)/)'],
    testMatch: ['<rootDir>/**/*.test.ts', '<rootDir>/**/*.test.tsx'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    ...(infra ? INFRA : {}),
    ...rest,
  };
};
