/**
 * One ACP connection's workspace requests: the agent reads and writes files through
 * the editor, and runs commands in terminals, all confined to the workspace folders.
 * The connection (connection.ts) routes the requests here.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { INVALID_PARAMS, errorText } from '../core/errors';
import { childEnvironment } from '../process/processGroup';
import { AgentTerminals, UnknownTerminalError } from './terminals';
import { confinePath, OutsideWorkspaceError, sliceLines } from './files';
import { FileNotFoundError, type AcpClientOptions, type AcpEvent } from './connectionTypes';

/** What the workspace requests use of their connection. */
export interface WorkspaceParts {
  readonly name: string;
  readonly options: AcpClientOptions;
  /** The agent's configured environment: its terminals start from it too. */
  readonly env: Record<string, string> | undefined;
  emit(event: AcpEvent): void;
  rpcError(code: number, message: string): Error;
  fileNotFound(file: string): Error;
}

export class WorkspaceRequests {
  readonly terminals = new AgentTerminals();

  constructor(private readonly parts: WorkspaceParts) {}

  async onRead(params: acp.ReadTextFileRequest, signal: AbortSignal): Promise<acp.ReadTextFileResponse> {
    const file = await this.confine(params.sessionId, 'read', params.path);
    try {
      const text = await this.parts.options.readTextFile(file, signal);
      this.parts.emit({ kind: 'file', sessionId: params.sessionId, action: 'read', path: file });
      return { content: sliceLines(text, params.line, params.limit) };
    } catch (error) {
      this.parts.emit({ kind: 'file', sessionId: params.sessionId, action: 'read', path: file, error: errorText(error) });
      if (error instanceof FileNotFoundError) throw this.parts.fileNotFound(file);
      throw this.parts.rpcError(-32603, `Could not read ${file}: ${errorText(error)}`);
    }
  }

  async onWrite(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const file = await this.confine(params.sessionId, 'write', params.path);
    try {
      await this.parts.options.writeTextFile(file, params.content, signal);
      this.parts.emit({ kind: 'file', sessionId: params.sessionId, action: 'write', path: file });
      return {};
    } catch (error) {
      this.parts.emit({ kind: 'file', sessionId: params.sessionId, action: 'write', path: file, error: errorText(error) });
      throw this.parts.rpcError(-32603, `Could not write ${file}: ${errorText(error)}`);
    }
  }

  /** `terminal/create`: the command runs in a workspace folder (the session's, unless it names another). */
  async onCreateTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const cwd = params.cwd ?? this.parts.options.defaultCwd ?? this.parts.options.roots()[0];
    if (cwd === undefined) throw this.parts.rpcError(INVALID_PARAMS, 'terminal/create needs a cwd: no workspace folder is open');
    let confined: string;
    try {
      confined = await confinePath(cwd, this.parts.options.roots());
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      this.parts.options.log(`[elicit] ${this.parts.name}: refused a terminal in ${String(cwd)}: outside the workspace`);
      throw this.parts.rpcError(INVALID_PARAMS, error.message);
    }
    const extra = Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value]));
    const launch = {
      sessionId: params.sessionId,
      command: params.command,
      args: params.args ?? [],
      cwd: confined,
      env: childEnvironment(this.parts.options.baseEnv ?? process.env, { ...this.parts.env, ...extra }),
      ...(typeof params.outputByteLimit === 'number' ? { outputByteLimit: params.outputByteLimit } : {}),
    };
    try {
      const terminalId = await this.terminals.create(launch);
      this.parts.options.log(`[elicit] ${this.parts.name}: terminal ${terminalId}: ${launch.command}`);
      return { terminalId };
    } catch (error) {
      throw this.parts.rpcError(-32603, `Could not run ${params.command}: ${errorText(error)}`);
    }
  }

  /** The other terminal methods: an unknown id (or one of another session) is -32602. */
  async onTerminal<T>(params: { terminalId: string }, run: (terminalId: string, terminals: AgentTerminals) => Promise<T> | T): Promise<T> {
    try {
      return await run(params.terminalId, this.terminals);
    } catch (error) {
      if (error instanceof UnknownTerminalError) throw this.parts.rpcError(INVALID_PARAMS, error.message);
      throw error;
    }
  }

  private async confine(sessionId: string, action: 'read' | 'write', requested: string): Promise<string> {
    try {
      return await confinePath(requested, this.parts.options.roots());
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      this.parts.emit({ kind: 'file', sessionId, action, path: String(requested), error: error.message });
      this.parts.options.log(`[elicit] ${this.parts.name}: refused to ${action} ${String(requested)}: outside the workspace`);
      throw this.parts.rpcError(INVALID_PARAMS, error.message);
    }
  }
}
