// The workspace folders an image of one workspace needs: that one and every @furniture package
// it depends on, transitively (the admin command line runs four services' code). Run from the
// repository root, where the workspaces' package.json files are:
//   node infra/docker/workspaces.mjs services/admin-cli
//   → services/admin-cli services/libs/contracts services/libs/platform services/auth …
import fs from 'node:fs';
import path from 'node:path';

const manifest = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const folderOf = new Map(manifest('.').workspaces.map((w) => [manifest(w).name, w]));

export function workspacesOf(start) {
  const needed = new Set();
  const visit = (dir) => {
    if (needed.has(dir)) return;
    needed.add(dir);
    for (const name of Object.keys(manifest(dir).dependencies ?? {}))
      if (folderOf.has(name)) visit(folderOf.get(name));
  };
  visit(start);
  return [...needed];
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(workspacesOf(process.argv[2]).join(' '));
