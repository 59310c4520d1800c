/**
 * Elicit's settings (`contributes.configuration` in package.json), typed, in
 * one place. Each read asks VS Code afresh, so a changed setting counts from
 * the next question, server start or agent session; numbers are clamped by
 * core/settingLimits.ts, the lists and tables are checked where they are parsed.
 *
 * VS Code deep-merges object settings across scopes, so a workspace's
 * `.vscode/settings.json` could slip an `env` into the user's own entry of
 * `elicit.servers` or `elicit.agents`. Those tables are read per scope instead
 * (`inspect()`), each as a source of its own named by its settings file. The
 * gateway's settings open a listener and an agent's gateway URL receives its
 * key: they are `application` settings, read from the user's settings only.
 */
import * as vscode from 'vscode';
import { isObject } from '../core/json';
import type { PresentationSetting } from '../core/form/presentation';
import type { RememberSetting } from '../core/memory/answerMemory';
import { maxPendingFromSetting, timeoutMsFromSetting } from '../core/settingLimits';

/** Full setting ids, for `affectsConfiguration` and for opening the Settings editor at one. */
export const SETTING = {
  presentation: 'elicit.presentation',
  timeoutSeconds: 'elicit.timeoutSeconds',
  maxPendingPerAsker: 'elicit.maxPendingPerAsker',
  servers: 'elicit.servers',
  mcpJsonServers: 'elicit.mcpJsonServers',
  discovery: 'elicit.discovery',
  allWindows: 'elicit.allWindows',
  gatewayEnabled: 'elicit.gateway.enabled',
  gatewayPort: 'elicit.gateway.port',
  agents: 'elicit.agents',
  agentGateways: 'elicit.agentGateways',
  agentServers: 'elicit.agentServers',
  rememberAnswers: 'elicit.rememberAnswers',
  devicesEnabled: 'elicit.devices.enabled',
  devicesAddress: 'elicit.devices.address',
  devicesPort: 'elicit.devices.port',
  fileFields: 'elicit.experimental.fileFields',
  appQuestions: 'elicit.experimental.appQuestions',
} as const;

type SettingId = (typeof SETTING)[keyof typeof SETTING];

/** One scope's value of an object setting, named by the settings file it comes from. */
export interface ScopedTable {
  scope: 'user' | 'workspace';
  /** What a destination is keyed by: the settings file and the setting. */
  file: string;
  /** For messages: "the elicit.servers setting (User settings)". */
  source: string;
  value: Record<string, unknown>;
}

/**
 * The user's and the workspace's values of an object setting, apart. A
 * workspace value counts only in a trusted workspace (these settings are
 * `restricted`; `inspect()` does not apply that as `get()` does).
 */
function scopedTables(id: SettingId): ScopedTable[] {
  return scopedValues(vscode.workspace.getConfiguration('elicit').inspect<unknown>(id.slice('elicit.'.length)), id, {
    user: `the ${id} setting (User settings)`,
    workspace: (settingsFile) => `the ${id} setting (${vscode.workspace.asRelativePath(settingsFile, true)})`,
  });
}

/**
 * The legacy `mcp` key of VS Code's own settings (`{ servers, inputs }`), user
 * and workspace apart. In a multi-root workspace the workspace value is the
 * `.code-workspace` file's `settings.mcp`: its `mcp` section. Not read from an
 * untrusted workspace.
 */
export function legacyMcpSettings(): ScopedTable[] {
  return scopedValues(vscode.workspace.getConfiguration().inspect<unknown>('mcp'), 'mcp', {
    user: 'User settings (mcp)',
    // As VS Code labels them: the workspace file by its name, a folder's settings by their path.
    workspace: (settingsFile) =>
      vscode.workspace.workspaceFile
        ? settingsFile.path.slice(settingsFile.path.lastIndexOf('/') + 1)
        : `${vscode.workspace.asRelativePath(settingsFile, true)} (mcp)`,
  });
}

/** The object values of one setting, user and (trusted) workspace apart, each named for messages. */
function scopedValues(
  inspected: { globalValue?: unknown; workspaceValue?: unknown } | undefined,
  id: string,
  names: { user: string; workspace: (settingsFile: vscode.Uri) => string },
): ScopedTable[] {
  const tables: ScopedTable[] = [];
  const user = inspected?.globalValue;
  if (isObject(user)) tables.push({ scope: 'user', file: `settings:user#${id}`, source: names.user, value: user });
  const workspace = inspected?.workspaceValue;
  const settingsFile = workspaceSettingsFile();
  if (isObject(workspace) && vscode.workspace.isTrusted && settingsFile) {
    tables.push({ scope: 'workspace', file: `${settingsFile.toString()}#${id}`, source: names.workspace(settingsFile), value: workspace });
  }
  return tables;
}

/** Where workspace settings live: the .code-workspace file, or the one folder's .vscode/settings.json. */
export function workspaceSettingsFile(): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return vscode.workspace.workspaceFile ?? (folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json') : undefined);
}

