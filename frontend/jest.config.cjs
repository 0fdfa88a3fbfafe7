const path = require('node:path');

const contracts = path.join(__dirname, '../services/libs/contracts/src');

const config = require('../jest.preset.js')(__dirname, {
  // the API is mocked (msw): no real servers
  infra: false,
  // jsdom with Node's fetch, Request and Response, so RTK Query and msw run as in a browser
  testEnvironment: 'jest-fixed-jsdom',
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  // what vite.config.ts defines besides the VITE_* settings: the root package.json's version
  globals: { __APP_ENV__: { APP_VERSION: require('../package.json').version } },
  // the browser tests in e2e/ are their own project (e2e/jest.config.cjs)
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/e2e/'],
  moduleNameMapper: {
    '\\.(css)$': '<rootDir>/src/test/style-stub.cjs',
    '^@furniture/contracts$': path.join(contracts, 'index.ts'),
    '^@furniture/contracts/(.*)$': path.join(contracts, '$1'),
    // the browser build of csv-stringify is an ES module bundle; jest takes the same API from Node's
    '^csv-stringify/browser/esm/sync$': 'csv-stringify/sync',
  },
  // packages that ship only ES modules (msw's helpers) are compiled like our own code
  transformIgnorePatterns: ['/node_modules/(?!(?:until-async|rettime)/)(?!.*\\.mjs$)'],
});

// the same swc transform for .mjs files
const [swc] = Object.values(config.transform);
config.transform = { ...config.transform, '^.+\\.mjs$': swc };

module.exports = config;
