/**
 * Elicit's settings (`contributes.configuration` in package.json), typed, in
 * one place. Each read asks VS Code afresh, so a changed setting counts from
 * the next question, server start or agent session; numbers are clamped by
 * core/settingLimits.ts, the lists and tables are checked where they are parsed.
 */
import * as vscode from 'vscode';
import type { PresentationSetting } from '../core/form/presentation';
import { maxPendingFromSetting, timeoutMsFromSetting } from '../core/settingLimits';

/** Full setting ids, for `affectsConfiguration` and for opening the Settings editor at one. */
export const SETTING = {
  presentation: 'elicit.presentation',
  timeoutSeconds: 'elicit.timeoutSeconds',
  maxPendingPerAsker: 'elicit.maxPendingPerAsker',
  servers: 'elicit.servers',
  mcpJsonServers: 'elicit.mcpJsonServers',
  gatewayEnabled: 'elicit.gateway.enabled',
  gatewayPort: 'elicit.gateway.port',
  agents: 'elicit.agents',
} as const;

type SettingId = (typeof SETTING)[keyof typeof SETTING];

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
  /** `elicit.servers`: the user's server table, in mcp.json's `servers` shape (parsed by mcp/config.ts). */
  servers: (): Record<string, unknown> => read<Record<string, unknown>>(SETTING.servers) ?? {},
  /** `elicit.mcpJsonServers`: which servers of mcp.json Elicit connects (read by mcp/mcpJsonSelection.ts). */
  mcpJsonServers: (): unknown => read(SETTING.mcpJsonServers),
  gatewayEnabled: (): boolean => read(SETTING.gatewayEnabled, false),
  /** `elicit.gateway.port`; 0 is any free port. */
  gatewayPort: (): number => read(SETTING.gatewayPort, 0),
  /** `elicit.agents`: the agent table (parsed by acp/config.ts). */
  agents: (): unknown => read(SETTING.agents),
};
