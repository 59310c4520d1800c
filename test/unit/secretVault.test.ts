/**
 * What the secret vault keeps: a secret answer under the asker's origin (so a
 * server of the same name from elsewhere is not offered it), nothing for an
 * asker whose origin is unknown, names only in the index, named secrets and
 * mcp.json password inputs, and forgetting. Over the `vscode` stand-in, with
 * SecretStorage and the global state in memory.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { Question } from '../../src/core/broker/broker';
import type { Asker } from '../../src/core/request';
import { normalize } from '../../src/core/form/normalize';
import { MemorySecretStore } from '../../src/mcp/oauthStore';
import { CONFIGURATION_INPUT } from '../../src/vscode/savedSecrets';
import { SecretVault } from '../../src/vscode/secrets/secretVault';

class MemoryState {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const schema = {
  type: 'object',
  properties: { token: { type: 'string', format: 'password' }, team: { type: 'string' } },
};

function question(asker: Asker): Question {
  return {
    id: 1,
    request: { mode: 'form', asker, message: 'Sign in', requestedSchema: schema },
    form: normalize(schema),
    presentation: 'form',
    receivedAt: Date.now(),
    state: 'showing',
  } as Question;
}

const weather: Asker = { kind: 'mcp', name: 'weather', origin: 'origin-of-app/.vscode/mcp.json' };
const answer = { action: 'accept' as const, content: { token: 'hunter2', team: 'audio' } };

describe('SecretVault (over the vscode stand-in)', () => {
  let secrets: MemorySecretStore;
  let vault: SecretVault;

  beforeEach(() => {
    secrets = new MemorySecretStore();
    vault = new SecretVault(secrets as unknown as vscode.SecretStorage, new MemoryState() as unknown as vscode.Memento);
  });

  it('keeps a secret answer under the asker origin, and offers it to that origin only', async () => {
    let changes = 0;
    vault.onDidChange(() => changes++);
    await vault.saveFrom(question(weather), answer);
    assert.equal(changes, 1);
    assert.deepEqual([...secrets.values.values()], ['hunter2'], 'only the secret field is kept');
    assert.equal(await vault.get(weather, 'token'), 'hunter2');
    assert.deepEqual(vault.available(question(weather)), ['token']);
    const namesake: Asker = { ...weather, origin: 'origin-of-a-cloned-repo' };
    assert.equal(vault.has(namesake, 'token'), false);
    assert.deepEqual(vault.available(question(namesake)), []);
    assert.deepEqual(
      vault.list().map((s) => [s.askerKind, s.askerName, s.field]),
      [['mcp', 'weather', 'token']],
    );
    assert.ok(!JSON.stringify(vault.list()).includes('hunter2'), 'the index holds names, never values');
  });

  it('keeps nothing for an asker with no origin, a declined answer or a configuration input', async () => {
    await vault.saveFrom(question({ kind: 'mcp', name: 'weather' }), answer);
    await vault.saveFrom(question({ kind: 'extension', name: 'someone.else', origin: 'claimed' }), answer);
    await vault.saveFrom(question(weather), { action: 'decline' });
    await vault.saveFrom(question({ ...weather, detail: CONFIGURATION_INPUT }), answer);
    assert.equal(secrets.values.size, 0);
    assert.deepEqual(vault.list(), []);
  });

  it('keeps named secrets and mcp.json inputs, and forgets them', async () => {
    await vault.storeNamed('deploy-token', 's3cret');
    await vault.saveInput('file:///ws/app/.vscode/mcp.json', 'api-key', 'weather', 'k-123');
    assert.equal(await vault.getNamed('deploy-token'), 's3cret');
    assert.equal(await vault.getInput('file:///ws/app/.vscode/mcp.json', 'api-key'), 'k-123');
    assert.equal(await vault.getInput('file:///ws/other/.vscode/mcp.json', 'api-key'), undefined, 'inputs are per config file');

    await vault.forget(vault.list());
    await vault.forgetInputs(vault.listInputs());
    assert.equal(await vault.getNamed('deploy-token'), undefined);
    assert.equal(secrets.values.size, 0);
    assert.deepEqual([vault.list(), vault.listInputs()], [[], []]);
  });
});
