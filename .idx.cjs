const { MongoClient } = require('mongodb');
(async () => {
  const c = await MongoClient.connect(process.argv[2]);
  const dbs = (await c.db().admin().listDatabases()).databases.map((d) => d.name);
  console.log(dbs.join(' '));
  const db = c.db(dbs.find((d) => d.endsWith('applications')));
  console.log(JSON.stringify((await db.collection('applications').indexes()).map((i) => i.key)));
  const top = await db.collection('applications').find({}).sort({ id: -1 }).limit(1).toArray();
  const part = top[0].part;
  console.log('top id', top[0].id, 'part', part, 'block', top[0].block);
  const time = async (what, f, n = 200) => {
    const t = [];
    for (let i = 0; i < n; i++) { const s = process.hrtime.bigint(); await f(); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
    t.sort((a, b) => a - b);
    console.log(what.padEnd(40), 'p50', t[n >> 1].toFixed(2), 'p95', t[Math.floor(n * 0.95)].toFixed(2));
  };
  const col = db.collection('applications');
  for (let r = 0; r < 2; r++) {
  await time('part only', () => col.find({ deleted_at: null, part }).sort({ id: -1 }).limit(20).toArray());
  await time('part + status', () => col.find({ deleted_at: null, status: 'pending', part }).sort({ id: -1 }).limit(20).toArray());
  await time('status + part', () => col.find({ status: 'pending', part, deleted_at: null }).sort({ id: -1 }).limit(20).toArray());
  }
  await c.close();
})();
