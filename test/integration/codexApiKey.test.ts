/**
 * Signing in to the real @agentclientprotocol/codex-acp 2.6.0 with an API key
 * the person types, offline: codex offers "API Key" as an agent method that
 * takes the key in `authenticate`'s `_meta["api-key"].apiKey` (not from a
 * variable Elicit would set). Elicit's sign-in (src/acp/signIn.ts) asks for it,
 * sends it there and nowhere else (not in codex's environment), keeps it once
 * codex accepts it, and a turn then reaches the scripted Responses endpoint
 * (`openai_base_url` in its config) with that key. codex does not check a key when it signs in:
 * a wrong one is refused by the model service at the first turn, which codex
 * reports as "authentication required"; after Sign Out, signing in asks again.
 * Elicit then forgets the refused key, asks again saying codex refused it, signs
 * in with the new one and runs the turn once more (retryRefusedKey).
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuthMethodView, EnvVarAuthMethod } from '../../src/acp/authMethods';
import type { AgentConfig } from '../../src/acp/config';
import { retryRefusedKey, withSignIn, type SavedKeys, type SignInUi } from '../../src/acp/signIn';
import { tempDir } from '../support/acpFixture';
import { repoRoot, startRealAgent, stopRealAgent, type RealAgent } from '../support/realAgent';
import { responsesEndpoint } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';

const codexAcp = join(repoRoot, 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');
const KEY = 'sk-integration-codex-7f3e91c2';
const WRONG = 'sk-integration-wrong-0b5d66aa';

function memoryKeys(): SavedKeys & { values: Record<string, string> } {
  const store = {
    values: {} as Record<string, string>,
    load: async () => ({ ...store.values }),
    save: async (values: Record<string, string>) => void Object.assign(store.values, values),
    forget: async (names: readonly string[]) => {
      for (const n of names) delete store.values[n];
    },
  };
  return store;
}

/** The person: picks codex's API Key method and types the next key; `seen` says what was asked. */
function typing(keys: string[]): SignInUi & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    pickMethod: async (methods: readonly AuthMethodView[], problem) => {
      seen.push(`pick${problem ? `: ${problem}` : ''}`);
      assert.ok(seen.length <= 6, `signing in goes round: ${seen.join(' | ')}`);
      const method = methods.find((m) => m.id === 'api-key');
      assert.ok(method, `codex offered no api-key (offered: ${methods.map((m) => m.id).join(', ')})`);
      return method;
    },
    askVariables: async (method: EnvVarAuthMethod, reason) => {
      seen.push(`ask ${method.vars.map((v) => v.name).join(',')}${reason ? `: ${reason}` : ''}`);
      const key = keys.shift();
      assert.ok(key, 'an unexpected key prompt');
      return { [method.vars[0]!.name]: key };
    },
    runTerminalLogin: async () => assert.fail('no terminal login expected'),
  };
}

