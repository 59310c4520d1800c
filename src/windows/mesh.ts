/**
 * Every Elicit window of one user on this machine, connected each to each.
 * Each window listens on its own socket (a named pipe on Windows)
 * in the per-user directory and finds the others by listing it, so no window
 * is a hub the others depend on. Sockets of windows that crashed are removed.
 * Between two windows one connection is kept: the one the window with the
 * smaller id opened.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Emitter } from '../core/events';
import { openPrivateDir } from './privateDir';
import { Peer } from './peer';
import {
  isWindowId,
  newWindowId,
  type QuestionSummary,
  type RemoteAnswer,
  type RemoteQuestion,
  type WindowInfo,
} from '../core/windows/protocol';

export interface MeshOptions {
  /** The per-user directory (see privateDir.ts). */
  dir: string;
  folder: string;
  /**
   * Takes another window's answer to one of this window's questions; resolves with the refusal, if any.
   * `device`: the paired device it was given on, through that window (its name only, for the history).
   */
  answer(questionId: number, answer: RemoteAnswer, from: WindowInfo, device?: string): Promise<string | undefined>;
  log?(line: string): void;
  /** How often windows say they are there; one is dropped after three silent beats. */
  heartbeatMs?: number;
  /** How often the directory is listed for windows that started. */
  scanMs?: number;
}

const SUFFIX = '.sock';
const posix = process.platform !== 'win32';

export class WindowMesh {
  readonly self: WindowInfo;
  private readonly peers = new Set<Peer>();
  private readonly dialing = new Set<string>();
  private own: QuestionSummary[] = [];
  /** This window's questions, changed while no other window listened: summarized when one connects or answers. */
  private ownLater: (() => QuestionSummary[]) | undefined;
  private readonly changes = new Emitter<void>();
  /** Fires when another window's questions change, or a window comes or goes. */
  readonly onDidChange = this.changes.event;
  private scanTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  private constructor(
    private readonly options: MeshOptions,
    private readonly key: Buffer,
    private readonly server: net.Server,
    self: WindowInfo,
  ) {
    this.self = self;
  }

