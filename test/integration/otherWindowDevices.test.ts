// A paired device sees every window's questions (issue #23 with #24): two real window meshes on Unix
// sockets, two real brokers, the device's list and answers through withOtherWindows, and the asking
// window's own device rule checked again there.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Broker, type AnsweredQuestion, type Question, type RenderOutcome } from '../../src/core/broker/broker';
import type { ElicitRequest } from '../../src/core/request';
import { answerFromOtherWindow } from '../../src/core/device/devicePolicy';
import { brokerDeviceQuestions, type DeviceQuestions } from '../../src/core/device/deviceQuestions';
import type { PairedDevice } from '../../src/core/device/devices';
import { OTHER_WINDOW_IDS_FROM, withOtherWindows } from '../../src/core/windows/otherWindowQuestions';
import type { PhoneQuestion } from '../../src/core/device/phoneQuestions';
import { WindowMesh, type MeshOptions } from '../../src/windows/mesh';
import { decode } from '../../src/core/windows/protocol';
import { summarize } from '../../src/core/windows/summary';

const posixOnly = { skip: process.platform === 'win32' ? 'Unix sockets' : false };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-devwin-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let dirs = 0;

const phone: PairedDevice = { id: 'd1', name: 'Pixel 9', tokenDigest: '0'.repeat(64), pairedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER };
const weather = { kind: 'mcp' as const, name: 'weather-server', detail: 'tool get_forecast' };
const citySchema = { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] };

/** A renderer that shows nothing: the person answers on the device. */
const untouched = {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  },
};

function newBroker(): Broker {
  return new Broker(untouched, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'auto' });
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Two windows: "songs" asks, "infra" serves the paired device. */
async function twoWindows() {
  const dir = path.join(root, `d${dirs++}`);
  const open = (folder: string, answer: MeshOptions['answer']): Promise<WindowMesh> =>
    WindowMesh.open({ dir, folder, heartbeatMs: 100, scanMs: 100, answer });
  const owner = newBroker();
  const ownerMesh = await open('songs', async (id, answer, _from, device) => answerFromOtherWindow(owner, id, answer, device));
  const publish = owner.onDidChange(() => ownerMesh.publish(summarize(owner.pending())));
  const serving = newBroker();
  const servingMesh = await open('infra', async () => 'not this window’s question');
  const device: DeviceQuestions = withOtherWindows(
    brokerDeviceQuestions(serving, { openOnComputer: () => undefined }),
    {
      remote: () => servingMesh.remote(),
      onDidChange: (listener) => servingMesh.onDidChange(listener),
      answerFromDevice: (remote, answer, name) => servingMesh.answer(remote.window.id, remote.question.id, answer, name),
    },
    () => 'auto',
  );
  const answered: AnsweredQuestion[] = [];
  const history = owner.onDidAnswer((entry) => answered.push(entry));
  const controller = new AbortController();
  return {
    owner,
    ownerMesh,
    serving,
    servingMesh,
    device,
    answered,
    signal: controller.signal,
    async close(): Promise<void> {
      controller.abort();
      publish.dispose();
      history.dispose();
      await Promise.all([ownerMesh.dispose(), servingMesh.dispose()]);
    },
  };
}

function byMessage(list: PhoneQuestion[], message: string): PhoneQuestion {
  const found = list.find((q) => ('message' in q ? q.message === message : false));
  assert.ok(found, `"${message}" is listed`);
  return found;
}

