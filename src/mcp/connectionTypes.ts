/**
 * What an MCP connection (connection.ts) offers its callers and is given by them: its options,
 * its status, how a tool call is made, and how a call's questions name it. Types and small pure
 * helpers only, so the connection's parts and the VS Code layer share them without importing the
 * connection.
 */
import type { ElicitRequest, ElicitResult } from '../core/request';
import type { UrlWaits } from '../core/broker/urlWaits';
import type { ServerConfig } from '../core/mcpConfig/serverConfig';
import type { LaunchConfig } from './launch';
import type { OAuthOptions } from './oauthSignIn';
import type { ExtensionTask } from './taskExtension';
import type { RoundKeeper } from './rounds';

export type ServerStatus = 'stopped' | 'starting' | 'running' | 'error';

/** How a tool call is made. */
export interface ToolCallOptions {
  /**
   * Whether its rounds are kept across a window reload (default true: the person ran it, and
   * answers it after). A caller whose call ends with the window (an agent through the gateway gets
   * an error and calls again) says false, or the tool would run for it twice.
   */
  keepRoundsAcrossReload?: boolean;
  /**
   * Who the call is for, when an agent made it ("claude, session 1a2b3c4d"): the server's questions
   * during the call say so ("github asks · tool create_issue · for claude, session 1a2b3c4d").
   */
  caller?: string;
}

/** What a question during a call is about: "tool create_issue", and who the call is for. */
export function callSubject(subject: string, caller: string | undefined): string {
  return caller === undefined ? subject : `${subject} · for ${caller}`;
}

/** The subject of a question's detail (callSubject's) when its call was for `caller`; undefined when it was not. */
export function subjectForCaller(detail: string | undefined, caller: string): string | undefined {
  const suffix = callSubject('', caller);
  return detail?.endsWith(suffix) ? detail.slice(0, -suffix.length) : undefined;
}

/** Where a connection's questions go: normally the broker's `ask`. */
export type AskFunction = (request: ElicitRequest) => Promise<ElicitResult>;

export interface ConnectionOptions {
  ask: AskFunction;
  /** One line of the server's stderr or of our own diagnostics. Never receives answers. */
  log: (line: string) => void;
  clientInfo?: { name: string; version: string };
  /** Extra environment for stdio servers (the configured `env` wins). */
  baseEnv?: Record<string, string | undefined>;
  /** Where `notifications/elicitation/complete` is delivered for URL-mode questions. */
  urlWaits?: UrlWaits;
  /**
   * What to start with: fills in `${input:…}` (asking the person) and reads `envFile`.
   * Without it, a server with inputs cannot start.
   */
  prepare?: (config: ServerConfig) => Promise<LaunchConfig>;
  /** OAuth for HTTP servers that require it; without it such a server fails with "Unauthorized". */
  oauth?: OAuthOptions;
  /**
   * The workspace folders, offered to the server as MCP roots (`roots/list`).
   * Without it Elicit does not declare the roots capability.
   */
  roots?: () => McpRoot[];
  /** Keeps 2026-07-28 rounds waiting for the person, so they survive a window reload. */
  rounds?: RoundKeeper;
  /** How long a stdio server may stay silent on the version probe before it is taken for a 2025-era server. */
  stdioProbeTimeoutMs?: number;
  /**
   * The person's language as an Accept-Language value (VS Code's display language), sent on
   * every request (draft SEP-2792) and as the Accept-Language header over HTTP.
   */
  acceptLanguage?: string;
  /**
   * Whether file fields are answered (`x-mcp-file`, draft SEP-2356/2631): declared as the
   * `fileInputs` capability when the connection opens. Read at each start.
   */
  fileInputs?: () => boolean;
  /**
   * Whether a question may be answered in the server's own app (draft SEP-3118, MCP Apps):
   * declared as `extensions["io.modelcontextprotocol/ui"].elicitation` when the connection opens.
   */
  appQuestions?: () => boolean;
}

/** A tool call the server runs as a task (the tasks extension), as the Servers view and the progress show it. */
export interface RunningTask {
  tool: string;
  status: ExtensionTask['status'];
  /** The server's own words: shown only as inert text. */
  statusMessage?: string;
}

export interface McpRoot {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}
