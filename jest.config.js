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
  // longest first (the browser tests, then the fault and system suites): see jest.sequencer.js
  testSequencer: '<rootDir>/jest.sequencer.js',
  // Most test time is waiting on servers and the browser, not CPU: three workers on two cores
  // took the jest run from 1839 s to 927 s (docs/benchmarks.md). JEST_WORKERS=1 runs the files
  // one after another (to tell a test that fails under load from one that fails alone).
  maxWorkers: Number(process.env.JEST_WORKERS ?? 3),
  // per-project testTimeout is ignored in a multi-project run; this is the longest any needs
  testTimeout: 120000,
};
