import fs from 'node:fs';
import path from 'node:path';

/** The root package.json's name: the platform as a whole, not one of its workspaces. */
const ROOT_PACKAGE = 'furniture-donation-platform';

export interface Release {
  /** the platform's one version (CHANGELOG.md); the workspaces' own versions mean nothing */
  version: string;
  /** the root package.json's `repository` as a web address, null when it names none */
  repository: string | null;
}

let cached: Release | undefined;

/**
 * The root package.json's version and repository, found above this file wherever the code runs:
 * in the repository, and in an image, which carries the root package.json as /app/package.json.
 */
export function platformRelease(): Release {
  if (cached) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        name?: string;
        version?: string;
        repository?: string | { url?: string };
      };
      if (pkg.name === ROOT_PACKAGE && pkg.version) {
        cached = { version: pkg.version, repository: repositoryUrl(pkg.repository) };
        return cached;
      }
    }
    if (path.dirname(dir) === dir)
      throw new Error(`no package.json of ${ROOT_PACKAGE} with a version above ${__dirname}`);
  }
}

/** `git+https://host/owner/repo.git` → `https://host/owner/repo`; shorthands are not guessed. */
export function repositoryUrl(repository: string | { url?: string } | undefined): string | null {
  const raw = typeof repository === 'string' ? repository : repository?.url;
  const url = raw
    ?.trim()
    .replace(/^git\+/, '')
    .replace(/\.git$/, '');
  return url && /^https?:\/\//.test(url) ? url : null;
}
