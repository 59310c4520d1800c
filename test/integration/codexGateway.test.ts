/**
 * The person's own model endpoint or company gateway for the real
 * @agentclientprotocol/codex-acp 2.6.0, offline: with a gateway URL configured
 * for the agent (elicit.agentGateways), Elicit advertises
 * `clientCapabilities.auth._meta.gateway`, codex offers its "Custom model
 * gateway" method, and Elicit's sign-in picks it, asks for the key and sends
 * it in `authenticate`'s `_meta.gateway.headers`. codex then posts each turn to
 * `{url}/responses` (a scripted Responses endpoint) with that key. The key is
 * kept for the agent and that URL: another URL asks again. Nothing the agent
 * or Elicit writes holds the key in plain text.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EnvVarAuthMethod } from '../../src/acp/authMethods';
import { agentOrigin, type AgentConfig } from '../../src/acp/config';
import { withSignIn, type SavedKeys, type SignInUi } from '../../src/acp/signIn';
import { tempDir } from '../support/acpFixture';
import { findInFiles } from '../support/leakScan';
import { repoRoot, startRealAgent, stopRealAgent, type RealAgent } from '../support/realAgent';
import { responsesEndpoint } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';

const codexAcp = join(repoRoot, 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');
const KEY = 'sk-gateway-integration-5d1e70aa';
const OTHER_KEY = 'sk-gateway-other-9c42b7e1';
const OWN_LOGIN = 'sk-codex-own-login-3a8f0d';

/** Saved keys as AgentKeys binds them: per agent destination (agentOrigin, the gateway URL included). */
function keyStore() {
  const byDestination = new Map<string, Record<string, string>>();
  return {
    byDestination,
    for(agent: AgentConfig): SavedKeys {
      const bound = agentOrigin(agent);
      const values = (): Record<string, string> => byDestination.get(bound) ?? {};
      return {
        load: async () => ({ ...values() }),
        save: async (typed) => void byDestination.set(bound, { ...values(), ...typed }),
        forget: async (names) =>
          void byDestination.set(bound, Object.fromEntries(Object.entries(values()).filter(([n]) => !names.includes(n)))),
      };
    },
  };
}

/** The person: never picks a method (the gateway is chosen for them), types the next key when asked. */
function typing(keys: string[]): SignInUi & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    pickMethod: async (methods) =>
      assert.fail(`no pick expected with a gateway configured (offered: ${methods.map((m) => m.id).join(', ')})`),
    askVariables: async (method: EnvVarAuthMethod, reason) => {
      seen.push(`ask ${method.id} for ${method.gateway}${reason ? `: ${reason}` : ''}`);
      const key = keys.shift();
      assert.ok(key, 'an unexpected key prompt');
      return { [method.vars[0]!.name]: key };
    },
    runTerminalLogin: async () => assert.fail('no terminal login expected'),
  };
}

