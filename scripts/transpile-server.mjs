// The server packages' JavaScript without type checking, for `make run` and `make dev`: every
// src/**/*.ts of the packages build-server.mjs builds goes through TypeScript's transpileModule
// (the compiler options of tsconfig.base.json) into dist/, as `tsc -b` would emit it, in a few
// seconds instead of a minute and a half. Type errors are `make typecheck`'s and `make test`'s
// (which builds with tsc -b). A file is written only when its source is newer than its output.
// The output of each source is also kept in a per-user cache named by a hash of the source, its
// path and the compiler (~/.cache/moebelbruecke/transpiled), so a second clone only copies it.
// `--watch` keeps going and transpiles each changed file again (make dev).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const ts = createRequire(import.meta.url)(path.join(root, 'node_modules', 'typescript'));

const packages = [
  'services/libs/contracts',
  'services/libs/platform',
  ...fs
    .readdirSync(path.join(root, 'services'))
    .filter((d) => d !== 'libs')
    .map((d) => `services/${d}`),
  'gateway',
  'infra',
].filter((d) => fs.existsSync(path.join(root, d, 'tsconfig.json')));

const base = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile);
if (base.error) throw new Error(ts.flattenDiagnosticMessageText(base.error.messageText, '\n'));
const { options } = ts.convertCompilerOptionsFromJson(base.config.compilerOptions, root);
const compilerOptions = {
  ...options,
  // node16 resolves each file's format from package.json; the server packages are CommonJS
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  declaration: false,
  declarationMap: false,
  composite: false,
  noEmit: false,
};

const cacheDir = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  'moebelbruecke',
  'transpiled',
);
const compilerKey = `${ts.version} ${JSON.stringify(compilerOptions)}`;

/** The cached output for this source text at this path: [js, map] or undefined. */
function cached(key) {
  try {
    return [
      fs.readFileSync(path.join(cacheDir, key.slice(0, 2), `${key}.js`), 'utf8'),
      fs.readFileSync(path.join(cacheDir, key.slice(0, 2), `${key}.js.map`), 'utf8'),
    ];
  } catch {
    return undefined;
  }
}

function keep(key, js, map) {
  try {
    const dir = path.join(cacheDir, key.slice(0, 2));
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `${key}.tmp-${process.pid}`);
    fs.writeFileSync(`${tmp}.map`, map);
    fs.renameSync(`${tmp}.map`, path.join(dir, `${key}.js.map`));
    fs.writeFileSync(tmp, js);
    fs.renameSync(tmp, path.join(dir, `${key}.js`));
  } catch {
    // a cache that cannot be written only costs time
  }
}

function sources(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((e) =>
      e.isFile() &&
      e.name.endsWith('.ts') &&
      !e.name.endsWith('.d.ts') &&
      !e.name.endsWith('.test.ts')
        ? [path.join(e.parentPath, e.name)]
        : [],
    );
}

/** Writes dist/<file>.js and its source map; false when the output was already newer. */
function transpile(pkg, file, force = false) {
  const src = path.join(root, pkg, 'src');
  const rel = path.relative(src, file).replace(/\.ts$/, '.js');
  const out = path.join(root, pkg, 'dist', rel);
  if (!force && fs.existsSync(out) && fs.statSync(out).mtimeMs >= fs.statSync(file).mtimeMs)
    return false;
  const text = fs.readFileSync(file, 'utf8');
  const key = createHash('sha256')
    .update(`${compilerKey}\n${path.relative(root, file)}\n`)
    .update(text)
    .digest('hex');
  let [js, map] = cached(key) ?? [];
  if (js === undefined || map === undefined) {
    const result = ts.transpileModule(text, {
      compilerOptions,
      fileName: file,
      reportDiagnostics: true,
    });
    if (result.diagnostics?.length) {
      const message = result.diagnostics
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
        .join('\n');
      throw new Error(`${path.relative(root, file)}: ${message}`);
    }
    // transpileModule names the map after the source; point it where tsc's would (dist → src)
    const sourceMap = JSON.parse(result.sourceMapText);
    sourceMap.file = path.basename(out);
    sourceMap.sources = [path.relative(path.dirname(out), file)];
    js = result.outputText;
    map = JSON.stringify(sourceMap);
    keep(key, js, map);
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(`${out}.map`, map);
  fs.writeFileSync(out, js);
  return true;
}

const started = Date.now();
let written = 0;
let total = 0;
for (const pkg of packages) {
  for (const file of sources(path.join(root, pkg, 'src'))) {
    total++;
    if (transpile(pkg, file)) written++;
  }
}
process.stdout.write(
  `transpile: ${written} of ${total} server files written in ${((Date.now() - started) / 1000).toFixed(1)} s (no type check: make typecheck)\n`,
);

if (process.argv.includes('--watch')) {
  for (const pkg of packages) {
    const src = path.join(root, pkg, 'src');
    if (!fs.existsSync(src)) continue;
    fs.watch(src, { recursive: true }, (_event, name) => {
      if (!name || !name.endsWith('.ts') || name.endsWith('.d.ts') || name.endsWith('.test.ts'))
        return;
      const file = path.join(src, name);
      if (!fs.existsSync(file)) return;
      try {
        if (transpile(pkg, file)) process.stdout.write(`transpile: ${pkg}/src/${name}\n`);
      } catch (err) {
        process.stdout.write(`transpile: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    });
  }
  process.stdout.write('transpile: watching the server sources\n');
}
