/**
 * Issue #24: the protocol between Elicit windows and the mesh, with real Unix
 * sockets in a temp dir: three "windows" in one process, and peers that send
 * malformed, oversized and forged messages.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Broker, type Question, type RenderOutcome } from '../../src/core/broker/broker';
import type { ElicitRequest } from '../../src/core/request';
import { WindowMesh, type MeshOptions } from '../../src/windows/mesh';
import { remoteQuestion, summarize } from '../../src/core/windows/summary';
import { openPrivateDir } from '../../src/windows/privateDir';
import {
  LineReader,
  MAX_MESSAGE_BYTES,
  ProtocolError,
  decode,
  encode,
  newNonce,
  newWindowId,
  proof,
  type Message,
  type QuestionSummary,
  type RemoteAnswer,
} from '../../src/core/windows/protocol';

const posixOnly = { skip: process.platform === 'win32' ? 'Unix sockets and modes' : false };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-windows-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let dirs = 0;
/** A short path: socket paths are limited to about 100 bytes. */
function freshDir(): string {
  return path.join(root, `d${dirs++}`);
}

const cityQuestion: QuestionSummary = {
  id: 1,
  asker: { kind: 'mcp', name: 'weather-server', detail: 'tool get_forecast' },
  message: 'Which city?',
  receivedAt: 1_700_000_000_000,
  state: 'waiting',
  answerable: { mode: 'form', requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const tokenQuestion: QuestionSummary = {
  id: 2,
  asker: { kind: 'mcp', name: 'deploy-server' },
  message: 'Your token',
  receivedAt: 1_700_000_000_000,
  state: 'waiting',
};

interface TestWindow {
  mesh: WindowMesh;
  answers: Array<{ questionId: number; answer: RemoteAnswer; from: string }>;
}

async function openWindow(dir: string, folder: string, refuse?: string): Promise<TestWindow> {
  const answers: TestWindow['answers'] = [];
  const options: MeshOptions = {
    dir,
    folder,
    heartbeatMs: 100,
    scanMs: 100,
    answer: async (questionId, answer, from) => {
      answers.push({ questionId, answer, from: from.folder });
      return refuse;
    },
  };
  return { mesh: await WindowMesh.open(options), answers };
}

async function until(what: string, check: () => boolean, timeoutMs = 3_000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe('windows protocol', () => {
  it('decodes each well-formed message and refuses malformed ones', () => {
    const nonce = newNonce();
    const window = { id: newWindowId(), folder: 'songs' };
    const good: Message[] = [
      { type: 'challenge', nonce },
      { type: 'hello', window, nonce, proof: nonce },
      { type: 'questions', questions: [cityQuestion, tokenQuestion] },
      {
        type: 'answer',
        requestId: 1,
        questionId: 1,
        answer: { action: 'accept', content: { city: 'Paris', n: 2, ok: true, tags: ['a'] } },
      },
      { type: 'answered', requestId: 1, error: 'refused' },
      { type: 'ping' },
    ];
    for (const message of good) assert.deepEqual(decode(encode(message).trimEnd()), message);
    const bad = [
      'not json',
      '[]',
      '{"type":"nope"}',
      `{"type":"challenge","nonce":"xyz"}`,
      `{"type":"hello","window":{"id":"../../etc/passwd","folder":"x"},"nonce":"${nonce}","proof":"${nonce}"}`,
      `{"type":"questions","questions":[{"id":-1}]}`,
      `{"type":"questions","questions":[${JSON.stringify({ ...cityQuestion, asker: { kind: 'root', name: 'x' } })}]}`,
      `{"type":"questions","questions":[${JSON.stringify({ ...cityQuestion, answerable: { mode: 'url', url: 'https://x' } })}]}`,
      `{"type":"answer","requestId":1,"questionId":1,"answer":{"action":"accept","content":{"city":{"$gt":""}}}}`,
      `{"type":"answer","requestId":1,"questionId":1,"answer":{"action":"cancel"}}`,
      `{"type":"answer","requestId":1.5,"questionId":1,"answer":{"action":"decline"}}`,
    ];
    for (const line of bad) assert.throws(() => decode(line), ProtocolError, line);
  });

  it('splits lines across chunks and refuses a line past the cap', () => {
    const reader = new LineReader();
    assert.deepEqual(reader.push(Buffer.from('{"type":"pi')), []);
    assert.deepEqual(reader.push(Buffer.from('ng"}\n{"type":"pong"}\n{')), ['{"type":"ping"}', '{"type":"pong"}']);
    const big = new LineReader();
    assert.throws(() => big.push(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x61)), ProtocolError);
    assert.throws(() => encode({ type: 'error', message: 'x'.repeat(MAX_MESSAGE_BYTES) }), ProtocolError);
  });

  it('binds each proof to its side, window and both nonces', () => {
    const key = Buffer.alloc(32, 7);
    const [a, b, id] = [newNonce(), newNonce(), newWindowId()];
    const client = proof(key, 'client', id, a, b);
    assert.notEqual(client, proof(key, 'server', id, a, b));
    assert.notEqual(client, proof(key, 'client', newWindowId(), a, b));
    assert.notEqual(client, proof(key, 'client', id, b, a));
    assert.notEqual(client, proof(Buffer.alloc(32, 8), 'client', id, a, b));
  });
});

describe('private directory', posixOnly, () => {
  it('is 0700 with a 0600 key that every window reads the same', async () => {
    const dir = freshDir();
    const [first, second] = await Promise.all([openPrivateDir(dir), openPrivateDir(dir)]);
    assert.deepEqual(first, second);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dir, 'key')).mode & 0o777, 0o600);
    fs.chmodSync(dir, 0o755);
    await openPrivateDir(dir);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700, 'an opened-up directory is closed again');
  });

  it('refuses a key file others can read', async () => {
    const dir = freshDir();
    await openPrivateDir(dir);
    fs.chmodSync(path.join(dir, 'key'), 0o644);
    await assert.rejects(openPrivateDir(dir), /readable by others/);
  });
});

