const gws = { before: process.argv[2], after: process.argv[3] };
const n = Number(process.argv[4] ?? 300);
(async () => {
  const h = {};
  for (const [k, gw] of Object.entries(gws)) {
    const login = await (await fetch(gw + '/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: 'bench-password-1' }) })).json();
    h[k] = { authorization: 'Bearer ' + login.access_token };
  }
  const urls = { pending: '/api/v1/applications/?status=pending&limit=20', all: '/api/v1/applications/?limit=20' };
  const t = {};
  for (let i = 0; i < n; i++) for (const u of Object.keys(urls)) for (const k of (i % 2 ? ['before', 'after'] : ['after', 'before'])) {
    const s = performance.now(); const r = await fetch(gws[k] + urls[u], { headers: h[k] }); await r.text(); (t[k + ' ' + u] ??= []).push(performance.now() - s);
  }
  for (const k of Object.keys(t).sort()) { const a = t[k].sort((x, y) => x - y); console.log(k.padEnd(16), 'p50', a[n >> 1].toFixed(1), 'p95', a[Math.floor(n * .95)].toFixed(1), 'p99', a[Math.floor(n * .99)].toFixed(1)); }
})();
