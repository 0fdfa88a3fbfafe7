// `npm test`: the tests that need no server, in seconds: every test of the SPA (its API is
// mocked) and the files named *.unit.test.ts in the other workspaces. `make test` (jest.config.js)
// runs them too, with everything that talks to FerretDB, RabbitMQ, MinIO, SMTP or a browser.
const fs = require('node:fs');
const path = require('node:path');
const { projects } = require('./jest.config.js');

// a pattern of jest.config.js's projects (one star at most) → the config files it names
const expand = (pattern) => {
  const [before, after = null] = pattern.replace('<rootDir>/', '').split('*');
  const dirs = after === null ? [''] : fs.readdirSync(path.join(__dirname, before));
  return dirs
    .map((dir) => path.join(__dirname, before, dir, after ?? ''))
    .filter((file) => fs.existsSync(file));
};

const configs = projects
  .flatMap(expand)
  .filter((file) => !file.includes(`${path.sep}e2e${path.sep}`))
  .sort()
  .map((file) => {
    const config = require(file);
    if (config.displayName === 'frontend') return config;
    // no servers: without the setup that starts them
    const unit = { ...config, testMatch: ['<rootDir>/**/*.unit.test.ts'] };
    delete unit.globalSetup;
    delete unit.globalTeardown;
    return unit;
  });

module.exports = {
  projects: configs,
  // projects without a *.unit.test.ts file are fine
  passWithNoTests: true,
  // per-project testTimeout is ignored in a multi-project run (as in jest.config.js)
  testTimeout: 60000,
  maxWorkers: 2,
};
