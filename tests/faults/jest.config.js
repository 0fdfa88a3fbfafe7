// The fault suite (issue 13): its own platform with its own FerretDB, RabbitMQ node and
// Mailpit, which it stops, restarts and kills on purpose. Part of `make test`; takes minutes.
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'tests/faults',
  testTimeout: 600_000,
});