  static async open(options: MeshOptions): Promise<WindowMesh> {
    const key = await openPrivateDir(options.dir);
    const self = { id: newWindowId(), folder: options.folder };
    const server = net.createServer();
    const mesh = new WindowMesh(options, key, server, self);
    server.on('connection', (socket) => mesh.adopt(socket, false));
    const address = socketAddress(options.dir, self.id);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => mesh.log(`[windows] listener: ${String(error)}`));
    if (posix) await fs.promises.chmod(address, 0o600);
    // On Windows the directory holds a marker per window, since named pipes cannot be listed there.
    else await fs.promises.writeFile(path.join(options.dir, self.id + SUFFIX), '');
    // Listening first, then listing: of two windows starting together, at least one finds the other.
    await mesh.scan();
    mesh.scanTimer = setInterval(() => void mesh.scan(), options.scanMs ?? 1_000);
    mesh.scanTimer.unref?.();
    return mesh;
  }

  /**
   * This window's questions, listed to every other window now and to each that connects later. Given
   * as a function, they are summarized only once another window is there to read them.
   */
  publish(questions: QuestionSummary[] | (() => QuestionSummary[])): void {
    if (typeof questions === 'function' && this.peers.size === 0) {
      this.ownLater = questions;
      return;
    }
    this.ownLater = undefined;
    this.own = typeof questions === 'function' ? questions() : questions;
    for (const peer of this.peers) peer.list(this.own);
  }

  private ownNow(): QuestionSummary[] {
    if (this.ownLater) {
      this.own = this.ownLater();
      this.ownLater = undefined;
    }
    return this.own;
  }

  /** The other windows' questions, window by window. */
  remote(): RemoteQuestion[] {
    const seen = new Set<string>();
    const list: RemoteQuestion[] = [];
    for (const peer of this.peers) {
      const window = peer.window;
      if (!window || seen.has(window.id)) continue;
      seen.add(window.id);
      for (const question of peer.questions) list.push({ window, question });
    }
    return list;
  }

  /** Sends an answer (given on `device`, when named) to the window that asked; rejects with its refusal, or when it is gone. */
  answer(windowId: string, questionId: number, answer: RemoteAnswer, device?: string): Promise<void> {
    const peer = [...this.peers].find((p) => p.window?.id === windowId);
    if (!peer) return Promise.reject(new Error('the window is gone'));
    return peer.answer(questionId, answer, device);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.scanTimer) clearInterval(this.scanTimer);
    for (const peer of [...this.peers]) peer.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (!posix) await fs.promises.rm(path.join(this.options.dir, this.self.id + SUFFIX), { force: true });
    this.changes.dispose();
  }

  /** Finds windows by their sockets; a socket nobody listens on any more is removed. */
  private async scan(): Promise<void> {
    if (this.disposed) return;
    let names: string[];
    try {
      names = await fs.promises.readdir(this.options.dir);
    } catch (error) {
      return this.log(`[windows] cannot list ${this.options.dir}: ${String(error)}`);
    }
    for (const name of names) {
      if (!name.endsWith(SUFFIX)) continue;
      const id = name.slice(0, -SUFFIX.length);
      if (!isWindowId(id) || id === this.self.id || this.dialing.has(id) || this.connectedTo(id)) continue;
      this.dial(id);
    }
  }

  private dial(id: string): void {
    this.dialing.add(id);
    const socket = net.connect(socketAddress(this.options.dir, id));
    const failed = (error: NodeJS.ErrnoException): void => {
      this.dialing.delete(id);
      // The window crashed without removing its socket.
      if (!this.disposed && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) void this.removeStale(id);
    };
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.off('error', failed);
      this.dialing.delete(id);
      this.adopt(socket, true, id);
    });
  }

  private async removeStale(id: string): Promise<void> {
    const file = path.join(this.options.dir, id + SUFFIX);
    try {
      if (posix && !(await fs.promises.lstat(file)).isSocket()) return;
      await fs.promises.rm(file, { force: true });
      this.log(`[windows] removed the socket of a window that is gone (${id})`);
    } catch {
      // Another window removed it first.
    }
  }

  private adopt(socket: net.Socket, outbound: boolean, expected?: string): void {
    if (this.disposed) {
      socket.destroy();
      return;
    }
    const peer: Peer = new Peer(socket, outbound, {
      key: this.key,
      self: this.self,
      expected,
      heartbeatMs: this.options.heartbeatMs ?? 500,
      answer: (questionId, answer, device): Promise<string | undefined> => this.answerForPeer(peer, questionId, answer, device),
      log: (line) => this.log(line),
    });
    this.peers.add(peer);
    peer.onReady(() => this.ready(peer));
    peer.onQuestions(() => this.changes.fire());
    peer.onClose(() => {
      this.peers.delete(peer);
      if (peer.window) this.changes.fire();
    });
  }

  private ready(peer: Peer): void {
    const id = peer.window!.id;
    const twin = [...this.peers].find((p) => p !== peer && p.window?.id === id);
    // Both windows found each other: both keep the connection the smaller id opened.
    if (twin && opener(twin, this.self.id, id) <= opener(peer, this.self.id, id)) return peer.close();
    twin?.close();
    peer.list(this.ownNow());
    this.changes.fire();
  }

  /** Only a question this window listed, and listed as answerable elsewhere, can be answered from another window. */
  private async answerForPeer(peer: Peer, questionId: number, answer: RemoteAnswer, device?: string): Promise<string | undefined> {
    const listed = this.ownNow().find((q) => q.id === questionId);
    if (!listed) return 'This question is no longer waiting.';
    if (!listed.answerable) return 'This question can only be answered in the window that asked it.';
    return this.options.answer(questionId, answer, peer.window!, device);
  }

  private connectedTo(id: string): boolean {
    return [...this.peers].some((p) => p.window?.id === id);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/** The id of the window that opened a connection. */
function opener(peer: Peer, self: string, other: string): string {
  return peer.outbound ? self : other;
}

function socketAddress(dir: string, id: string): string {
  if (posix) return path.join(dir, id + SUFFIX);
  const scope = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  return `\\\\.\\pipe\\elicit-${scope}-${id}`;
}
