/**
 * Every place this window's MCP servers are configured, read: each workspace
 * folder's `.vscode/mcp.json` and `.mcp.json`, the workspace's `mcp` section
 * (a `.code-workspace` file's, or a folder's legacy `mcp` setting), the user
 * profile's `mcp.json` (the window's profile; in a remote window the remote
 * user's file, where Elicit's servers run), Copilot CLI's
 * `$COPILOT_HOME/mcp-config.json`, the legacy `mcp` user setting, and
 * `elicit.servers`. Each source is parsed apart, so a broken one costs only its
 * own servers, and each config knows its file (its origin: grants, saved inputs
 * and remembered answers never cross files).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  parseMcpConfig,
  parseMcpSection,
  parseServerTable,
  type ConfigOrigin,
  type ParsedConfig,
  type VariableContext,
} from '../../../core/mcpConfig/serverConfig';
import { parsePortableConfig } from '../../../core/mcpConfig/portableConfig';
import type { SourceKind } from '../../../core/mcpConfig/configSources';
import { profileForWorkspace } from '../../../core/mcpConfig/userProfile';
import { OTHER_TOOLS, OTHER_TOOL_NAMES, type OtherTool } from '../../../core/mcpConfig/otherToolNames';
import type { OtherToolFile } from '../../../core/mcpConfig/otherTools';
import { loadOtherTools } from './loadOtherTools';
import { localFolders } from '../../localFolders';
import { legacyMcpSettings, SETTING, settings, workspaceSettingsFile } from '../../settings';

/** One source, read. */
export interface SourceRead {
  kind: SourceKind;
  /** How it is named to the person and in problems: "app/.mcp.json", "User mcp.json". */
  name: string;
  /** Shorter, where a row or a title has little room: "elicit.servers" for "the elicit.servers setting (User settings)". */
  shortName?: string;
  /** The file, for "Open File" (a setting's file when it comes from settings). */
  file?: vscode.Uri;
  /** A source of the workspace: its servers are never started in an untrusted workspace. */
  workspace: boolean;
  origin: ConfigOrigin;
  parsed: ParsedConfig;
}

/** Where the files outside the workspace are. */
export interface SourceLocations {
  /** The folder of the default profile's user files (`<user data>/User`): globalStorageUri/../.. */
  userFolder?: vscode.Uri;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** VS Code's install folder (`vscode.env.appRoot`): its sandbox runtime runs sandboxed servers. */
  appRoot?: string;
}

export function defaultLocations(globalStorageUri: vscode.Uri | undefined): SourceLocations {
  return {
    userFolder: globalStorageUri ? vscode.Uri.joinPath(globalStorageUri, '..', '..') : undefined,
    env: process.env,
    home: os.homedir(),
    appRoot: vscode.env.appRoot,
  };
}

/** Copilot CLI's user file, as VS Code finds it: `$COPILOT_HOME/mcp-config.json`, else `~/.copilot/mcp-config.json`. */
function copilotConfigFile(locations: SourceLocations): vscode.Uri {
  const home = locations.env.COPILOT_HOME || path.join(locations.home, '.copilot');
  return vscode.Uri.file(path.join(home, 'mcp-config.json'));
}

/** The window's user `mcp.json` and its label; undefined when there is no user folder (tests without one). */
export async function userMcpJson(locations: SourceLocations): Promise<{ file: vscode.Uri; name: string; remote: boolean } | undefined> {
  const folder = locations.userFolder;
  if (!folder) return undefined;
  // A remote window's extension host sees the remote's user folder only, which has no profiles.
  if (vscode.env.remoteName && !isCodeServer()) {
    return { file: vscode.Uri.joinPath(folder, 'mcp.json'), name: `Remote user mcp.json (${vscode.env.remoteName})`, remote: true };
  }
  const storage = await readText(vscode.Uri.joinPath(folder, 'globalStorage', 'storage.json'));
  const keys = [vscode.workspace.workspaceFile, ...(vscode.workspace.workspaceFolders ?? []).slice(0, 1).map((f) => f.uri)]
    .filter((uri): uri is vscode.Uri => uri !== undefined)
    .map((uri) => uri.toString());
  const profile = profileForWorkspace(storage, keys);
  if (profile.location === undefined) return { file: vscode.Uri.joinPath(folder, 'mcp.json'), name: 'User mcp.json', remote: false };
  const location = /^[a-z][a-z0-9+.-]*:/i.test(profile.location)
    ? vscode.Uri.joinPath(vscode.Uri.parse(profile.location), 'mcp.json')
    : vscode.Uri.joinPath(folder, 'profiles', profile.location, 'mcp.json');
  return { file: location, name: `User mcp.json (${profile.name ?? profile.location} profile)`, remote: false };
}