describe('window mesh', posixOnly, () => {
  it('lists each window’s questions in the others, attributed to their folder, and answers where asked', async () => {
    const dir = freshDir();
    const songs = await openWindow(dir, 'songs');
    const infra = await openWindow(dir, 'infra');
    const docs = await openWindow(dir, 'docs');
    try {
      songs.mesh.publish([cityQuestion, tokenQuestion]);
      for (const other of [infra, docs]) {
        await until('songs’ questions', () => other.mesh.remote().length === 2);
        assert.deepEqual(
          other.mesh.remote().map((r) => [r.window.folder, r.question.message]),
          [
            ['songs', 'Which city?'],
            ['songs', 'Your token'],
          ],
        );
      }
      assert.deepEqual(songs.mesh.remote(), []);
      // One connection per pair of windows, whoever found whom first.
      assert.equal(infra.mesh.remote().length, 2);

      const songsId = songs.mesh.self.id;
      await infra.mesh.answer(songsId, 1, { action: 'accept', content: { city: 'Paris' } });
      assert.deepEqual(songs.answers, [{ questionId: 1, answer: { action: 'accept', content: { city: 'Paris' } }, from: 'infra' }]);

      // A question listed as answerable only where it was asked (a secret field) is refused, whatever the peer sends.
      await assert.rejects(infra.mesh.answer(songsId, 2, { action: 'accept', content: { token: 'x' } }), /only be answered in the window/);
      await assert.rejects(docs.mesh.answer(songsId, 99, { action: 'decline' }), /no longer waiting/);
      assert.equal(songs.answers.length, 1);

      // Answered there: gone everywhere.
      songs.mesh.publish([tokenQuestion]);
      await until('the answered question to leave', () => infra.mesh.remote().length === 1 && docs.mesh.remote().length === 1);
    } finally {
      await Promise.all([songs.mesh.dispose(), infra.mesh.dispose(), docs.mesh.dispose()]);
    }
  });

  it('summarizes a window’s questions only once another window is there to read them', async () => {
    const dir = freshDir();
    const alone = await openWindow(dir, 'alone');
    let summarized = 0;
    const questions = (): QuestionSummary[] => (summarized++, [cityQuestion]);
    try {
      // Many servers asking change the list hundreds of times a second; nobody else reads it yet.
      for (let i = 0; i < 100; i++) alone.mesh.publish(questions);
      assert.equal(summarized, 0);
      const other = await openWindow(dir, 'other');
      try {
        await until('the other window to list the question', () => other.mesh.remote().length === 1);
        assert.equal(summarized, 1);
        // Then the list goes out as it changes.
        alone.mesh.publish(questions);
        assert.equal(summarized, 2);
        // An answer from the other window is checked against the list as it is now.
        await other.mesh.answer(alone.mesh.self.id, 1, { action: 'accept', content: { city: 'Oslo' } });
        assert.deepEqual(
          alone.answers.map((a) => a.questionId),
          [1],
        );
      } finally {
        await other.mesh.dispose();
      }
    } finally {
      await alone.mesh.dispose();
    }
  });

  it('passes the owner’s refusal back as the error', async () => {
    const dir = freshDir();
    const owner = await openWindow(dir, 'songs', 'city: must match the pattern');
    const other = await openWindow(dir, 'infra');
    try {
      owner.mesh.publish([cityQuestion]);
      await until('the question', () => other.mesh.remote().length === 1);
      await assert.rejects(other.mesh.answer(owner.mesh.self.id, 1, { action: 'accept', content: { city: '' } }), /must match the pattern/);
    } finally {
      await Promise.all([owner.mesh.dispose(), other.mesh.dispose()]);
    }
  });

  it('drops a closed window’s questions from the others within 2 s', async () => {
    const dir = freshDir();
    const songs = await openWindow(dir, 'songs');
    const infra = await openWindow(dir, 'infra');
    try {
      songs.mesh.publish([cityQuestion]);
      await until('the question', () => infra.mesh.remote().length === 1);
      await songs.mesh.dispose();
      const took = await until('the closed window’s question to leave', () => infra.mesh.remote().length === 0, 2_000);
      assert.ok(took < 2_000);
      await assert.rejects(infra.mesh.answer(songs.mesh.self.id, 1, { action: 'decline' }), /gone/);
    } finally {
      await infra.mesh.dispose();
    }
  });

  it('removes the socket of a window that crashed, and a window started later finds the others', async () => {
    const dir = freshDir();
    const first = await openWindow(dir, 'songs');
    try {
      // A process that listens in the directory and is killed: its socket file stays behind.
      const stale = path.join(dir, `${newWindowId()}.sock`);
      const child = spawn(
        process.execPath,
        ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      await new Promise((resolve) => child.stdout.once('data', resolve));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      assert.ok(fs.existsSync(stale));
      await until('the stale socket to be removed', () => !fs.existsSync(stale));

      const later = await openWindow(dir, 'infra');
      try {
        later.mesh.publish([cityQuestion]);
        await until('the later window’s question', () => first.mesh.remote().length === 1);
      } finally {
        await later.mesh.dispose();
      }
    } finally {
      await first.mesh.dispose();
    }
  });
});

/** A raw connection to a window's socket, for peers that break the protocol. */
class RawPeer {
  private readonly reader = new LineReader();
  readonly received: Message[] = [];
  closed = false;
  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const line of this.reader.push(chunk)) this.received.push(decode(line));
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static async connect(dir: string, id: string): Promise<RawPeer> {
    const socket = net.connect(path.join(dir, `${id}.sock`));
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const peer = new RawPeer(socket);
    await until('the challenge', () => peer.received.length > 0);
    return peer;
  }

  get challenge(): string {
    const first = this.received[0];
    assert.equal(first?.type, 'challenge');
    return (first as { nonce: string }).nonce;
  }

  send(line: string): void {
    this.socket.write(line);
  }

  /** Proves the key (as another window of the same user can). */
  async authenticate(key: Buffer): Promise<void> {
    const id = newWindowId();
    const nonce = newNonce();
    this.send(encode({ type: 'hello', window: { id, folder: 'raw' }, nonce, proof: proof(key, 'client', id, nonce, this.challenge) }));
    await until('the welcome', () => this.received.some((m) => m.type === 'welcome'));
  }

  async reply(type: Message['type']): Promise<Message> {
    await until(type, () => this.received.some((m) => m.type === type));
    return this.received.find((m) => m.type === type)!;
  }
}

