const path = require('node:path');

module.exports = require('../jest.preset.js')(__dirname, {
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  moduleNameMapper: {
    '\\.(css)$': '<rootDir>/src/test/style-stub.cjs',
    '^@furniture/contracts$': path.join(__dirname, '../services/libs/contracts/src/index.ts'),
  },
});