/** code-server is VS Code in a browser whose user files are the server's own: its profile's file is the one this host sees. */
function isCodeServer(): boolean {
  return vscode.env.appName.toLowerCase().includes('code-server');
}

/** What one source reader is given: where things are, and what the readers before it read. */
interface ReadContext {
  locations: SourceLocations;
  /** The workspace's first folder, where settings' servers run. */
  firstFolder: string | undefined;
  /** The reads of the rows above, for a source read only where none of them says the same. */
  earlier: readonly SourceRead[];
  /** What `${workspaceFolder}`, `${userHome}` and `${env:…}` stand for in a server of `workspaceFolder`. */
  variables(workspaceFolder: string | undefined): VariableContext;
}

/** What a source reader read, and the files outside the workspace it looked for, existing or not: the ones to watch. */
interface ReaderResult {
  reads: SourceRead[];
  outsideFiles?: vscode.Uri[];
}

/** One kind of source: how it is read, and how a change to it is seen. */
interface SourceReader {
  read(context: ReadContext): Promise<ReaderResult>;
  /** The workspace's files it reads, wherever a folder is: any change reloads. */
  workspaceFiles?: readonly string[];
  /** The settings it reads: a change to any reloads. */
  settings?: readonly string[];
}

/** Each workspace folder's `.vscode/mcp.json` and `.mcp.json`, folder by folder. */
const folderFiles: SourceReader = {
  workspaceFiles: ['**/.vscode/mcp.json', '**/.mcp.json'],
  async read({ variables }) {
    const reads: SourceRead[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const mcpJson = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
      const dotMcpJson = vscode.Uri.joinPath(folder.uri, '.mcp.json');
      const [mcpText, dotText] = await Promise.all([readText(mcpJson), readText(dotMcpJson)]);
      const origin = (file: vscode.Uri): ConfigOrigin => ({ file: file.toString(), folder: folder.uri.fsPath });
      if (mcpText !== undefined) {
        const label = vscode.workspace.asRelativePath(mcpJson, true);
        const parsed = parseMcpConfig(mcpText, label, variables(folder.uri.fsPath));
        reads.push({ kind: 'folderMcpJson', name: label, file: mcpJson, workspace: true, origin: origin(mcpJson), parsed });
      }
      if (dotText !== undefined) {
        const label = vscode.workspace.asRelativePath(dotMcpJson, true);
        const parsed = parsePortableConfig(dotText, label, { defaultCwd: folder.uri.fsPath });
        reads.push({ kind: 'folderDotMcpJson', name: label, file: dotMcpJson, workspace: true, origin: origin(dotMcpJson), parsed });
      }
    }
    return { reads };
  },
};

/** The window's user `mcp.json` (its profile's, or the remote user's). */
const userFile: SourceReader = {
  async read({ locations, variables }) {
    const user = await userMcpJson(locations);
    if (!user) return { reads: [] };
    const text = await readText(user.file);
    if (text === undefined) return { reads: [], outsideFiles: [user.file] };
    const read: SourceRead = {
      kind: user.remote ? 'remoteUserMcpJson' : 'userMcpJson',
      name: user.name,
      file: user.file,
      workspace: false,
      origin: { file: user.file.toString() },
      parsed: parseMcpConfig(text, user.name, variables(undefined)),
    };
    return { reads: [read], outsideFiles: [user.file] };
  },
};

