const gw = process.argv[2];
const n = Number(process.argv[3] ?? 300);
(async () => {
  const login = await (await fetch(gw + '/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: 'bench-password-1' }) })).json();
  const h = { authorization: 'Bearer ' + login.access_token };
  const urls = { pending: '/api/v1/applications/?status=pending&limit=20', all: '/api/v1/applications/?limit=20' };
  const t = { pending: [], all: [] };
  for (let i = 0; i < n; i++) for (const k of Object.keys(urls)) {
    const s = performance.now(); const r = await fetch(gw + urls[k], { headers: h }); await r.text(); t[k].push(performance.now() - s);
  }
  for (const k of Object.keys(t)) { const a = t[k].sort((x, y) => x - y); console.log(k.padEnd(8), 'p50', a[n >> 1].toFixed(1), 'p95', a[Math.floor(n * .95)].toFixed(1), 'p99', a[Math.floor(n * .99)].toFixed(1)); }
})();
