// Flows that cross services (STYLE.md rule 11): the real services in-process on one exchange,
// behind the real gateway, against the test servers.
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'tests/system',
  testTimeout: 60_000,
});
