// Browser end-to-end tests (issue #9): the built platform in Debian's Chromium. Run by `make test`
// with every other project, or alone with `make e2e` (npx jest --selectProjects e2e).
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'e2e',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.e2e.ts'],
  // one platform and one browser for the whole file; a slow step fails with its own message
  testTimeout: 120000,
});