describe('codex-acp 2.6.0: an API key typed in Elicit, offline', { timeout: 300_000 }, () => {
  let temp: string;
  let model: ScriptedModel;
  let codex: RealAgent | undefined;
  const starts: Array<Record<string, string>> = [];

  before(async () => {
    temp = tempDir('elicit-codex-key-');
    mkdirSync(join(temp, 'workspace'));
    model = responsesEndpoint();
    model.acceptedKey = KEY;
    await model.start();
  });

  after(async () => {
    try {
      await stopRealAgent(codex);
      await model?.close();
    } finally {
      if (temp) rmSync(temp, { recursive: true, force: true });
    }
  });

  /** A codex with an empty CODEX_HOME (not signed in) and the scripted endpoint as its OpenAI service. */
  async function start(home: string, secretEnv: Record<string, string>) {
    starts.push(secretEnv);
    await stopRealAgent(codex);
    mkdirSync(join(temp, home), { recursive: true });
    // codex's own OpenAI provider (it needs the sign-in), pointed at the scripted endpoint.
    writeFileSync(join(temp, home, 'config.toml'), `openai_base_url = "${model.url}/v1"\n`);
    codex = await startRealAgent({
      name: 'codex',
      command: process.execPath,
      args: [codexAcp],
      env: { ...secretEnv, CODEX_HOME: join(temp, home), NO_BROWSER: '1' },
      workspace: join(temp, 'workspace'),
      record: join(temp, `${home}.tap.jsonl`),
    });
    return codex.connection;
  }

  const agent: AgentConfig = { name: 'codex', command: process.execPath, args: [codexAcp], env: {} };
  const workspace = (): string => join(temp, 'workspace');

  /** Signs in to a codex started afresh in its own home, as Elicit does before a first session. */
  function signInFresh(home: string, ui: SignInUi, keys: SavedKeys, notice: Parameters<typeof withSignIn>[0]['notice'] = () => undefined) {
    return withSignIn({
      agent,
      start: (env) => start(home, env),
      attempt: (c) => c.newSession(workspace()),
      ui,
      keys,
      notice,
      signal: new AbortController().signal,
    });
  }

  it('the key typed reaches authenticate only, is kept, and a turn runs against the endpoint with it', async () => {
    assert.equal(process.env.OPENAI_API_KEY ?? process.env.CODEX_API_KEY, undefined, 'the test runs without a key of its own');
    const ui = typing([KEY]);
    const keys = memoryKeys();
    const { connection, result } = await signInFresh('home-a', ui, keys);
    assert.deepEqual(ui.seen, ['pick', 'ask authenticate:api-key']);
    const authenticate = codex!.lines().filter((l) => l.dir === 'in' && l.message?.method === 'authenticate');
    assert.deepEqual(
      authenticate.map((l) => l.message!.params),
      [{ methodId: 'api-key', _meta: { 'api-key': { apiKey: KEY } } }],
    );
    assert.deepEqual(keys.values, { 'authenticate:api-key': KEY });
    // Never in codex's environment: one start, with no variables.
    assert.deepEqual(starts, [{}]);

    model.script({ text: 'Signed in and answering.' });
    assert.equal(await connection.prompt(result.sessionId, 'Say hello'), 'end_turn');
    const turn = model.turnRequests.at(-1)!;
    assert.equal(turn.headers.authorization, `Bearer ${KEY}`);
    assert.equal(model.remaining, 0, 'the scripted turn was taken');
  });

  it('a wrong key is refused at the first turn (codex: authentication required); after Sign Out, signing in asks for the key', async () => {
    starts.length = 0;
    const ui = typing([WRONG, KEY]);
    const keys = memoryKeys();
    const open = await signInFresh('home-b', ui, keys);
    // codex-acp 2.6 takes any key at authenticate.
    assert.deepEqual(keys.values, { 'authenticate:api-key': WRONG });
    const refusedBefore = model.requests.filter((r) => r.refused).length;
    model.script({ text: 'Now with the right key.' });
    await assert.rejects(open.connection.prompt(open.result.sessionId, 'Say hello'), (error: { code?: number }) => error.code === -32000);
    const refused = model.requests.filter((r) => r.refused).slice(refusedBefore);
    assert.ok(
      refused.length > 0 && refused.every((r) => r.headers.authorization === `Bearer ${WRONG}`),
      'the wrong key reached the endpoint',
    );

    // The panel's Sign Out forgets the agent's keys (agentKeys.forgetAgent); then signing in asks again.
    await keys.forget(Object.keys(keys.values));
    const again = await withSignIn({
      agent,
      start: (env) => start('home-b', env),
      started: open.connection,
      signInFirst: true,
      attempt: (c) => c.newSession(workspace()),
      ui,
      keys,
      notice: () => undefined,
      signal: new AbortController().signal,
    });
    assert.deepEqual(ui.seen, ['pick', 'ask authenticate:api-key', 'pick', 'ask authenticate:api-key']);
    assert.deepEqual(keys.values, { 'authenticate:api-key': KEY });
    assert.equal(await again.connection.prompt(again.result.sessionId, 'Say hello'), 'end_turn');
    assert.equal(model.turnRequests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(starts, [{}], 'codex was never restarted with a key in its environment');
  });

  it("a key refused at the first turn is forgotten, asked for again with codex's words, and the turn is retried once with the new key", async () => {
    starts.length = 0;
    const ui = typing([WRONG, KEY]);
    const keys = memoryKeys();
    const notices: string[] = [];
    const open = await signInFresh('home-c', ui, keys, (_severity, text) => notices.push(text));
    assert.equal(open.keyMethod?.id, 'api-key', 'the sign-in says which key it sent');
    assert.deepEqual(keys.values, { 'authenticate:api-key': WRONG });
    const refusedBefore = model.requests.filter((r) => r.refused).length;
    const turnsBefore = model.turnRequests.length;
    model.script({ text: 'Answered after the second key.' });
    const stopReason = await retryRefusedKey({
      agent,
      connection: open.connection,
      method: open.keyMethod!,
      run: () => open.connection.prompt(open.result.sessionId, 'Say hello'),
      ui,
      keys,
      notice: (_severity, text) => notices.push(text),
      signal: new AbortController().signal,
    });
    assert.equal(stopReason, 'end_turn');
    // Asked once more, with codex's own words as the reason (the key box shows them inert).
    assert.deepEqual(ui.seen, ['pick', 'ask authenticate:api-key', 'ask authenticate:api-key: Authentication required']);
    assert.ok(
      notices.some((n) => n === 'codex refused the key at the first turn: Authentication required'),
      notices.join(' | '),
    );
    const refused = model.requests.filter((r) => r.refused).slice(refusedBefore);
    assert.ok(refused.length > 0 && refused.every((r) => r.headers.authorization === `Bearer ${WRONG}`));
    const turns = model.turnRequests.slice(turnsBefore);
    assert.equal(turns.length, 1, 'the turn ran once more, once');
    assert.equal(turns[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(keys.values, { 'authenticate:api-key': KEY }, 'the refused key is forgotten, the accepted one kept');
    const authenticate = codex!.lines().filter((l) => l.dir === 'in' && l.message?.method === 'authenticate');
    assert.deepEqual(
      authenticate.map((l) => (l.message!.params!._meta as { 'api-key': { apiKey: string } })['api-key'].apiKey),
      [WRONG, KEY],
    );
    assert.deepEqual(starts, [{}], 'no restart: the key goes in authenticate');
  });

  it('a second refusal is not asked again: the turn fails as codex said, and no refused key is kept', async () => {
    const ui = typing([WRONG, 'sk-integration-wrong-again-41']);
    const keys = memoryKeys();
    const open = await signInFresh('home-d', ui, keys);
    await assert.rejects(
      retryRefusedKey({
        agent,
        connection: open.connection,
        method: open.keyMethod!,
        run: () => open.connection.prompt(open.result.sessionId, 'Say hello'),
        ui,
        keys,
        notice: () => undefined,
        signal: new AbortController().signal,
      }),
      (error: { code?: number }) => error.code === -32000,
    );
    assert.equal(ui.seen.filter((s) => s.startsWith('ask')).length, 2, 'asked once again, not more');
    assert.deepEqual(keys.values, {});
  });
});