/**
 * VS Code's `mcp` configuration section is its mcp.json files (user; a single folder's .vscode/mcp.json)
 * plus what is left of the legacy `mcp` key in settings. Read as a source of its own only where no file
 * above says the same: a multi-root workspace's .code-workspace section, a user mcp.json not found where
 * the profile's should be, a single folder's legacy key without a .vscode/mcp.json.
 */
const legacyMcpSetting: SourceReader = {
  settings: ['mcp'],
  async read({ earlier, firstFolder, variables }) {
    const folderHasMcpJson = earlier.some((read) => read.kind === 'folderMcpJson');
    const userFileRead = earlier.some((read) => read.kind === 'userMcpJson' || read.kind === 'remoteUserMcpJson');
    const reads: SourceRead[] = [];
    for (const table of legacyMcpSettings()) {
      const workspace = table.scope === 'workspace';
      if (workspace ? !vscode.workspace.workspaceFile && folderHasMcpJson : userFileRead) continue;
      reads.push({
        kind: workspace ? 'workspaceMcp' : 'userSettingsMcp',
        name: table.source,
        file: workspace ? workspaceSettingsFile() : undefined,
        workspace,
        origin: { file: table.file, ...(workspace && firstFolder ? { folder: firstFolder } : {}) },
        parsed: parseMcpSection(table.value, table.source, variables(workspace ? firstFolder : undefined)),
      });
    }
    return { reads };
  },
};

/** Copilot CLI's user file. */
const copilotFile: SourceReader = {
  async read({ locations }) {
    const copilot = copilotConfigFile(locations);
    const text = await readText(copilot);
    if (text === undefined) return { reads: [], outsideFiles: [copilot] };
    const label = tildePath(copilot.fsPath, locations.home);
    const read: SourceRead = {
      kind: 'copilotConfig',
      name: label,
      file: copilot,
      workspace: false,
      origin: { file: copilot.toString() },
      parsed: parsePortableConfig(text, label, {}),
    };
    return { reads: [read], outsideFiles: [copilot] };
  },
};

/** The files of the other tools the person turned on (`elicit.discovery`), each a source of its own. */
const otherToolsFiles: SourceReader = {
  settings: [SETTING.discovery],
  async read({ locations }) {
    const files = otherToolLocations(enabledOtherTools(), locations);
    return { reads: await readOtherToolFiles(files, locations), outsideFiles: files.map((where) => vscode.Uri.file(where.file)) };
  },
};

/** `elicit.servers`: each scope apart, named by its settings file, so a workspace's entry never changes the user's (settings.ts). */
const elicitServersSetting: SourceReader = {
  settings: [SETTING.servers],
  read({ firstFolder, variables }) {
    const reads = settings.servers().map((table): SourceRead => {
      const workspace = table.scope !== 'user';
      return {
        kind: 'elicitSetting',
        name: table.source,
        shortName: workspace
          ? `elicit.servers (${table.source.replace(/^the elicit\.servers setting \((.*)\)$/, '$1')})`
          : 'elicit.servers',
        workspace,
        origin: { file: table.file },
        parsed: parseServerTable(table.value, table.source, variables(workspace ? firstFolder : undefined)),
      };
    });
    return Promise.resolve({ reads });
  },
};

/** Every kind of source, in the order they are read (a reader may look at the reads above it). */
const SOURCE_READERS: readonly SourceReader[] = [
  folderFiles,
  userFile,
  legacyMcpSetting,
  copilotFile,
  otherToolsFiles,
  elicitServersSetting,
];

/** What the sources are watched by, besides the files outside the workspace that readSources names. */
export const SOURCE_WATCH = {
  /** The workspace's own files, wherever a folder is: any change reloads. */
  workspaceFiles: SOURCE_READERS.flatMap((reader) => reader.workspaceFiles ?? []),
  /** The settings sources are read from. */
  settings: SOURCE_READERS.flatMap((reader) => reader.settings ?? []),
};

/**
 * Every source of this window, in no particular order (core/mcpConfig/configSources.ts
 * orders them), and the files outside the workspace it looked for, existing or not:
 * the ones to watch.
 */
