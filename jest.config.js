// All tests: one jest project per workspace; the real servers are started once by the first
// project that needs them (see jest.preset.js).
module.exports = {
  projects: [
    '<rootDir>/services/libs/*/jest.config.js',
    '<rootDir>/services/*/jest.config.js',
    '<rootDir>/gateway/jest.config.js',
    '<rootDir>/infra/jest.config.js',
    '<rootDir>/tests/*/jest.config.js',
    '<rootDir>/frontend/jest.config.cjs',
    '<rootDir>/frontend/e2e/jest.config.cjs',
  ],
  // per-project testTimeout is ignored in a multi-project run; this is the longest any needs
  testTimeout: 120000,
};
