const { MongoClient } = require('mongodb');
(async () => {
  const urls = { B: 'mongodb://127.0.0.1:26045/', A: 'mongodb://127.0.0.1:23413/' };
  const c = {}; for (const [k, u] of Object.entries(urls)) c[k] = await MongoClient.connect(u, { directConnection: true });
  const n = 600, t = {};
  const ops = {
    'users findOne': (cl) => cl.db('furniture_auth').collection('users').findOne({}),
    'app counts': (cl) => cl.db('furniture_applications').collection('application_counts').findOne({ _id: 'all' }),
    'lot by _id': (cl) => cl.db('furniture_catalog').collection('lots').findOne({ _id: '4991' }),
    'ping': (cl) => cl.db('admin').command({ ping: 1 }),
  };
  for (let i = 0; i < n; i++) for (const [name, op] of Object.entries(ops)) for (const k of i % 2 ? ['B', 'A'] : ['A', 'B']) {
    const s = performance.now(); await op(c[k]); (t[name + k] ??= []).push(performance.now() - s);
  }
  for (const name of Object.keys(ops)) console.log(name.padEnd(14), ['B', 'A'].map((k) => { const a = t[name + k].sort((x, y) => x - y); return `${k} p50 ${a[n >> 1].toFixed(2)} p95 ${a[Math.floor(n * .95)].toFixed(2)}`; }).join(' | '));
  for (const k of Object.keys(c)) await c[k].close();
})();
