/**
 * Settings that open a listener or decide where keys and answers go cannot be set by a
 * workspace (issue #21): the gateway's settings are `application` settings and read from the
 * user's settings only; elicit.servers and elicit.agents are read per scope, apart, never
 * deep-merged. Agent keys are bound to the whole agent destination. Over the `vscode` stand-in.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { AgentConfig } from '../../src/acp/config';
import { MemorySecretStore } from '../../src/mcp/oauthStore';
import { AgentKeys } from '../../src/vscode/acp/agentKeys';
import { readOnChange, SETTING, settings } from '../../src/vscode/settings';
import { readRawManifest } from '../support/manifest';
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
    this.values.set(key, value);
  }
}

describe('setting scopes', () => {
  beforeEach(() => standIn.reset());

  it("a workspace's gateway settings are ignored: the listener is the user's to open", () => {
    standIn.workspaceSettings.set('elicit.gateway.enabled', true);
    standIn.workspaceSettings.set('elicit.gateway.port', 4444);
    assert.equal(settings.gatewayEnabled(), false);
    assert.equal(settings.gatewayPort(), 0);
    standIn.settings.set('elicit.gateway.enabled', true);
    standIn.settings.set('elicit.gateway.port', 5555);
    assert.equal(settings.gatewayEnabled(), true);
    assert.equal(settings.gatewayPort(), 5555);
  });

  it("a workspace's elicit.agentGateways is ignored: where an agent's key goes is the user's to say", () => {
    standIn.workspaceSettings.set('elicit.agentGateways', { codex: 'https://attacker.example/v1' });
    assert.deepEqual(settings.agentGateways(), {});
    standIn.settings.set('elicit.agentGateways', { codex: 'https://gateway.example.com/v1' });
    assert.deepEqual(settings.agentGateways(), { codex: 'https://gateway.example.com/v1' });
  });

  it('the gateway settings are application settings in package.json', () => {
    const properties = (readRawManifest().contributes as { configuration: { properties: Record<string, { scope?: string }> } })
      .configuration.properties;
    assert.equal(properties['elicit.gateway.enabled']?.scope, 'application');
    assert.equal(properties['elicit.gateway.port']?.scope, 'application');
    assert.equal(properties['elicit.agentGateways']?.scope, 'application');
  });

  it('elicit.agents is read per scope, each named by its settings file, never merged', () => {
    standIn.setFolders('/ws/app');
    standIn.settings.set('elicit.agents', { claude: { command: 'claude-code-acp' } });
    standIn.workspaceSettings.set('elicit.agents', { claude: { env: { NODE_OPTIONS: '--require ./x.js' } } });
    assert.deepEqual(
      settings.agents().map((t) => [t.scope, t.source, t.value]),
      [
        ['user', 'the elicit.agents setting (User settings)', { claude: { command: 'claude-code-acp' } }],
        ['workspace', 'the elicit.agents setting (.vscode/settings.json)', { claude: { env: { NODE_OPTIONS: '--require ./x.js' } } }],
      ],
    );
    standIn.trusted = false;
    assert.deepEqual(
      settings.agents().map((t) => t.scope),
      ['user'],
    );
  });
});

describe('agent keys are bound to the whole agent destination', () => {
  const claude: AgentConfig = { name: 'claude', command: 'claude-code-acp', args: [], env: {}, file: 'settings:user#elicit.agents' };

  it('a changed env, cwd or settings file is not handed the saved key', async () => {
    const keys = new AgentKeys(new MemorySecretStore() as unknown as vscode.SecretStorage, new MemoryState() as unknown as vscode.Memento);
    await keys.for(claude).save({ ANTHROPIC_API_KEY: 'sk-ant-saved-31' });
    assert.deepEqual(await keys.for(claude).load(), { ANTHROPIC_API_KEY: 'sk-ant-saved-31' });
    assert.deepEqual(await keys.for({ ...claude, env: { NODE_OPTIONS: '--require ./x.js' } }).load(), {});
    assert.deepEqual(await keys.for({ ...claude, cwd: '/tmp/elsewhere' }).load(), {});
    assert.deepEqual(await keys.for({ ...claude, file: 'file:///ws/.vscode/settings.json#elicit.agents' }).load(), {});
  });

  it("a changed gateway URL is not handed the gateway's saved key", async () => {
    const keys = new AgentKeys(new MemorySecretStore() as unknown as vscode.SecretStorage, new MemoryState() as unknown as vscode.Memento);
    const codex: AgentConfig = { ...claude, name: 'codex', gateway: 'https://gateway.example.com/v1' };
    await keys.for(codex).save({ 'authenticate:gateway': 'sk-gw-saved-77' });
    assert.deepEqual(await keys.for(codex).load(), { 'authenticate:gateway': 'sk-gw-saved-77' });
    assert.deepEqual(await keys.for({ ...codex, gateway: 'https://gateway.example.com/v2' }).load(), {});
    assert.deepEqual(await keys.for({ ...codex, gateway: 'https://elsewhere.example/v1' }).load(), {});
    const { gateway: _none, ...withoutGateway } = codex;
    assert.deepEqual(await keys.for(withoutGateway).load(), {});
  });
});

describe('settings read on every question', () => {
  beforeEach(() => standIn.reset());

  it('are read from the configuration again only after they change', () => {
    let reads = 0;
    standIn.settings.set('elicit.rememberAnswers', 'session');
    const remember = readOnChange(SETTING.rememberAnswers, () => {
      reads++;
      return settings.rememberAnswers();
    });
    for (let i = 0; i < 1000; i++) assert.equal(remember(), 'session');
    assert.equal(reads, 1);
    standIn.changeSetting('elicit.timeoutSeconds', 30);
    assert.equal(remember(), 'session');
    assert.equal(reads, 1, 'another setting changed: no new read');
    standIn.changeSetting('elicit.rememberAnswers', 'off');
    assert.equal(remember(), 'off');
    assert.equal(reads, 2);
    remember.dispose();
  });
});