describe('hostile peers', posixOnly, () => {
  it('are told the error and dropped; the window goes on serving the others', async () => {
    const dir = freshDir();
    const owner = await openWindow(dir, 'songs');
    const friend = await openWindow(dir, 'infra');
    const key = fs.readFileSync(path.join(dir, 'key'));
    const id = owner.mesh.self.id;
    try {
      owner.mesh.publish([cityQuestion, tokenQuestion]);

      const garbage = await RawPeer.connect(dir, id);
      garbage.send('this is not json\n');
      assert.deepEqual(await garbage.reply('error'), { type: 'error', message: 'not JSON' });
      await until('the garbage peer to be dropped', () => garbage.closed);

      // Asking for the questions (or answering) without proving the key.
      const unauthenticated = await RawPeer.connect(dir, id);
      unauthenticated.send(encode({ type: 'answer', requestId: 1, questionId: 1, answer: { action: 'decline' } }));
      assert.deepEqual(await unauthenticated.reply('error'), { type: 'error', message: 'not authenticated' });
      await until('the unauthenticated peer to be dropped', () => unauthenticated.closed);
      assert.ok(!unauthenticated.received.some((m) => m.type === 'questions'));

      // A forged proof: made with another key.
      const forged = await RawPeer.connect(dir, id);
      const fakeId = newWindowId();
      const nonce = newNonce();
      const wrong = proof(Buffer.alloc(32, 1), 'client', fakeId, nonce, forged.challenge);
      forged.send(encode({ type: 'hello', window: { id: fakeId, folder: 'x' }, nonce, proof: wrong }));
      assert.deepEqual(await forged.reply('error'), { type: 'error', message: 'authentication failed' });
      await until('the forged peer to be dropped', () => forged.closed);
      assert.ok(!forged.received.some((m) => m.type === 'questions'));

      // A proof replayed from another connection does not fit this one's challenge.
      const replay = await RawPeer.connect(dir, id);
      replay.send(
        encode({ type: 'hello', window: { id: fakeId, folder: 'x' }, nonce, proof: proof(key, 'client', fakeId, nonce, forged.challenge) }),
      );
      assert.deepEqual(await replay.reply('error'), { type: 'error', message: 'authentication failed' });

      // Oversized: a line past the cap is refused before it is parsed.
      const flood = await RawPeer.connect(dir, id);
      flood.send('x'.repeat(MAX_MESSAGE_BYTES + 10));
      assert.deepEqual(await flood.reply('error'), { type: 'error', message: 'message too large' });
      await until('the flooding peer to be dropped', () => flood.closed);

      // Authenticated, but answering a question it was never told of, then one only its own window answers.
      const insider = await RawPeer.connect(dir, id);
      await insider.authenticate(key);
      await insider.reply('questions');
      insider.send(encode({ type: 'answer', requestId: 7, questionId: 42, answer: { action: 'decline' } }));
      assert.deepEqual(await insider.reply('answered'), { type: 'answered', requestId: 7, error: 'This question is no longer waiting.' });
      insider.received.length = 0;
      insider.send(encode({ type: 'answer', requestId: 8, questionId: 2, answer: { action: 'accept', content: { token: 'stolen?' } } }));
      assert.deepEqual(await insider.reply('answered'), {
        type: 'answered',
        requestId: 8,
        error: 'This question can only be answered in the window that asked it.',
      });
      // A handshake message after the handshake, or an answer to nothing it asked, ends it.
      insider.send(encode({ type: 'answered', requestId: 99 }));
      await insider.reply('error');
      await until('the insider to be dropped', () => insider.closed);
      assert.deepEqual(owner.answers, []);

      // Authenticated and then silent (a hung window): dropped after three beats.
      const silent = await RawPeer.connect(dir, id);
      await silent.authenticate(key);
      await until('the silent peer to be dropped', () => silent.closed, 2_000);

      // Meanwhile the real window still works.
      await until('the questions in the friend window', () => friend.mesh.remote().length === 2);
      await friend.mesh.answer(id, 1, { action: 'decline' });
      assert.deepEqual(owner.answers, [{ questionId: 1, answer: { action: 'decline' }, from: 'infra' }]);
    } finally {
      await Promise.all([owner.mesh.dispose(), friend.mesh.dispose()]);
    }
  });
});

