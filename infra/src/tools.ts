// The pinned Go tools (FerretDB, MinIO, Mailpit, kustomize, cyclonus …), built into the per-user tool cache
// on first use. Their list and their build are scripts/go-tools.cjs: plain JavaScript, so that
// `make run` starts the builds before `npm ci` has installed anything (scripts/run.mjs). A new
// tool is one entry in its TOOLS.
import { ensureTool as ensureGoTool, isReady, TOOLS } from '../../scripts/go-tools.cjs';
import { noLog, type Log } from './util';

export { TOOLS };

/** A tool of scripts/go-tools.cjs TOOLS ('ferretdb', 'minio', 'kustomize', 'cyclonus', …). */
export type ToolName = string;

/** Built already (no build would run for it now). */
export function isToolReady(name: ToolName): boolean {
  return isReady(name);
}

/** Path of a ready-to-run binary for `name`, building it first when missing or outdated. */
export function ensureTool(name: ToolName, log: Log = noLog): Promise<string> {
  return ensureGoTool(name, log);
}

/**
 * Makes sure FerretDB, MinIO and Mailpit are built, one after the other (each build alone keeps
 * every core busy; the later ones reuse what the first compiled).
 */
export async function ensureTools(
  log: Log = noLog,
): Promise<{ ferretdb: string; minio: string; mailpit: string }> {
  const ferretdb = await ensureTool('ferretdb', log);
  const minio = await ensureTool('minio', log);
  const mailpit = await ensureTool('mailpit', log);
  return { ferretdb, minio, mailpit };
}
