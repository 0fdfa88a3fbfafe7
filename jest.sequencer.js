// The order `make test` runs the test files in, longest first, so that the workers finish
// together: the browser tests (two files, a platform each) start at once, then the fault and
// system suites (each starts the whole platform), then jest's own order (slowest known first,
// else largest file first).
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = ['/frontend/e2e/', '/tests/faults/', '/tests/system/'];
const rank = (test) => {
  const i = FIRST.findIndex((part) => test.path.includes(part));
  return i === -1 ? FIRST.length : i;
};

module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return sorted
      .map((test, i) => ({ test, i }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.i - b.i)
      .map(({ test }) => test);
  }
};
