// All tests: one jest project per workspace, real servers started once by the infra launcher.
module.exports = {
  projects: [
    '<rootDir>/services/libs/*/jest.config.js',
    '<rootDir>/services/*/jest.config.js',
    '<rootDir>/gateway/jest.config.js',
    '<rootDir>/infra/jest.config.js',
    '<rootDir>/frontend/jest.config.cjs',
    '<rootDir>/frontend/e2e/jest.config.cjs',
  ],
  // per-project testTimeout is ignored in a multi-project run; this is the longest any needs
  testTimeout: 120000,
  globalSetup: '<rootDir>/infra/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/infra/src/testing/global-teardown.ts',
};
