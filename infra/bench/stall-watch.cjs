// Preloaded into the services by `BENCH_NODE_OPTIONS="--require ./infra/bench/stall-watch.cjs"`
// to find where a slow call printed by BENCH_SLOW_MS spent its time; prints, with the time of day
// (into the services' logs in the data folder):
// - garbage collection pauses of 20 ms or more;
// - event loop stalls of 50 ms or more (a timer that fired that much late);
// - MongoDB commands that took 40 ms or more, connection checkouts that waited 20 ms or more, and
//   every connection the driver opens or closes.
const { PerformanceObserver } = require('node:perf_hooks');

const say = (text) => process.stderr.write(`${text} at ${new Date().toISOString()}\n`);

const kinds = { 1: 'scavenge', 2: 'minor', 4: 'mark-compact', 8: 'incremental', 16: 'weak' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    if (e.duration >= 20)
      say(`gc pause ${e.duration.toFixed(0)} ms ${kinds[e.detail?.kind] ?? e.detail?.kind}`);
}).observe({ entryTypes: ['gc'] });

let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last >= 60) say(`event loop stalled ${(now - last - 10).toFixed(0)} ms`);
  last = now;
}, 10).unref();

try {
  const { MongoClient } = require('mongodb');
  const connect = MongoClient.prototype.connect;
  MongoClient.prototype.connect = function watchedConnect(...args) {
    if (!this.stallWatch) {
      this.stallWatch = true;
      this.monitorCommands = true;
      const started = new Map();
      this.on('commandStarted', (e) => {
        const c = e.command;
        const what = c[e.commandName];
        started.set(
          e.requestId,
          `${typeof what === 'string' ? what : ''} ${JSON.stringify(c.filter ?? c.pipeline ?? '').slice(0, 200)}`,
        );
      });
      const ended = (e) => {
        const what = started.get(e.requestId);
        started.delete(e.requestId);
        if (e.duration >= 40)
          say(`mongo ${e.commandName} ${what} took ${e.duration.toFixed(0)} ms`);
      };
      this.on('commandSucceeded', ended);
      this.on('commandFailed', ended);
      this.on('connectionCheckedOut', (e) => {
        if (e.durationMS >= 20) say(`mongo checkout waited ${e.durationMS.toFixed(0)} ms`);
      });
      this.on('connectionCreated', () => say('mongo connection created'));
      this.on('connectionClosed', (e) => say(`mongo connection closed (${e.reason})`));
    }
    return connect.apply(this, args);
  };
} catch {
  // a process without the MongoDB driver (the gateway)
}