export async function readSources(locations: SourceLocations): Promise<{ reads: SourceRead[]; outsideFiles: vscode.Uri[] }> {
  const reads: SourceRead[] = [];
  const outsideFiles: vscode.Uri[] = [];
  const context: ReadContext = {
    locations,
    firstFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    earlier: reads,
    variables: (workspaceFolder) => ({ workspaceFolder, userHome: locations.home, env: locations.env }),
  };
  for (const reader of SOURCE_READERS) {
    const result = await reader.read(context);
    reads.push(...result.reads);
    outsideFiles.push(...(result.outsideFiles ?? []));
  }
  return { reads, outsideFiles };
}

/**
 * Every file this window reads servers from, by path, whether it exists yet or
 * not, and every other tool's file whether that tool is turned on or not: a
 * sandboxed server may write none of them (mcp/sandboxLaunch.ts), or it could
 * add a server that Elicit, VS Code or that tool runs outside any sandbox.
 */
export async function serverConfigFiles(locations: SourceLocations): Promise<string[]> {
  const folders = localFolders().map((f) => f.uri.fsPath);
  const files = folders.flatMap((folder) => [
    path.join(folder, '.vscode', 'mcp.json'),
    path.join(folder, '.vscode', 'settings.json'),
    path.join(folder, '.mcp.json'),
  ]);
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') files.push(workspaceFile.fsPath);
  // The user's mcp.json and settings (elicit.servers, the legacy `mcp` key): the default profile's and the window's.
  const user = await userMcpJson(locations);
  for (const file of [locations.userFolder && vscode.Uri.joinPath(locations.userFolder, 'mcp.json'), user?.file]) {
    if (file?.scheme === 'file') files.push(file.fsPath, path.join(path.dirname(file.fsPath), 'settings.json'));
  }
  files.push(copilotConfigFile(locations).fsPath);
  const { otherToolFiles } = loadOtherTools();
  const facts = { home: locations.home, platform: process.platform, env: locations.env, folders };
  files.push(...OTHER_TOOLS.flatMap((tool) => otherToolFiles(tool, facts)).map((where) => where.file));
  return [...new Set(files)];
}

/** The other tools the person turned on (`elicit.discovery`). */
function enabledOtherTools(): OtherTool[] {
  const chosen = settings.discovery();
  return OTHER_TOOLS.filter((tool) => chosen[tool] === true);
}

/** The files of these tools on this machine (they may not exist). */
function otherToolLocations(tools: readonly OtherTool[], locations: SourceLocations): OtherToolFile[] {
  if (tools.length === 0) return [];
  const { otherToolFiles } = loadOtherTools();
  const facts = { home: locations.home, platform: process.platform, env: locations.env, folders: localFolders().map((f) => f.uri.fsPath) };
  return tools.flatMap((tool) => otherToolFiles(tool, facts));
}

/** The servers of these tools' files that exist, each file a source of its own. */
export function readOtherTools(tools: readonly OtherTool[], locations: SourceLocations): Promise<SourceRead[]> {
  return readOtherToolFiles(otherToolLocations(tools, locations), locations);
}

async function readOtherToolFiles(files: readonly OtherToolFile[], locations: SourceLocations): Promise<SourceRead[]> {
  const reads: SourceRead[] = [];
  if (files.length === 0) return reads;
  const { parseOtherTool } = loadOtherTools();
  const folders = localFolders().map((f) => f.uri.fsPath);
  for (const where of files) {
    const file = vscode.Uri.file(where.file);
    const text = await readText(file);
    if (text === undefined) continue;
    const shown = where.folder ? vscode.workspace.asRelativePath(file, true) : tildePath(where.file, locations.home);
    const name = `${OTHER_TOOL_NAMES[where.tool]} (${shown})`;
    reads.push({
      kind: 'otherTool',
      name,
      shortName: OTHER_TOOL_NAMES[where.tool],
      file,
      workspace: where.folder !== undefined,
      origin: { file: file.toString(), ...(where.folder ? { folder: where.folder } : {}) },
      parsed: parseOtherTool(where, text, name, { env: locations.env, folders }),
    });
  }
  return reads;
}

/** "~/.copilot/mcp-config.json" for a file in the home folder. */
function tildePath(file: string, home: string): string {
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined; // No such file.
  }
}
