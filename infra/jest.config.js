// Tests of the infra launcher itself; they start real FerretDB / MinIO / RabbitMQ processes.
module.exports = require('../jest.preset.js')(__dirname, {
  // these tests start their own servers
  infra: false,
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/ensure-tools.ts',
});
