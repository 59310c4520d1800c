/**
 * A server configured with `"sandboxEnabled": true` runs the way VS Code runs
 * it: through the sandbox runtime VS Code ships (`@vscode/sandbox-runtime`,
 * bubblewrap and socat on Linux, sandbox-exec on macOS), with the file's
 * `sandbox` rules plus VS Code's defaults (writes to the server's folder, the
 * npm registry) in a settings file of its own. Where that runtime is missing,
 * where bubblewrap or socat is, or on Windows where VS Code has none, the
 * server is not started: it never runs without the sandbox it was configured with.
 *
 * What it runs must stay in the sandbox, so nothing it
 * may write runs outside it:
 * - its npm cache is its own (`npm_config_cache`), never the shared `~/.npm`,
 *   where it could rewrite a package another, unsandboxed server runs with `npx -y`;
 * - a `cwd` is writable only inside the workspace (`"cwd": "~"` would be the whole home folder);
 * - no file Elicit reads servers from may be created or changed: each workspace
 *   folder's `.vscode` (whole: its tasks run code too) and `.mcp.json`, and the
 *   files the caller names (the user's mcp.json and settings, Copilot CLI's,
 *   other tools'). On Linux a denied file is a read-only mount, which renaming
 *   its folder would step around, so each folder between a writable folder and
 *   a denied file is a mount point too (writable as before, never renamed).
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxRules, StdioServerConfig } from '../core/mcpConfig/serverConfig';

export interface SandboxRuntime {
  /** VS Code's install folder (`vscode.env.appRoot`), where its sandbox runtime is. */
  appRoot: string | undefined;
  /** The program that runs the runtime's script: the extension host's own (Electron runs as Node with ELECTRON_RUN_AS_NODE). */
  execPath: string;
  platform: NodeJS.Platform;
  arch: string;
  home: string;
  /** The base environment (PATH is extended with VS Code's ripgrep, which the runtime uses). */
  env: Readonly<Record<string, string | undefined>>;
  /** The window's workspace folders on disk: a `cwd` in one of them (or in the server's own folder) is writable; one outside never. */
  workspaceFolders?: readonly string[];
  /** The files Elicit reads servers from beyond the workspace's own (the user's, Copilot CLI's, other tools'), existing or not. */
  configFiles?: readonly string[];
  /** Who the server is (its origin, mcp/serverOrigin.ts): its npm cache is its own. Its name, command and args by default. */
  identity?: string;
  /** Where each server's npm cache folder is made; a private folder of this session by default. */
  cacheFolder?: string;
  /** A line for the server's log (a `cwd` left read-only). */
  log?: (line: string) => void;
}

/** VS Code's defaults, merged into every server's rules (McpSandboxService); its `~/.npm` is each server's own cache here. */
const DEFAULT_ALLOWED_DOMAINS = ['registry.npmjs.org'];

/** The programs the runtime needs on Linux, each with its package. */
const LINUX_PROGRAMS = [
  { program: 'bwrap', pkg: 'bubblewrap' },
  { program: 'socat', pkg: 'socat' },
] as const;

const NOT_STARTED = 'it is configured to run in a sandbox ("sandboxEnabled": true)';

let sessionFolder: string | undefined;

/**
 * The launch that runs `launch` inside the sandbox: the runtime's CLI with a
 * settings file, then the command and its arguments, each shell-quoted as VS
 * Code does. Throws, naming why, where the sandbox cannot be had.
 */
