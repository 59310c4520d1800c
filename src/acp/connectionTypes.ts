/**
 * What an ACP connection (connection.ts) shares with its parts (agentQuestions.ts,
 * workspaceRequests.ts) and its callers: the options it is built with, the events
 * it reports, a permission prompt and its answer.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { ElicitRequest, ElicitResult } from '../core/request';
import type { UrlWaits } from '../core/broker/urlWaits';
import type { TerminalSnapshot } from './terminals';

/** Elicitation method names: the stable ones and those of agents built on spring-2026 SDKs. */
export const ELICITATION_METHODS = ['elicitation/create', 'session/elicitation'] as const;
export const COMPLETION_METHODS = ['elicitation/complete', 'session/elicitation/complete'] as const;

export type AskFunction = (request: ElicitRequest) => Promise<ElicitResult>;

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: string;
}

export interface PermissionPrompt {
  agent: string;
  sessionId: string;
  toolCallId: string;
  /** The tool call's title (from the request, or from the session's earlier updates). */
  toolTitle: string;
  toolKind?: string;
  /** The command it wants to run, when the tool call says (permissionDetails.ts). */
  command?: string;
  options: PermissionOptionView[];
}

export type PermissionChoice = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };
export const PERMISSION_CANCELLED: PermissionChoice = Object.freeze({ outcome: 'cancelled' });

/** Thrown by `readTextFile` for a file that does not exist (answered with ACP's -32002). */
export class FileNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileNotFoundError';
  }
}

export interface AcpClientOptions {
  /** Where questions go: normally the broker's `ask`. */
  ask: AskFunction;
  /** Shows the agent's options and resolves with the person's choice; closes its UI when `signal` aborts. */
  permission(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice>;
  /** The whole text of a file as the editor holds it (unsaved changes included). */
  readTextFile(path: string, signal: AbortSignal): Promise<string>;
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>;
  /** The folders the agent may read and write in. */
  roots(): readonly string[];
  /** One line of the agent's stderr or of our own diagnostics. Never receives answers. */
  log(line: string): void;
  /** Where `elicitation/complete` is delivered for URL-mode questions. */
  urlWaits?: UrlWaits;
  clientInfo?: { name: string; version: string };
  /** The environment the agent starts from (the configured `env` wins); process.env by default. */
  baseEnv?: Record<string, string | undefined>;
  /** The process's working directory when the configuration gives none. */
  defaultCwd?: string;
  /**
   * Variables added to the agent's environment only (not to the commands it runs
   * in terminals): the keys of an env_var sign-in. Never logged.
   */
  secretEnv?: Record<string, string>;
  /** Declares `auth.terminal`: the caller can run an agent's terminal login. */
  terminalLogins?: boolean;
}

/** What a question looked like, for the transcript. */
export interface QuestionInfo {
  method: string;
  mode: string;
  message: string;
  toolCallId?: string;
  requestedSchema?: unknown;
  /** The agent keeps working while the person answers (codex's `_meta.codex.delivery: "async"`). */
  nonBlocking?: boolean;
  url?: string;
  elicitationId?: string;
  /** The agent's own timer (codex's autoResolutionMs): when it goes on without the answer, epoch ms. */
  autoResolvesAt?: number;
}

export type AcpEvent =
  | { kind: 'update'; sessionId: string; update: acp.SessionUpdate }
  /** Sent when asked (no `choice`) and again when answered. */
  | { kind: 'permission'; id: number; sessionId: string; prompt: PermissionPrompt; choice?: PermissionChoice }
  /** Sent when asked (no `result`) and again when answered or refused (`error`). */
  | { kind: 'question'; id: number; sessionId?: string; info: QuestionInfo; result?: ElicitResult; error?: string }
  /** A non-blocking question still open when its turn ended: an answer would no longer reach the agent. */
  | { kind: 'questionTurnEnded'; id: number; sessionId?: string }
  | { kind: 'completed'; elicitationId: string }
  | { kind: 'file'; sessionId: string; action: 'read' | 'write'; path: string; error?: string }
  /** A terminal the agent runs got output or exited. */
  | { kind: 'terminal'; terminal: TerminalSnapshot }
  /** The process ended; `expected` when Elicit stopped it. */
  | { kind: 'exit'; message: string; expected: boolean };

export type AgentProcessStatus = 'stopped' | 'starting' | 'running' | 'exited';

export interface OpenRequest {
  sessionId?: string;
  controller: AbortController;
}

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

/** `session/new` was refused until the person signs in with one of `AcpConnection.authMethods`. */
export class AuthRequiredError extends Error {}

/** Whether a request failed for want of a sign-in: AuthRequiredError, or ACP's code on a request `request()` does not map (a turn). */
export function isAuthRequired(error: unknown): boolean {
  return error instanceof AuthRequiredError || (error as { code?: unknown } | undefined)?.code === AUTH_REQUIRED;
}