/** A renderer that shows nothing and answers only when its signal aborts (the person has not answered here). */
const untouched = {
  shown: [] as Question[],
  render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    this.shown.push(question);
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  },
};

function newBroker(): Broker {
  return new Broker(untouched, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'auto' });
}

const weather = { kind: 'mcp' as const, name: 'weather-server', detail: 'tool get_forecast' };
const citySchema = { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] };

describe('questions between windows', () => {
  it('lists forms with their schema, and a secret field, a URL or Elicit’s own prompt as answered only where asked', async () => {
    const broker = newBroker();
    const controller = new AbortController();
    const asks: ElicitRequest[] = [
      { mode: 'form', asker: weather, message: 'Which city?', requestedSchema: citySchema, signal: controller.signal },
      {
        mode: 'form',
        asker: weather,
        message: 'Token?',
        requestedSchema: { type: 'object', properties: { token: { type: 'string', format: 'password' } } },
        signal: controller.signal,
      },
      { mode: 'url', asker: weather, message: 'Sign in', url: 'https://example.com/login', signal: controller.signal },
      {
        mode: 'form',
        asker: weather,
        message: 'Arguments',
        requestedSchema: citySchema,
        onBehalf: { title: 'Run MCP Tool' },
        signal: controller.signal,
      },
      {
        mode: 'group',
        asker: weather,
        message: 'Two things',
        sections: [
          { key: 'a', message: 'City?', requestedSchema: citySchema },
          { key: 'b', message: 'Days?', requestedSchema: { type: 'object', properties: { days: { type: 'integer' } } } },
        ],
        draft: { 's0.city': 'draft text' },
        signal: controller.signal,
      },
    ];
    const answers = asks.map((request) => broker.ask(request));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const listed = summarize(broker.pending());
    assert.deepEqual(
      listed.map((q) => [q.message, q.answerable?.mode]),
      [
        ['Which city?', 'form'],
        ['Token?', undefined],
        ['Sign in', undefined],
        ['Arguments', undefined],
        ['Two things', 'group'],
      ],
    );
    assert.doesNotMatch(JSON.stringify(listed), /draft text/);
    // Through the wire and back: what another window draws is the same form.
    const received = decode(encode({ type: 'questions', questions: listed }).trimEnd());
    assert.equal(received.type, 'questions');
    const window = { id: newWindowId(), folder: 'songs' };
    const drawn = remoteQuestion({ window, question: listed[0]! }, 1_000_001, 'auto', controller.signal);
    assert.deepEqual(drawn.form, broker.pending()[0]!.form);
    assert.equal(drawn.request.asker.name, 'weather-server');
    const group = remoteQuestion({ window, question: listed[4]! }, 1_000_002, 'auto', controller.signal);
    assert.equal(group.form?.fields.length, 2);
    assert.throws(
      () => remoteQuestion({ window, question: listed[1]! }, 1_000_003, 'auto', controller.signal),
      /only be answered in the window/,
    );
    // A forged summary that slips a secret field in as answerable is still not drawn.
    const forged = {
      ...listed[1]!,
      answerable: { mode: 'form' as const, requestedSchema: asks[1]!.mode === 'form' ? asks[1]!.requestedSchema : {} },
    };
    assert.throws(
      () => remoteQuestion({ window, question: forged }, 1_000_004, 'auto', controller.signal),
      /only be answered in the window/,
    );
    controller.abort();
    await Promise.all(answers);
  });

  it('a form too large for one message is listed as answered only where asked', async () => {
    const broker = newBroker();
    const controller = new AbortController();
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) properties[`f${i}`] = { type: 'string', description: '→'.repeat(4_000) };
    const big = broker.ask({
      mode: 'form',
      asker: weather,
      message: 'Big',
      requestedSchema: { type: 'object', properties },
      signal: controller.signal,
    });
    const small = broker.ask({ mode: 'form', asker: weather, message: 'Small', requestedSchema: citySchema, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const listed = summarize(broker.pending());
    assert.deepEqual(
      listed.map((q) => q.answerable !== undefined),
      [false, true],
    );
    assert.ok(encode({ type: 'questions', questions: listed }).length < MAX_MESSAGE_BYTES);
    controller.abort();
    await Promise.all([big, small]);
  });

  it('asked in one window, answered in another through the owner’s broker, gone everywhere', posixOnly, async () => {
    const dir = freshDir();
    const broker = newBroker();
    const owner = await WindowMesh.open({
      dir,
      folder: 'songs',
      heartbeatMs: 100,
      answer: async (id, answer) => broker.answerFromElsewhere(id, answer),
    });
    const other = await openWindow(dir, 'infra');
    const publish = (): void => owner.publish(summarize(broker.pending()));
    const subscription = broker.onDidChange(publish);
    try {
      const asked = broker.ask({ mode: 'form', asker: weather, message: 'Which city?', requestedSchema: citySchema });
      await until('the question in the other window', () => other.mesh.remote().length === 1);
      const [listed] = other.mesh.remote();
      assert.equal(listed!.window.folder, 'songs');
      // Refused by the owner's own check (minLength), shown to the person there as the error.
      await assert.rejects(
        other.mesh.answer(owner.self.id, listed!.question.id, { action: 'accept', content: { city: 'X' } }),
        /The answer was refused: city/,
      );
      await other.mesh.answer(owner.self.id, listed!.question.id, { action: 'accept', content: { city: 'Paris' } });
      assert.deepEqual(await asked, { action: 'accept', content: { city: 'Paris' } });
      await until('the answered question to leave the other window', () => other.mesh.remote().length === 0);
      await assert.rejects(other.mesh.answer(owner.self.id, listed!.question.id, { action: 'decline' }), /no longer waiting/);
    } finally {
      subscription.dispose();
      await Promise.all([owner.dispose(), other.mesh.dispose()]);
    }
  });
});