export function sandboxedLaunch(
  name: string,
  launch: StdioServerConfig,
  rules: SandboxRules,
  folder: string | undefined,
  runtime: SandboxRuntime,
): StdioServerConfig {
  if (runtime.platform === 'win32') {
    throw new Error(`${NOT_STARTED}, and VS Code has no sandbox on Windows: it is not started`);
  }
  const cli = runtime.appRoot ? path.join(runtime.appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js') : undefined;
  if (!cli || !existsSync(cli)) {
    throw new Error(
      `${NOT_STARTED}, and this VS Code has no sandbox runtime (@vscode/sandbox-runtime, VS Code 1.139 or later): it is not started`,
    );
  }
  const basePath = launch.env.PATH ?? runtime.env.PATH ?? '';
  if (runtime.platform === 'linux') {
    // Without them the runtime exits at once, and all the person would see is "Connection closed".
    const missing = LINUX_PROGRAMS.filter(({ program }) => !onPath(program, basePath));
    if (missing.length > 0) {
      const programs = missing.map(({ program, pkg }) => (program === pkg ? program : `${program} (${pkg})`)).join(' and ');
      const packages = missing.map(({ pkg }) => pkg).join(' ');
      throw new Error(
        `${NOT_STARTED}, and VS Code's sandbox on Linux needs bubblewrap and socat: ${programs} ${missing.length > 1 ? 'are' : 'is'} ` +
          `not installed (not found on PATH), so it is not started. Install ${missing.length > 1 ? 'them' : 'it'} with your package manager ` +
          `(Debian/Ubuntu: sudo apt-get install ${packages}; Fedora: sudo dnf install ${packages}; Arch: sudo pacman -S ${packages}), then start it again`,
      );
    }
  }
  // The home folder the runtime reads `~` as: its own HOME, which is the server's.
  const home = launch.env.HOME || runtime.env.HOME || runtime.home;
  const folders = [...new Set([...(folder ? [folder] : []), ...(runtime.workspaceFolders ?? [])])].map((f) => realish(f));
  const workFolder = writableWorkFolder(launch.cwd, folder, folders, home, runtime.log);
  const identity = runtime.identity ?? JSON.stringify([name, launch.command, launch.args]);
  const npmCache = serverCache(runtime.cacheFolder, identity);
  const allowWrite = [...new Set([...rules.filesystem.allowWrite, npmCache, ...(workFolder ? [workFolder] : [])])];
  const cwd = launch.cwd === undefined ? process.cwd() : path.resolve(expandHome(launch.cwd, home));
  // What denyRead hides the server sees as an empty folder of its own: nothing there is denied or pinned, which would show it again.
  const hidden = readDenied(rules.filesystem.denyRead, home, cwd);
  const guarded = guardedPaths(folders, runtime.configFiles ?? [], home, realish(cwd)).filter(
    (entry) => !hidden.some((dir) => isWithin(entry, dir, true)),
  );
  const pins = pinnedFolders(guarded, writableRoots(allowWrite, home, cwd), hidden);
  const settings = {
    network: {
      allowedDomains: [...new Set([...rules.network.allowedDomains, ...DEFAULT_ALLOWED_DOMAINS])],
      deniedDomains: rules.network.deniedDomains,
    },
    filesystem: {
      // Pins last, parents first: a folder bound before the one it is in would be bound over, a mount point no more.
      allowWrite: [...allowWrite.filter((entry) => !pins.includes(entry)), ...pins],
      denyRead: rules.filesystem.denyRead,
      denyWrite: withoutNested([...rules.filesystem.denyWrite, ...guarded], home, cwd),
    },
  };
  const id = createHash('sha256')
    .update(JSON.stringify([name, launch.command, launch.args, settings]))
    .digest('hex')
    .slice(0, 16);
  const settingsFile = path.join(privateSessionFolder(), `settings-${id}.json`);
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2), { mode: 0o600 });
  const ripgrep = path.join(runtime.appRoot!, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${runtime.platform}-${runtime.arch}`);
  return {
    ...launch,
    command: runtime.execPath,
    args: [cli, '--settings', settingsFile, '--', shellQuote(launch.command), ...launch.args.map(shellQuote)],
    env: {
      ...launch.env,
      ELECTRON_RUN_AS_NODE: '1',
      NODE_USE_ENV_PROXY: '1',
      // Both spellings: npm reads either, and the editor's environment may hold one.
      npm_config_cache: npmCache,
      NPM_CONFIG_CACHE: npmCache,
      ...(existsSync(ripgrep) ? { PATH: basePath ? `${basePath}${path.delimiter}${ripgrep}` : ripgrep } : {}),
    },
  };
}

/**
 * A 0700 folder of this session: the settings files, and the npm caches unless
 * the caller keeps them elsewhere. Made again if a cleaner of the temp folder took it.
 */
function privateSessionFolder(): string {
  if (sessionFolder === undefined || !existsSync(sessionFolder)) sessionFolder = mkdtempSync(path.join(os.tmpdir(), 'elicit-mcp-sandbox-'));
  return sessionFolder;
}

/** The server's own npm cache folder (made now: the runtime leaves a folder that does not exist read-only). */
function serverCache(cacheFolder: string | undefined, identity: string): string {
  const key = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  const dir = path.join(cacheFolder ?? privateSessionFolder(), `npm-${key}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return realish(dir);
}

/**
 * What no sandboxed server may write: each workspace folder's `.vscode` whole
 * (its mcp.json and settings.json are read for servers; its tasks run code too),
 * its `.mcp.json`, and the other config files named. A missing `.vscode` is
 * named by a file in it, so the runtime blocks it with an empty read-only
 * folder, never a file that would keep VS Code from making the folder; but in
 * the folder the server starts in, the runtime denies `.vscode` itself, and
 * both at one place would keep the sandbox from starting, so it is named as
 * the runtime names it. An entry inside a denied folder is left out (the
 * runtime could not mount over it).
 */
