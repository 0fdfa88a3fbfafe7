module.exports = require('../../jest.preset.js')(__dirname, { testTimeout: 30000 });
