/**
 * What KeptRounds writes for MCP 2026-07-28 rounds kept across a reload
 * (findings 5 and 7 of issue #21): a round over the size cap is not kept and
 * the person is told; a draft write rewrites the draft, not the round; records
 * of a workspace never reopened are swept; the workspace-state index keeps a
 * short one-line title and no other asker text; a kept round is not answered
 * on another server that now has its name. Over the `vscode` stand-in,
 * with SecretStorage and both mementos in memory.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import * as vscode from 'vscode';
import { MemorySecretStore } from '../../src/mcp/oauthStore';
import type { OpenRound } from '../../src/mcp/rounds';
import { answerKeptRound } from '../../src/vscode/mcp/keptRoundAnswer';
import { ServerRegistry } from '../../src/vscode/mcp/serverRegistry';
import { KeptRounds } from '../../src/vscode/questions/keptRounds';
import type { Services } from '../../src/vscode/services';
import { waitUntil } from '../support/waitUntil';
import { standIn } from './vscodeStandIn/vscode';

class MemoryState {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

/** SecretStorage in memory that counts the characters written to it. */
class CountingSecrets extends MemorySecretStore {
  written = 0;
  override async store(key: string, value: string): Promise<void> {
    this.written += value.length;
    await super.store(key, value);
  }
}

const DAY = 24 * 60 * 60 * 1000;

function round(message: string, requestState?: string): OpenRound {
  return {
    server: 'songs',
    origin: 'origin-of-songs',
    method: 'tools/call',
    params: { name: 'song_sketch', arguments: { mood: 'private' } },
    inputRequests: {
      name: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } } },
    },
    round: 1,
    earlier: [],
    ...(requestState !== undefined ? { requestState } : {}),
  };
}

describe('KeptRounds (over the vscode stand-in)', () => {
  let secrets: CountingSecrets;
  let globalState: MemoryState;
  let log: vscode.LogOutputChannel;
  const window = (workspaceState: MemoryState, now = Date.now): KeptRounds =>
    new KeptRounds(
      secrets as unknown as vscode.SecretStorage,
      workspaceState as unknown as vscode.Memento,
      globalState as unknown as vscode.Memento,
      log,
      now,
    );
  const indexOf = (state: MemoryState): Array<Record<string, unknown>> => state.get('elicit.keptRounds', []) ?? [];

  beforeEach(() => {
    standIn.reset();
    secrets = new CountingSecrets();
    globalState = new MemoryState();
    log = vscode.window.createOutputChannel('Elicit', { log: true }) as unknown as vscode.LogOutputChannel;
  });

  it("sends a kept round's writes to the window at once, not one round trip after another (the soak, issue #37)", async () => {
    // A window that takes its time: each write waits until the test lets it through.
    const started: string[] = [];
    const held: Array<() => void> = [];
    const hold = (what: string): Promise<void> => {
      started.push(what);
      return new Promise((resolve) => held.push(resolve));
    };
    const slowSecrets = {
      store: (key: string) => hold(`secret ${key.split(':')[0]}`),
      get: async () => undefined,
      delete: async () => undefined,
    };
    const slowState = (name: string): MemoryState => {
      const state = new MemoryState();
      const update = state.update.bind(state);
      state.update = async (key, value) => {
        await update(key, value);
        await hold(`${name} ${key}`);
      };
      return state;
    };
    const workspaceState = slowState('workspace');
    const kept = new KeptRounds(
      slowSecrets as unknown as vscode.SecretStorage,
      workspaceState as unknown as vscode.Memento,
      slowState('global') as unknown as vscode.Memento,
      log,
      Date.now,
    );
    kept.keep(round('Which song?'));
    await waitUntil(() => started.length === 3, 'the three writes to start', 2_000);
    assert.deepEqual(started.sort(), ['global elicit.keptRoundRecords', 'secret elicit.round', 'workspace elicit.keptRounds']);
    assert.equal(held.length, 3, 'none had to come back before the next went out');
    for (const release of held) release();
  });

  it('does not keep a round over the size cap, and tells the person it cannot survive a reload (finding 7)', async () => {
    const state = new MemoryState();
    const kept = window(state);
    const huge = kept.keep(round('Which key?', 'x'.repeat(8 * 1024 * 1024)));
    assert.equal(huge, undefined, 'an 8 MB round is not kept');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(secrets.values.size, 0, 'nothing went to SecretStorage');
    assert.equal(secrets.written, 0);
    assert.deepEqual(indexOf(state), []);
    assert.equal(standIn.warnings.length, 1);
    assert.match(standIn.warnings[0]![0], /songs/);
    assert.match(standIn.warnings[0]![0], /reload/);
  });

  it('writes a draft without rewriting the round it belongs to (finding 7)', async () => {
    const state = new MemoryState();
    const kept = window(state);
    const big = 'y'.repeat(200 * 1024);
    const handle = kept.keep(round('Which key?', big));
    assert.ok(handle, 'a 200 KB round is under the cap');
    await waitUntil(() => indexOf(state).length === 1, 'the round is in the index');
    const afterKeep = secrets.written;
    assert.ok(afterKeep >= big.length);
    for (const key of ['C', 'Am', 'F']) kept.save(handle.id, { key });
    await kept.freeze();
    const draftWrites = secrets.written - afterKeep;
    assert.ok(draftWrites > 0, 'the draft was written');
    assert.ok(draftWrites < 1024, `a draft write rewrote ${draftWrites} characters, not just the draft`);
    // After the reload the round comes back whole, with its draft.
    const next = window(state);
    const [summary] = next.keptBeforeReload();
    const back = await next.read(summary!.id);
    assert.equal(back?.requestState, big);
    assert.deepEqual(back?.draft, { key: 'F' });
  });

  it('sweeps the records of a workspace never reopened once they are older than the max age (finding 7)', async () => {
    const abandoned = new MemoryState();
    const long = Date.now() - 40 * DAY;
    const old = window(abandoned, () => long);
    assert.ok(old.keep(round('Old question')));
    await waitUntil(() => indexOf(abandoned).length === 1, 'the old round is kept');
    await old.freeze();
    const recent = new MemoryState();
    const yesterday = window(recent, () => Date.now() - DAY);
    assert.ok(yesterday.keep(round('Recent question')));
    await waitUntil(() => indexOf(recent).length === 1, 'the recent round is kept');
    await yesterday.freeze();
    assert.equal(secrets.values.size, 2);

    // Another workspace opens: the abandoned workspace's record goes, the recent one stays.
    const other = window(new MemoryState());
    await other.sweepOrphans();
    assert.equal(secrets.values.size, 1);
    const recentId = indexOf(recent)[0]!.id as string;
    assert.ok(
      [...secrets.values.keys()].every((key) => key.endsWith(recentId)),
      'only the recent record is left',
    );
  });

  it('keeps only a short one-line title of the question in workspace state (finding 7)', async () => {
    const state = new MemoryState();
    const kept = window(state);
    const message = `Which key?\n${'Tell me everything about your project and its secrets. '.repeat(100)}`;
    assert.ok(kept.keep(round(message)));
    await waitUntil(() => indexOf(state).length === 1, 'the round is in the index');
    const [entry] = indexOf(state);
    assert.deepEqual(Object.keys(entry!).sort(), ['id', 'keptAt', 'server', 'title']);
    assert.ok((entry!.title as string).length <= 80);
    assert.ok(!(entry!.title as string).includes('\n'));
    assert.ok((entry!.title as string).startsWith('Which key? Tell me'));

    // An index written before: its message goes at the next start, a short title stays.
    const before = new MemoryState();
    before.values.set('elicit.keptRounds', [{ id: 'old', server: 'songs', subject: 'tool song_sketch', message, keptAt: Date.now() }]);
    const reopened = window(before);
    assert.equal(reopened.keptBeforeReload()[0]!.title.length <= 80, true);
    await waitUntil(() => indexOf(before)[0]!.message === undefined, 'the old index is rewritten');
    assert.deepEqual(Object.keys(indexOf(before)[0]!).sort(), ['id', 'keptAt', 'server', 'title']);
    assert.ok(JSON.stringify(indexOf(before)).length < 200, 'no more of the message than the title');
  });
});