describe("codex-acp 2.6.0: a gateway of the person's own, offline", { timeout: 300_000 }, () => {
  let temp: string;
  let gateway: ScriptedModel;
  let other: ScriptedModel;
  let codex: RealAgent | undefined;

  before(async () => {
    temp = tempDir('elicit-codex-gateway-');
    mkdirSync(join(temp, 'workspace'));
    gateway = responsesEndpoint();
    gateway.acceptedKey = KEY;
    await gateway.start();
    other = responsesEndpoint();
    other.acceptedKey = OTHER_KEY;
    await other.start();
  });

  after(async () => {
    try {
      await stopRealAgent(codex);
      await gateway?.close();
      await other?.close();
    } finally {
      if (temp) rmSync(temp, { recursive: true, force: true });
    }
  });

  const workspace = (): string => join(temp, 'workspace');
  const home = (name: string): string => join(temp, name);

  /** codex with an empty CODEX_HOME (no config, not signed in) and, when given, a gateway URL of the person's. */
  async function start(name: string, url: string | undefined, tap = name) {
    await stopRealAgent(codex);
    mkdirSync(home(name), { recursive: true });
    codex = await startRealAgent({
      name: 'codex',
      command: process.execPath,
      args: [codexAcp],
      env: { CODEX_HOME: home(name), NO_BROWSER: '1' },
      workspace: workspace(),
      record: join(temp, `${tap}.tap.jsonl`),
      ...(url !== undefined ? { gateway: url } : {}),
    });
    return codex;
  }

  const initializeAuth = (agent: RealAgent): unknown =>
    (
      agent.lines().find((l) => l.dir === 'in' && l.message?.method === 'initialize')?.message?.params?.clientCapabilities as {
        auth?: unknown;
      }
    )?.auth;

  it('advertises the gateway capability only for an agent with a gateway URL, and only then reads the method', async () => {
    const plain = await start('home-plain', undefined);
    assert.deepEqual(initializeAuth(plain), { terminal: false });
    assert.ok(!plain.connection.authMethods.some((m) => m.id === 'gateway'));

    const url = `${gateway.url}/v1`;
    const configured = await start('home-configured', url);
    assert.deepEqual(initializeAuth(configured), { terminal: false, _meta: { gateway: true } });
    const method = configured.connection.authMethods.find((m) => m.id === 'gateway');
    assert.equal(method?.kind, 'env_var');
    assert.equal((method as EnvVarAuthMethod).gateway, url);
  });

  it('signs in through the gateway with the key typed, the turn reaches the gateway with it, and no file holds it', async () => {
    const url = `${gateway.url}/v1`;
    const agent: AgentConfig = { name: 'codex', command: process.execPath, args: [codexAcp], env: {}, gateway: url };
    const keys = keyStore();
    const ui = typing([KEY]);
    const { connection, result, keyMethod } = await withSignIn({
      agent,
      start: () => start('home-a', url).then((a) => a.connection),
      attempt: (c) => c.newSession(workspace()),
      ui,
      keys: keys.for(agent),
      notice: () => undefined,
      signal: new AbortController().signal,
    });
    assert.deepEqual(ui.seen, [`ask gateway for ${url}`]);
    assert.equal(keyMethod?.id, 'gateway');
    const authenticate = codex!.lines().filter((l) => l.dir === 'in' && l.message?.method === 'authenticate');
    assert.deepEqual(
      authenticate.map((l) => l.message!.params),
      [{ methodId: 'gateway', _meta: { gateway: { baseUrl: url, headers: { Authorization: `Bearer ${KEY}` } } } }],
    );
    assert.deepEqual(await keys.for(agent).load(), { 'authenticate:gateway': KEY });

    gateway.script({ text: 'Answered through your gateway.' });
    assert.equal(await connection.prompt(result.sessionId, 'Say hello'), 'end_turn');
    const turn = gateway.turnRequests.at(-1)!;
    assert.equal(turn.url, '/v1/responses');
    assert.equal(turn.headers.authorization, `Bearer ${KEY}`, 'the key arrives as the agent sends it');
    assert.equal(gateway.remaining, 0, 'the gateway received the turn');
    assert.equal(gateway.requests.filter((r) => r.refused).length, 0);

    await stopRealAgent(codex);
    codex = undefined;
    // What codex wrote (its home: config, sessions, logs) and the workspace; the test's own tap record is not the agent's.
    assert.deepEqual(findInFiles([home('home-a'), workspace()], KEY), []);
  });

  it('a changed gateway URL is not given the saved key: the person is asked again, and the other gateway gets the turn', async () => {
    const keys = keyStore();
    const first: AgentConfig = { name: 'codex', command: process.execPath, args: [codexAcp], env: {}, gateway: `${gateway.url}/v1` };
    await keys.for(first).save({ 'authenticate:gateway': KEY });
    const moved: AgentConfig = { ...first, gateway: `${other.url}/v1` };
    const ui = typing([OTHER_KEY]);
    const { connection, result } = await withSignIn({
      agent: moved,
      start: () => start('home-b', moved.gateway).then((a) => a.connection),
      attempt: (c) => c.newSession(workspace()),
      ui,
      keys: keys.for(moved),
      notice: () => undefined,
      signal: new AbortController().signal,
    });
    assert.deepEqual(ui.seen, [`ask gateway for ${other.url}/v1`], 'asked again for the new URL');
    const sent = JSON.stringify(codex!.lines().filter((l) => l.dir === 'in' && l.message?.method === 'authenticate'));
    assert.ok(!sent.includes(KEY), "the first gateway's key was not sent for the other URL");
    other.script({ text: 'The other gateway answers.' });
    assert.equal(await connection.prompt(result.sessionId, 'Say hello'), 'end_turn');
    assert.equal(other.turnRequests.at(-1)!.headers.authorization, `Bearer ${OTHER_KEY}`);
    assert.ok(!other.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`));
    assert.deepEqual(await keys.for(first).load(), { 'authenticate:gateway': KEY }, 'the first URL keeps its own key');
  });

  it('signs in through the gateway first even when codex holds a login of its own, so the turn goes to the gateway', async () => {
    // A login codex keeps in its home (an API key it was given before, in another session).
    const own = await start('home-own', undefined);
    await own.connection.authenticate('api-key', { 'api-key': { apiKey: OWN_LOGIN } });
    await own.connection.newSession(workspace());
    const url = `${gateway.url}/v1`;
    const agent: AgentConfig = { name: 'codex', command: process.execPath, args: [codexAcp], env: {}, gateway: url };
    const keys = keyStore();
    await keys.for(agent).save({ 'authenticate:gateway': KEY });
    const ui = typing([]);
    const { connection, result } = await withSignIn({
      agent,
      start: () => start('home-own', url, 'home-own-again').then((a) => a.connection),
      attempt: (c) => c.newSession(workspace()),
      ui,
      keys: keys.for(agent),
      notice: () => undefined,
      signal: new AbortController().signal,
    });
    assert.deepEqual(ui.seen, [], 'the saved gateway key is used without asking');
    const methods = codex!
      .lines()
      .flatMap((l) => (l.dir === 'in' && l.message?.method === 'authenticate' ? [l.message.params!.methodId] : []));
    assert.deepEqual(methods, ['gateway']);
    gateway.script({ text: 'Through the gateway, not the login codex kept.' });
    assert.equal(await connection.prompt(result.sessionId, 'Say hello'), 'end_turn');
    assert.equal(gateway.turnRequests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(gateway.remaining, 0);
    assert.ok(!gateway.requests.some((r) => r.headers.authorization === `Bearer ${OWN_LOGIN}`));
  });
});
