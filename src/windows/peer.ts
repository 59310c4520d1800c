/**
 * One authenticated connection to another window: the HMAC handshake, then
 * question lists, answers and heartbeats. Anything malformed, oversized, out of
 * turn or unauthenticated ends the connection; a peer never makes this window
 * throw.
 */
import type * as net from 'node:net';
import { Emitter } from '../core/events';
import {
  LineReader,
  ProtocolError,
  decode,
  encode,
  newNonce,
  proof,
  sameProof,
  type Message,
  type QuestionSummary,
  type RemoteAnswer,
  type WindowInfo,
} from '../core/windows/protocol';

export interface PeerOptions {
  key: Buffer;
  self: WindowInfo;
  /** Set when this side connected: the window the socket's name says is there. */
  expected?: string;
  heartbeatMs: number;
  /** Answers one of this window's questions for the peer (on `device`, when named); resolves with the refusal, if any. */
  answer(questionId: number, answer: RemoteAnswer, device?: string): Promise<string | undefined>;
  log(line: string): void;
}

/** Beats of silence after which a peer is taken for gone. */
const SILENT_BEATS = 4;
/** The peer's answers in flight are capped, so a peer cannot pile up work here. */
const MAX_ANSWERS_IN_FLIGHT = 8;

export class Peer {
  /** The peer's window, once it proved the key. */
  window: WindowInfo | undefined;
  /** The peer's questions, as it last listed them. */
  questions: QuestionSummary[] = [];
  private readonly reader = new LineReader();
  private readonly nonce = newNonce();
  private peerNonce: string | undefined;
  private readonly opened = Date.now();
  private lastHeard = Date.now();
  private readonly heartbeat: NodeJS.Timeout;
  private nextRequest = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private answersInFlight = 0;
  private closed = false;
  private readonly ready = new Emitter<Peer>();
  private readonly listed = new Emitter<Peer>();
  private readonly ended = new Emitter<Peer>();
  readonly onReady = this.ready.event;
  readonly onQuestions = this.listed.event;
  readonly onClose = this.ended.event;

  constructor(
    private readonly socket: net.Socket,
    readonly outbound: boolean,
    private readonly options: PeerOptions,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
    // Silence means the window hangs (a closed one closes its socket): its questions leave within a few beats.
    let lastBeat = Date.now();
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      // This process was blocked itself: what the peer sent meanwhile is not read yet, so it gets a fresh start.
      if (now - lastBeat > options.heartbeatMs * 2) this.lastHeard = now;
      lastBeat = now;
      if (!this.window && now - this.opened > options.heartbeatMs * SILENT_BEATS) return this.close('no handshake');
      if (now - this.lastHeard > options.heartbeatMs * SILENT_BEATS) {
        // Decided after the data already waiting is read (timers run before I/O).
        setImmediate(() => Date.now() - this.lastHeard > options.heartbeatMs * SILENT_BEATS && this.close('no heartbeat'));
        return;
      }
      if (this.window) this.send({ type: 'ping' });
    }, options.heartbeatMs);
    this.heartbeat.unref?.();
    if (!outbound) this.send({ type: 'challenge', nonce: this.nonce });
  }

  /** Lists this window's questions to the peer. */
  list(questions: QuestionSummary[]): void {
    if (this.window) this.send({ type: 'questions', questions });
  }

  /** Asks the peer to take an answer to one of its questions (given on `device`, when named); rejects with its refusal. */
  answer(questionId: number, answer: RemoteAnswer, device?: string): Promise<void> {
    if (!this.window || this.closed) return Promise.reject(new Error('the window is gone'));
    const requestId = this.nextRequest++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(requestId, { resolve, reject });
      this.send(
        device === undefined
          ? { type: 'answer', requestId, questionId, answer }
          : { type: 'answer', requestId, questionId, answer, device },
      );
    });
  }

  close(why?: string): void {
    if (this.closed) return;
    this.closed = true;
    if (why) this.options.log(`[windows] connection ${this.window ? `to ${this.window.id} ` : ''}ended: ${why}`);
    clearInterval(this.heartbeat);
    this.socket.destroy();
    for (const pending of this.waiting.values()) pending.reject(new Error('the window is gone'));
    this.waiting.clear();
    this.ended.fire(this);
    this.ready.dispose();
    this.listed.dispose();
    this.ended.dispose();
  }

  private send(message: Message): void {
    if (this.closed) return;
    try {
      this.socket.write(encode(message));
    } catch (error) {
      this.close(String(error));
    }
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    this.lastHeard = Date.now();
    try {
      for (const line of this.reader.push(chunk)) {
        if (this.closed) return;
        this.handle(decode(line));
      }
    } catch (error) {
      // Said once, then dropped: a peer that breaks the protocol gets no second chance.
      if (error instanceof ProtocolError) this.send({ type: 'error', message: error.message });
      this.close(error instanceof Error ? error.message : String(error));
    }
  }

  private handle(message: Message): void {
    if (!this.window) return this.handshake(message);
    switch (message.type) {
      case 'questions':
        this.questions = message.questions;
        this.listed.fire(this);
        return;
      case 'answer':
        return this.answerForPeer(message.requestId, message.questionId, message.answer, message.device);
      case 'answered': {
        const pending = this.waiting.get(message.requestId);
        if (!pending) throw new ProtocolError('answered what was not asked');
        this.waiting.delete(message.requestId);
        if (message.error === undefined) pending.resolve();
        else pending.reject(new Error(message.error));
        return;
      }
      case 'ping':
        return this.send({ type: 'pong' });
      case 'pong':
        return;
      case 'error':
        return this.close(`the peer said: ${message.message}`);
      default:
        throw new ProtocolError('handshake message after the handshake');
    }
  }

  private handshake(message: Message): void {
    const { key, self } = this.options;
    if (this.outbound) {
      if (message.type === 'challenge' && !this.peerNonce) {
        this.peerNonce = message.nonce;
        this.send({ type: 'hello', window: self, nonce: this.nonce, proof: proof(key, 'client', self.id, this.nonce, message.nonce) });
        return;
      }
      if (message.type === 'welcome' && this.peerNonce) {
        const expected = proof(key, 'server', message.window.id, this.peerNonce, this.nonce);
        if (message.window.id !== this.options.expected || !sameProof(message.proof, expected))
          throw new ProtocolError('authentication failed');
        return this.authenticated(message.window);
      }
    } else if (message.type === 'hello') {
      const expected = proof(key, 'client', message.window.id, message.nonce, this.nonce);
      if (!sameProof(message.proof, expected) || message.window.id === self.id) throw new ProtocolError('authentication failed');
      this.send({ type: 'welcome', window: self, proof: proof(key, 'server', self.id, this.nonce, message.nonce) });
      return this.authenticated(message.window);
    }
    throw new ProtocolError('not authenticated');
  }

  private authenticated(window: WindowInfo): void {
    this.window = window;
    this.ready.fire(this);
  }

  private answerForPeer(requestId: number, questionId: number, answer: RemoteAnswer, device: string | undefined): void {
    if (this.answersInFlight >= MAX_ANSWERS_IN_FLIGHT) {
      this.send({ type: 'answered', requestId, error: 'Too many answers at once.' });
      return;
    }
    this.answersInFlight++;
    void this.options
      .answer(questionId, answer, device)
      .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
      .then((error) => {
        this.answersInFlight--;
        this.send(error === undefined ? { type: 'answered', requestId } : { type: 'answered', requestId, error });
      });
  }
}
