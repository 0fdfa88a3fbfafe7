// alternates before/after: via gateway and straight at the service, for a few small calls
const B = { gw: 'http://127.0.0.1:23905', auth: 'http://127.0.0.1:6080', apps: 'http://127.0.0.1:6082', cat: 'http://127.0.0.1:6081' };
const A = { gw: 'http://127.0.0.1:20497', auth: 'http://127.0.0.1:4905', apps: 'http://127.0.0.1:4907', cat: 'http://127.0.0.1:4906' };
const n = Number(process.argv[2] ?? 600);
(async () => {
  const tok = {};
  for (const [k, s] of Object.entries({ B, A })) {
    const r = await (await fetch(s.gw + '/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: 'bench-password-1' }) })).json();
    tok[k] = r.access_token;
  }
  const calls = [
    ['me gw', (s) => s.gw + '/api/v1/auth/me'], ['me svc', (s) => s.auth + '/api/v1/auth/me'],
    ['stats gw', (s) => s.gw + '/api/v1/applications/stats'], ['stats svc', (s) => s.apps + '/api/v1/applications/stats'],
    ['lot gw', (s) => s.gw + '/api/v1/lots/4991'], ['lot svc', (s) => s.cat + '/api/v1/lots/4991'],
    ['health gw', (s) => s.gw + '/api/v1/health'], ['live svc', (s) => s.auth + '/live'],
  ];
  const t = {};
  for (let i = 0; i < n; i++) for (const [name, url] of calls) for (const k of i % 2 ? ['B', 'A'] : ['A', 'B']) {
    const s = k === 'B' ? B : A;
    const st = performance.now(); const r = await fetch(url(s), { headers: { authorization: 'Bearer ' + tok[k] } }); await r.text();
    if (i === 0 && r.status >= 400) console.log(name, k, r.status);
    (t[name + ' ' + k] ??= []).push(performance.now() - st);
  }
  for (const [name] of calls) { const row = ['B', 'A'].map((k) => { const a = t[name + ' ' + k].sort((x, y) => x - y); return `${k} p50 ${a[n >> 1].toFixed(2)} p95 ${a[Math.floor(n * .95)].toFixed(2)}`; }); console.log(name.padEnd(10), row.join(' | ')); }
})();
