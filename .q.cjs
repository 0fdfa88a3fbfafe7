const { MongoClient } = require('mongodb');
(async () => {
  const c = await MongoClient.connect(process.argv[2]);
  const db = c.db('furniture_applications');
  const apps = await db.collection('applications').find({ status: 'pending' }).sort({ id: -1 }).limit(20).toArray();
  const lots = [...new Set(apps.map((a) => a.lot_id))];
  console.log(await db.listCollections().toArray().then((l) => l.map((x) => x.name).join(' ')));
  const time = async (what, f, n = 200) => {
    const t = [];
    for (let i = 0; i < n; i++) { const s = process.hrtime.bigint(); await f(); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
    t.sort((a, b) => a - b);
    console.log(what.padEnd(40), 'p50', t[n >> 1].toFixed(2), 'p95', t[Math.floor(n * 0.95)].toFixed(2));
  };
  const lq = db.collection('lot_queues');
  const lv = db.collection(process.argv[3] || 'lots');
  console.log(await lq.findOne({ _id: String(lots[0]) }), await lv.findOne({ _id: String(lots[0]) }) ? 'lot ok' : 'no lot');
  await time('21 summaries parallel', () => Promise.all([lq.findOne({ _id: 'state' }), ...lots.map((l) => lq.findOne({ _id: String(l) }))]));
  await time('20 lots parallel', () => Promise.all(lots.map((l) => lv.findOne({ _id: String(l) }))));
  await time('41 both parallel', () => Promise.all([lq.findOne({ _id: 'state' }), ...lots.map((l) => lq.findOne({ _id: String(l) })), ...lots.map((l) => lv.findOne({ _id: String(l) }))]));
  await time('summaries $in', () => lq.find({ _id: { $in: lots.map(String) } }).toArray());
  await time('lots $in', () => lv.find({ _id: { $in: lots.map(String) } }).toArray());
  await time('counts', () => db.collection('application_counts').findOne({}));
  await c.close();
})();