function guardedPaths(folders: readonly string[], configFiles: readonly string[], home: string, cwd: string): string[] {
  const vscodeFolders = folders.map((f) => realish(path.join(f, '.vscode')));
  const others = configFiles
    .map((file) => realish(expandHome(file, home)))
    .filter((file) => !vscodeFolders.some((dir) => isWithin(file, dir, false)));
  const entries = [
    ...vscodeFolders.map((dir) => (isFolder(dir) || path.dirname(dir) === cwd ? dir : path.join(dir, 'mcp.json'))),
    ...folders.map((f) => path.join(f, '.mcp.json')),
    ...others,
  ];
  return [...new Set(entries)];
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The entries once each, less those inside a folder also denied: bubblewrap
 * cannot make the mount point of a missing file in a folder already read-only,
 * and the sandbox would not start.
 */
function withoutNested(entries: readonly string[], home: string, cwd: string): string[] {
  const resolved = entries.map((entry) => (GLOB.test(entry) ? undefined : realish(ruleEntry(entry, home, cwd))));
  const deniedFolders = resolved.filter((entry): entry is string => entry !== undefined && isFolder(entry));
  return [
    ...new Set(entries.filter((_, i) => !deniedFolders.some((dir) => resolved[i] !== undefined && isWithin(resolved[i]!, dir, false)))),
  ];
}

/**
 * The folder the server may write as its own: its `cwd` when that is in the
 * workspace, else none; without a `cwd`, the workspace folder of its file.
 */
function writableWorkFolder(
  cwd: string | undefined,
  folder: string | undefined,
  folders: readonly string[],
  home: string,
  log: ((line: string) => void) | undefined,
): string | undefined {
  if (cwd === undefined) return folder === undefined ? undefined : realish(folder);
  const where = realish(path.resolve(expandHome(cwd, home)));
  if (folders.some((f) => isWithin(where, f, true))) return where;
  log?.(`[elicit] its cwd (${cwd}) is outside the workspace: the sandbox does not let it write there`);
  return undefined;
}

/**
 * The writable folders the runtime binds as they are (no glob, no symlink):
 * the only ones a pinned folder may be inside, so pinning never widens a write.
 */
function writableRoots(allowWrite: readonly string[], home: string, cwd: string): string[] {
  const roots: string[] = [];
  for (const entry of allowWrite) {
    if (GLOB.test(entry)) continue;
    const absolute = ruleEntry(entry, home, cwd);
    try {
      if (realpathSync(absolute) === absolute.replace(/\/+$/, '') && statSync(absolute).isDirectory()) roots.push(absolute);
    } catch {
      // Missing: the runtime leaves it read-only.
    }
  }
  return roots;
}

/**
 * The folders `denyRead` hides (a glob: the folder before it). The runtime
 * binds a writable folder or a denied file in one of them back over what hides
 * it, so neither is added there: it would show it again.
 */
function readDenied(denyRead: readonly string[], home: string, cwd: string): string[] {
  return denyRead.map((entry) => {
    const glob = entry.search(GLOB);
    const fixed = glob === -1 ? entry : path.dirname(entry.slice(0, glob) + 'x');
    return realish(ruleEntry(fixed, home, cwd));
  });
}

/**
 * Each real folder between a writable root and a denied file (the root
 * excluded), parents first: bound again as itself, writable as before, it is
 * a mount point, which cannot be renamed, so the denied file cannot be moved
 * away with its folder and planted anew. Stops at the first part that is not a
 * real folder (missing: the runtime blocks making it; a symlink: it binds /dev/null there)
 * or is hidden by `denyRead`.
 */
function pinnedFolders(files: readonly string[], roots: readonly string[], hidden: readonly string[]): string[] {
  const pins = new Set<string>();
  for (const file of files) {
    for (const root of roots) {
      if (!isWithin(file, root, false)) continue;
      let current = root;
      for (const part of path.relative(root, path.dirname(file)).split(path.sep).filter(Boolean)) {
        current = path.join(current, part);
        if (hidden.some((dir) => isWithin(current, dir, true))) break;
        try {
          if (!lstatSync(current).isDirectory()) break;
        } catch {
          break;
        }
        pins.add(current);
      }
    }
  }
  return [...pins].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
}

/** The characters that make a rule's entry a glob. */
const GLOB = /[*?[\]]/;

/** A rule's entry as an absolute path, as the runtime reads it: `~` expanded, relative to where the server starts. */
function ruleEntry(entry: string, home: string, cwd: string): string {
  return path.resolve(cwd, expandHome(entry, home));
}

/** `~` and `~/…` as the runtime reads them. */
function expandHome(entry: string, home: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return entry;
}

/** The path with the symlinks of its longest existing part resolved, so it compares with what the runtime binds. */
function realish(file: string): string {
  const absolute = path.resolve(file);
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) return absolute;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  try {
    return path.join(realpathSync(existing), ...rest);
  } catch {
    return absolute;
  }
}

function isWithin(file: string, folder: string, orSame: boolean): boolean {
  const relative = path.relative(folder, file);
  if (relative === '') return orSame;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Whether an executable file of that name is in one of PATH's folders. */
function onPath(program: string, pathValue: string): boolean {
  return pathValue
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => {
      const file = path.join(dir, program);
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

/** One word for the runtime's shell: single quotes, a quote inside closed and escaped. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
