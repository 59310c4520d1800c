/**
 * The stdio transport for MCP servers. It frames messages with the SDK's own
 * ReadBuffer and serializeMessage, but starts the server in a process group of its
 * own (the SDK's StdioClientTransport cannot): stopping a server launched through
 * `npx`, `uvx` or a shell then also ends the real server and whatever it started.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { JSONRPCMessage, ReadBuffer, Transport } from '@modelcontextprotocol/client';
import type { McpSdk } from './loadSdk';
import {
  exitedWithin,
  forEachLine,
  hasExited,
  KILL_GRACE_MS,
  signalGroup,
  spawned,
  spawnInGroup,
  terminateGroup,
} from '../process/processGroup';

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;
  private heard = false;
  private exited = false;

  constructor(
    private readonly launch: StdioLaunch,
    private readonly stderrLine: (line: string) => void,
    /** The SDK's own newline-delimited JSON framing. */
    private readonly framing: Pick<McpSdk, 'ReadBuffer' | 'serializeMessage'>,
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The server's stderr. With `pid`, this also tells the SDK's version probe
   * that this is a local process (it recognises stdio transports by these two
   * accessors): a server that stays silent when probed is then a 2025-era
   * server, not an outage.
   */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport is already started');
    const child = spawnInGroup(this.launch.command, this.launch.args, { cwd: this.launch.cwd, env: this.launch.env });
    this.child = child;
    forEachLine(child.stderr, this.stderrLine);
    child.stdin?.on('error', (error) => this.onerror?.(error)); // EPIPE after a crash: 'close' reports the end.
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.received(chunk));
    child.on('close', () => {
      if (this.child === child) this.child = undefined;
      this.exited = true;
      this.onclose?.();
    });
    child.once('error', (error) => this.onerror?.(error));
    return spawned(child);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends stdin, as the MCP spec asks, and gives the server the grace time to exit; then
   * SIGTERM and SIGKILL to its whole group. The group is signalled even when the
   * server exited by itself, for anything it left running.
   */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      try {
        child.stdin?.end();
      } catch {
        // Already closed.
      }
      await exitedWithin(child, KILL_GRACE_MS);
      await terminateGroup(child);
    }
    this.buffer.clear();
  }

  /**
   * The server exited without ever sending a message: either it failed to
   * start, or it is a 2025-era server that ends on any request before
   * `initialize` (such as the version probe).
   */
  get exitedEarly(): boolean {
    return this.exited && !this.heard;
  }

  /** For deactivation, when there is no time for grace: SIGTERM to the group now. */
  terminateNow(): void {
    if (this.child && !hasExited(this.child)) signalGroup(this.child, 'SIGTERM');
  }

  private received(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // Over the SDK's 10 MB limit for one message: this server cannot be read any more.
      this.onerror?.(asError(error));
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (!message) return;
        this.heard = true;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC (a server logging to stdout): reported, then skipped.
        this.onerror?.(asError(error));
      }
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
