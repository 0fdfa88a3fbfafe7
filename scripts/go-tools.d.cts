// Types of go-tools.cjs (plain JavaScript, run before npm ci) for the TypeScript code.
export interface ToolSpec {
  module: string;
  version: string;
  /** package to build, relative to the module root */
  pkg: string;
  /** environment variable that points at a ready binary (skips building) */
  binEnv: string;
  /** rough duration of a build with a cold Go cache, shown while building */
  coldBuild: string;
  /** files written into a writable copy of the source before building ({version}: the pin) */
  files?: Record<string, string>;
  /** commands run in that copy before go build (Mailpit: its web UI's npm ci and bundle) */
  prepare?: readonly (readonly string[])[];
  /** linker flags added to `-s -w` ({version}: the pin) */
  ldflags?: string;
}

export type Log = (line: string) => void;

export declare const TOOLS: Readonly<Record<string, ToolSpec>>;
/** The per-user tool cache: binaries in bin/, build logs in logs/, build locks. */
export declare function toolsDir(): string;
/** The build log of a tool. */
export declare function buildLogOf(name: string): string;
/** Whether the tool can be used without building (built before, or given by its variable). */
export declare function isReady(name: string): boolean;
/** Path of a ready-to-run binary, building it first when missing or outdated. */
export declare function ensureTool(name: string, log?: Log): Promise<string>;