describe('a paired device and the other windows', () => {
  it(
    'lists every window’s questions, naming the other window; a device answer reaches the asking window, named in its history',
    posixOnly,
    async () => {
      const w = await twoWindows();
      try {
        const here = w.serving.ask({ mode: 'form', asker: weather, message: 'City here?', requestedSchema: citySchema, signal: w.signal });
        const there = w.owner.ask({ mode: 'form', asker: weather, message: 'City there?', requestedSchema: citySchema, signal: w.signal });
        const asks: ElicitRequest[] = [
          {
            mode: 'form',
            asker: weather,
            message: 'Key?',
            requestedSchema: citySchema,
            editorOnly: 'key',
            noMemory: true,
            signal: w.signal,
          },
          {
            mode: 'form',
            asker: weather,
            message: 'Token?',
            requestedSchema: { type: 'object', properties: { token: { type: 'string', format: 'password' } } },
            signal: w.signal,
          },
          { mode: 'url', asker: weather, message: 'Sign in', url: 'https://example.com/login', signal: w.signal },
        ];
        const others = asks.map((request) => w.owner.ask(request));
        await until('five questions on the device', () => w.device.list().length === 5);
        const list = w.device.list();
        const local = byMessage(list, 'City here?');
        assert.equal(local.kind, 'form');
        assert.equal(local.window, undefined, 'this window’s own question names no window');
        const remote = byMessage(list, 'City there?');
        assert.equal(remote.kind, 'form');
        assert.equal(remote.window, 'songs');
        assert.ok(remote.id >= OTHER_WINDOW_IDS_FROM);
        // What stays in the editor says why, by the asking window's rule; the rest of it is not sent.
        const kept = list.filter((q) => q.kind === 'editorOnly');
        assert.deepEqual(
          kept.map((q) => (q.kind === 'editorOnly' ? [q.reason, q.window] : [])),
          [
            ['key', 'songs'],
            ['secret', 'songs'],
            ['window', 'songs'],
          ],
        );
        assert.doesNotMatch(JSON.stringify(kept), /Key\?|Token\?|example\.com/);

        // Checked here as the editor checks it, before anything is sent.
        const short = await w.device.answer(remote.id, { action: 'accept', content: { city: 'X' } }, phone);
        assert.ok(short !== 'gone' && !short.ok && /city|characters/i.test(JSON.stringify(short.errors)));
        assert.equal(w.owner.pending().length, 4, 'nothing reached the asking window');
        const ok = await w.device.answer(remote.id, { action: 'accept', content: { city: 'Paris' } }, phone);
        assert.ok(ok !== 'gone' && ok.ok);
        assert.deepEqual(await there, { action: 'accept', content: { city: 'Paris' } });
        const entry = w.answered.find((a) => a.question.request.message === 'City there?');
        assert.equal(entry?.device, 'Pixel 9', 'the asking window’s history names the device');
        await until('the answered question to leave the device', () => w.device.list().length === 4);
        assert.equal(await w.device.answer(remote.id, { action: 'decline' }, phone), 'gone');

        // A question kept for the editor takes no answer from the device.
        const refused = await w.device.answer(kept[0]!.id, { action: 'accept', content: { city: 'Oslo' } }, phone);
        assert.ok(refused !== 'gone' && !refused.ok);
        assert.equal(w.owner.pending().length, 3);
        // This window's own question is answered as before.
        const mine = await w.device.answer(local.id, { action: 'decline' }, phone);
        assert.ok(mine !== 'gone' && mine.ok);
        assert.deepEqual(await here, { action: 'decline' });
        void others;
      } finally {
        await w.close();
      }
    },
  );

  it('Later puts another window’s question off on the device only; Decline there reaches the asking window', posixOnly, async () => {
    const w = await twoWindows();
    try {
      const there = w.owner.ask({ mode: 'form', asker: weather, message: 'City there?', requestedSchema: citySchema, signal: w.signal });
      await until('the question on the device', () => w.device.list().length === 1);
      const [question] = w.device.list();
      assert.equal(question!.later, false);
      let changes = 0;
      const watching = w.device.onDidChange(() => changes++);
      const later = await w.device.answer(question!.id, { action: 'later' }, phone);
      watching.dispose();
      assert.ok(later !== 'gone' && later.ok);
      assert.ok(changes > 0, 'the device list is redrawn');
      assert.equal(w.device.list()[0]!.later, true);
      assert.notEqual(w.owner.pending()[0]!.state, 'later', 'not put off in the asking window');
      const declined = await w.device.answer(question!.id, { action: 'decline' }, phone);
      assert.ok(declined !== 'gone' && declined.ok);
      assert.deepEqual(await there, { action: 'decline' });
    } finally {
      await w.close();
    }
  });

  it(
    'the asking window refuses a device answer its own rule keeps for the editor, whatever the other window sends',
    posixOnly,
    async () => {
      const w = await twoWindows();
      try {
        // Elicit's own question for a server's configuration: the asking window keeps it for the editor.
        const asked = w.owner.ask({
          mode: 'form',
          asker: weather,
          message: 'Region?',
          requestedSchema: citySchema,
          editorOnly: 'key',
          noMemory: true,
          signal: w.signal,
        });
        await until('the question in the serving window', () => w.servingMesh.remote().length === 1);
        const [remote] = w.servingMesh.remote();
        assert.equal(remote!.question.editorOnly, 'key');
        // A serving window that ignored the rule (or a forged peer) still cannot answer it "on a device".
        await assert.rejects(
          w.servingMesh.answer(remote!.window.id, remote!.question.id, { action: 'accept', content: { city: 'Oslo' } }, 'Pixel 9'),
          /cannot be answered on a device/,
        );
        assert.equal(w.owner.pending().length, 1, 'still waiting in the editor');
        w.owner.decline(w.owner.pending()[0]!.id);
        assert.deepEqual(await asked, { action: 'decline' });
      } finally {
        await w.close();
      }
    },
  );
});

describe('the windows protocol’s device fields', () => {
  it('carries the asking window’s device rule and the device’s name, and refuses a rule it does not know', () => {
    const summary = {
      id: 1,
      asker: { kind: 'mcp', name: 'weather-server' },
      message: 'Region?',
      receivedAt: 1,
      state: 'waiting',
      editorOnly: 'key',
    };
    const listed = decode(JSON.stringify({ type: 'questions', questions: [summary] }));
    assert.equal(listed.type === 'questions' && listed.questions[0]!.editorOnly, 'key');
    assert.throws(
      () => decode(JSON.stringify({ type: 'questions', questions: [{ ...summary, editorOnly: 'anything' }] })),
      /bad device rule/,
    );
    const answer = { type: 'answer', requestId: 1, questionId: 2, answer: { action: 'decline' } };
    const named = decode(JSON.stringify({ ...answer, device: 'Pixel 9' }));
    assert.equal(named.type === 'answer' && named.device, 'Pixel 9');
    assert.throws(() => decode(JSON.stringify({ ...answer, device: 42 })), /bad text/);
    assert.throws(() => decode(JSON.stringify({ ...answer, device: 'x'.repeat(2000) })), /bad text/);
  });
});
