// Shared jest settings: every workspace has its own project built from this preset.
const path = require('node:path');

const root = __dirname;

/** @param {string} dir absolute path of the workspace; @param {object} extra overrides */
module.exports = function preset(dir, extra = {}) {
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
      '^@furniture/platform$': path.join(root, 'services/libs/platform/src/index.ts'),
      '^@furniture/platform/testing$': path.join(
        root,
        'services/libs/platform/src/testing/index.ts',
      ),
      '^@furniture/infra$': path.join(root, 'infra/src/index.ts'),
    },
    testMatch: ['<rootDir>/**/*.test.ts', '<rootDir>/**/*.test.tsx'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    ...extra,
  };
};
