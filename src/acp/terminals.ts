/**
 * Terminals an ACP agent asks the client to run (`terminal/create` and the
 * rest): a command in a process group of its own, its stdout and stderr kept as
 * one text up to a byte limit (older output is dropped from the start, at a
 * character boundary, as the spec asks), and its exit status. No `vscode`
 * import: the agent panel shows the output from the events this emits.
 */
import type { ChildProcess } from 'node:child_process';
import { Emitter } from '../core/events';
import { hasExited, spawned, spawnInGroup, terminateGroup } from '../process/processGroup';

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalLaunch {
  sessionId: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** The agent's `outputByteLimit`; Elicit never keeps more than MAX_OUTPUT_BYTES. */
  outputByteLimit?: number;
}

export interface TerminalSnapshot {
  terminalId: string;
  sessionId: string;
  /** The command line, for the panel. */
  commandLine: string;
  output: string;
  truncated: boolean;
  exit?: TerminalExit;
}

/** What one terminal keeps when the agent sets no smaller limit. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
const REPORT_MS = 100;

class AgentTerminal {
  private chunks: Buffer[] = [];
  private reportTimer: ReturnType<typeof setTimeout> | undefined;
  private bytes = 0;
  private truncated = false;
  private exit: TerminalExit | undefined;
  readonly exited: Promise<TerminalExit>;

  constructor(
    readonly id: string,
    readonly launch: TerminalLaunch,
    private readonly child: ChildProcess,
    private readonly limit: number,
    private readonly changed: () => void,
  ) {
    child.stdin?.end(); // nothing is typed into an agent's terminal
    const take = (chunk: Buffer): void => this.append(chunk);
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) => {
      // 'close': after the output streams have ended, so the last output is in.
      child.once('close', (exitCode, signal) => {
        this.exit = { exitCode, signal };
        this.report();
        resolve(this.exit);
      });
      child.once('error', (error) => {
        this.append(Buffer.from(`${error.message}\n`));
        if (this.exit) return;
        this.exit = { exitCode: null, signal: null };
        this.report();
        resolve(this.exit);
      });
    });
  }

  snapshot(): TerminalSnapshot {
    const snapshot: TerminalSnapshot = {
      terminalId: this.id,
      sessionId: this.launch.sessionId,
      commandLine: [this.launch.command, ...this.launch.args].map(shellWord).join(' '),
      output: this.output(),
      truncated: this.truncated,
    };
    if (this.exit) snapshot.exit = this.exit;
    return snapshot;
  }

  /** Ends the command (and what it started); the output stays readable until release. */
  async kill(): Promise<void> {
    if (this.exit || hasExited(this.child)) return;
    await terminateGroup(this.child);
  }

  private append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes > this.limit) this.trimToLimit();
    // A chatty command writes many small chunks: the panel hears of them a few times a second.
    this.reportTimer ??= setTimeout(() => this.report(), REPORT_MS);
  }

  private report(): void {
    clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    this.changed();
  }

  /** Drops the oldest output beyond the limit: whole chunks first, so a chatty command copies little. */
  private trimToLimit(): void {
    while (this.chunks.length > 0 && this.bytes - this.chunks[0]!.length >= this.limit) this.bytes -= this.chunks.shift()!.length;
    let start = this.bytes - this.limit;
    // Never begin inside a UTF-8 sequence: skip its continuation bytes, into the next chunk if need be.
    while (this.chunks.length > 0) {
      const first = this.chunks[0]!;
      while (start < first.length && (first[start]! & 0xc0) === 0x80) start++;
      if (start < first.length) {
        this.chunks[0] = first.subarray(start);
        this.bytes -= start;
        break;
      }
      this.chunks.shift();
      this.bytes -= first.length;
      start = 0;
    }
    this.truncated = true;
  }

  private output(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export class AgentTerminals {
  private readonly terminals = new Map<string, AgentTerminal>();
  private nextId = 1;
  private readonly changes = new Emitter<TerminalSnapshot>();
  /** Output arrived or the command exited. */
  readonly onDidChange = this.changes.event;

  /** Starts the command; resolves once it runs, rejects when it cannot start. */
  async create(launch: TerminalLaunch): Promise<string> {
    const id = `term-${this.nextId++}`;
    const requested = launch.outputByteLimit;
    const limit =
      requested !== undefined && Number.isFinite(requested) && requested >= 0
        ? Math.min(Math.floor(requested), MAX_OUTPUT_BYTES)
        : MAX_OUTPUT_BYTES;
    const child = spawnInGroup(launch.command, launch.args, { cwd: launch.cwd, env: launch.env });
    await spawned(child);
    const terminal: AgentTerminal = new AgentTerminal(id, launch, child, limit, () => this.changes.fire(terminal.snapshot()));
    this.terminals.set(id, terminal);
    return id;
  }

  output(sessionId: string, terminalId: string): TerminalSnapshot {
    return this.get(sessionId, terminalId).snapshot();
  }

  waitForExit(sessionId: string, terminalId: string): Promise<TerminalExit> {
    return this.get(sessionId, terminalId).exited;
  }

  kill(sessionId: string, terminalId: string): Promise<void> {
    return this.get(sessionId, terminalId).kill();
  }

  /** Kills the command if it still runs and forgets the terminal. */
  async release(sessionId: string, terminalId: string): Promise<void> {
    const terminal = this.get(sessionId, terminalId);
    this.terminals.delete(terminalId);
    await terminal.kill();
  }

  /** The agent is gone: every command it left running ends. */
  async releaseAll(): Promise<void> {
    const all = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(all.map((t) => t.kill()));
  }

  /** A terminal of another session is as unknown as one that never existed. */
  private get(sessionId: string, terminalId: string): AgentTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal || terminal.launch.sessionId !== sessionId) throw new UnknownTerminalError(`no terminal ${terminalId} in this session`);
    return terminal;
  }
}

export class UnknownTerminalError extends Error {}

/** A word as a person would type it: quoted when it holds spaces or quotes. */
function shellWord(word: string): string {
  return word === '' || /[\s"'\\$`]/.test(word) ? JSON.stringify(word) : word;
}
