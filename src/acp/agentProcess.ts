/**
 * The agent's process, apart from the protocol spoken over its stdio (as
 * mcp/stdioTransport.ts is for MCP servers): started in a process group of its
 * own (so stopping it also ends what it started through npx or a shell, and the
 * host watchdog ends the group if the extension host dies), its stderr logged
 * line by line with the last lines kept to explain a crash, and its exit
 * reported once those last lines have arrived.
 */
import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { endedWithin, forEachLine, spawned, spawnInGroup, terminateGroup } from '../process/processGroup';
import { errorText } from '../core/errors';

const STDERR_TAIL_LINES = 12;
/** How long an exited agent's stderr may take to deliver its last lines. */
const STDERR_DRAIN_MS = 200;
/** Stderr is taken to have caught up once it has been quiet this long (stderrSettled). */
const STDERR_QUIET_MS = 60;
/** The longest stderrSettled waits, however chatty the agent. */
const STDERR_SETTLE_MAX_MS = 500;

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class AgentProcess {
  private readonly child: ChildProcess;
  private readonly stderrTail: string[] = [];
  /** When the last stderr line arrived (performance.now()). */
  private lastStderrAt = -Infinity;
  private stderrEnded = false;
  /** Resolves when the process has exited and its stderr has been read to the end (or for STDERR_DRAIN_MS). */
  readonly exited: Promise<AgentExit>;

  /** `log` gets each stderr line, and a spawn error; `name` names the agent in that error. */
  constructor(
    name: string,
    command: string,
    args: readonly string[],
    options: { cwd?: string; env: Record<string, string> },
    log: (line: string) => void,
  ) {
    const child = spawnInGroup(command, [...args], options);
    this.child = child;
    child.on('error', (error) => log(`[elicit] ${name}: ${errorText(error)}`));
    child.stdin?.on('error', () => undefined); // EPIPE after a crash: the exit is what reports it.
    child.stderr?.once('end', () => (this.stderrEnded = true));
    forEachLine(child.stderr, (line) => {
      this.lastStderrAt = performance.now();
      log(line);
      this.stderrTail.push(line.length > 500 ? `${line.slice(0, 499)}…` : line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    });
    this.exited = new Promise<AgentExit>((resolve) => {
      child.once('exit', (code, signal) => {
        // Its last stderr lines may still be in the pipe, and they explain a crash.
        void endedWithin(child.stderr, STDERR_DRAIN_MS).then(() => resolve({ code, signal }));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The agent's last stderr lines: they often say why a request failed. */
  get stderrLines(): readonly string[] {
    return [...this.stderrTail];
  }

  /**
   * The last stderr lines once stderr has caught up: stdout and stderr are two pipes, so an error
   * answer on stdout can arrive before the lines the agent wrote to stderr just before it. Waits
   * until stderr has been quiet for a moment since this was asked (or has ended), at most half a second.
   */
  async stderrSettled(): Promise<readonly string[]> {
    const asked = performance.now();
    const deadline = asked + STDERR_SETTLE_MAX_MS;
    for (;;) {
      const now = performance.now();
      // Quiet since it was asked: a line already on its way arrives within the moment.
      const quietFor = now - Math.max(this.lastStderrAt, asked);
      if (this.stderrEnded || quietFor >= STDERR_QUIET_MS || now >= deadline) return this.stderrLines;
      await new Promise((resolve) => setTimeout(resolve, Math.min(STDERR_QUIET_MS - quietFor, deadline - now)));
    }
  }

  /** Resolves once the process runs; rejects with the spawn error (a missing command, say). */
  spawned(): Promise<void> {
    return spawned(this.child);
  }

  /** The agent's stdin and stdout as web streams, for the SDK's ndJsonStream. */
  streams(): { input: WritableStream<Uint8Array>; output: ReadableStream<Uint8Array> } {
    return {
      input: Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>,
      output: Readable.toWeb(this.child.stdout!) as unknown as ReadableStream<Uint8Array>,
    };
  }

  /** Closes its stdin and ends its whole process group; resolves when the process has exited. */
  async terminate(): Promise<void> {
    this.child.stdin?.end();
    await terminateGroup(this.child);
    await this.exited;
  }

  /** How it ended, for the person: the exit code or signal, then the last stderr lines. */
  describeExit({ code, signal }: AgentExit): string {
    const tail = this.stderrTail.length > 0 ? `\n${this.stderrTail.join('\n')}` : '';
    return `${code !== null ? `exited with code ${code}` : `was ended by ${signal ?? 'a signal'}`}.${tail}`;
  }
}