/** An `application` setting: the user's value or the default, never a workspace's. */
function userOnly<T>(id: SettingId, fallback: T): T {
  const inspected = vscode.workspace.getConfiguration('elicit').inspect<T>(id.slice('elicit.'.length));
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

function read<T>(id: SettingId): T | undefined;
function read<T>(id: SettingId, fallback: T): T;
function read<T>(id: SettingId, fallback?: T): T | undefined {
  const config = vscode.workspace.getConfiguration('elicit');
  const key = id.slice('elicit.'.length);
  return fallback === undefined ? config.get<T>(key) : config.get<T>(key, fallback);
}

export const settings = {
  /** `elicit.presentation`: which renderer a question gets ('auto' chooses by the form's size). */
  presentation: (): PresentationSetting => read<PresentationSetting>(SETTING.presentation, 'auto'),
  /** `elicit.timeoutSeconds` in milliseconds. */
  timeoutMs: (): number => timeoutMsFromSetting(read(SETTING.timeoutSeconds)),
  maxPendingPerAsker: (): number => maxPendingFromSetting(read(SETTING.maxPendingPerAsker)),
  /** `elicit.servers` per scope, each in mcp.json's `servers` shape (parsed by core/serverConfig.ts). */
  servers: (): ScopedTable[] => scopedTables(SETTING.servers),
  /** `elicit.mcpJsonServers`: which servers of mcp.json Elicit connects (read by mcp/mcpJsonSelection.ts). */
  mcpJsonServers: (): unknown => read(SETTING.mcpJsonServers),
  /** `elicit.discovery`: which other tools' server files to read; it reads the person's files, so user settings only. */
  discovery: (): Record<string, unknown> => {
    const value = userOnly<unknown>(SETTING.discovery, {});
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  },
  gatewayEnabled: (): boolean => userOnly(SETTING.gatewayEnabled, false),
  /** `elicit.allWindows`: one queue across every window; it opens a socket, so user settings only. */
  allWindows: (): boolean => userOnly(SETTING.allWindows, true),
  /** `elicit.gateway.port`; 0 is any free port. */
  gatewayPort: (): number => userOnly(SETTING.gatewayPort, 0),
  /**
   * `elicit.agentServers` (read by acp/agentServers.ts): the user's value and a trusted workspace's, apart,
   * since a workspace may only narrow which servers an agent gets, never widen it.
   */
  agentServers: (): { user?: unknown; workspace?: unknown } => {
    const inspected = vscode.workspace.getConfiguration('elicit').inspect<unknown>('agentServers');
    return {
      user: inspected?.globalValue,
      ...(vscode.workspace.isTrusted ? { workspace: inspected?.workspaceValue } : {}),
    };
  },
  /** `elicit.agents` per scope (parsed by acp/config.ts). */
  agents: (): ScopedTable[] => scopedTables(SETTING.agents),
  /**
   * `elicit.agentGateways` (agent name → gateway URL, parsed by acp/modelGateway.ts): where an agent's key goes,
   * so an `application` setting read from the user's settings only.
   */
  agentGateways: (): unknown => userOnly<unknown>(SETTING.agentGateways, {}),
  /** `elicit.rememberAnswers`: an application setting, so a workspace can never make Elicit answer for the person. */
  rememberAnswers: (): RememberSetting => {
    const value = userOnly<string>(SETTING.rememberAnswers, 'always');
    return value === 'off' || value === 'session' ? value : 'always';
  },
  /**
   * `elicit.experimental.fileFields` (draft SEP-2356/2631): a server may ask for a file from the person's
   * disk, so the person turns it on, in their user settings only.
   */
  fileFields: (): boolean => userOnly(SETTING.fileFields, false),
  /**
   * `elicit.experimental.appQuestions` (draft SEP-3118): a server's own page is run for its question,
   * so the person turns it on, in their user settings only.
   */
  appQuestions: (): boolean => userOnly(SETTING.appQuestions, false),
  /** `elicit.devices.enabled`: answering on paired devices opens a listener, so user settings only. */
  devicesEnabled: (): boolean => userOnly(SETTING.devicesEnabled, false),
  /** `elicit.devices.address`: '' (ask), an IP address, or 'forwarded' (VS Code's own forwarding). */
  devicesAddress: (): string => {
    const value = userOnly<unknown>(SETTING.devicesAddress, '');
    return typeof value === 'string' ? value.trim() : '';
  },
  /** `elicit.devices.port`; 0 is a free port, remembered. */
  devicesPort: (): number => {
    const value = userOnly<unknown>(SETTING.devicesPort, 0);
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535 ? value : 0;
  },
};

/** A setting's reader that reads VS Code's configuration again only after that setting changed. */
export interface ReadOnChange<T> extends vscode.Disposable {
  (): T;
}

/**
 * For settings read on every question's path (the broker's, the answer memory's): with many servers
 * asking, a burst of questions read the configuration thousands of times a second, and each read walks
 * every scope (the soak's CPU profile found it in the host's long blocks).
 */
export function readOnChange<T>(id: SettingId, readValue: () => T): ReadOnChange<T> {
  let cached: { value: T } | undefined;
  const listener = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(id)) cached = undefined;
  });
  const reader = (() => (cached ??= { value: readValue() }).value) as ReadOnChange<T>;
  reader.dispose = () => listener.dispose();
  return reader;
}