describe('answering a kept round after the reload (finding 5)', () => {
  it('refuses when the server now named like it is another one: the person is told, the round stays listed, nothing starts', async () => {
    standIn.reset();
    standIn.setFolders('/ws/app');
    // After the reload, "songs" in the workspace's mcp.json runs something else.
    standIn.files.set('/ws/app/.vscode/mcp.json', JSON.stringify({ servers: { songs: { command: 'node', args: ['impostor.js'] } } }));
    const log = vscode.window.createOutputChannel('Elicit', { log: true }) as unknown as vscode.LogOutputChannel;
    const registry = new ServerRegistry(async () => assert.fail('nothing is asked'), log);
    const secrets = new MemorySecretStore() as unknown as vscode.SecretStorage;
    const state = new MemoryState() as unknown as vscode.Memento;
    const globalState = new MemoryState() as unknown as vscode.Memento;
    try {
      const before = new KeptRounds(secrets, state, globalState, log);
      assert.ok(before.keep({ ...round('Which key?', 'state-of-the-real-songs'), origin: 'origin-of-the-real-songs' }));
      await waitUntil(() => (state.get<unknown[]>('elicit.keptRounds') ?? []).length === 1, 'the round is kept');
      await before.freeze();

      const after = new KeptRounds(secrets, state, globalState, log);
      const [summary] = after.keptBeforeReload();
      const services = { registry, log } as unknown as Services;
      await answerKeptRound(services, after, summary!);
      assert.equal(standIn.errorMessages.length, 1);
      assert.match(standIn.errorMessages[0]!, /songs as configured now is not the server that asked this question/);
      assert.match(standIn.errorMessages[0]!, /nothing was sent/);
      assert.deepEqual(
        after.keptBeforeReload().map((r) => r.id),
        [summary!.id],
        'the round stays listed, to dismiss or to answer once songs is as before',
      );
      assert.equal((await registry.get('songs'))!.status, 'stopped', 'the other server was not started');
    } finally {
      registry.dispose();
    }
  });
});
