/**
 * Signing in to an agent (src/acp/signIn.ts) against the fixture agent as a
 * real process: keys typed for an env_var method reach the agent's environment
 * (the agent records a digest of what it got), are kept only when the agent
 * accepts them and are asked again once when it refuses; a terminal login runs
 * the agent's own command with the method's args and env; and a session/new
 * that fails is reported with the agent's details and stderr. The person is a
 * script; the key store is a map (SecretStorage itself is covered end to end).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { AgentRequestError, sessionFailure } from '../../src/acp/agentErrors';
import type { AuthMethodView, EnvVarAuthMethod } from '../../src/acp/authMethods';
import type { AgentConfig } from '../../src/acp/config';
import type { AcpConnection } from '../../src/acp/connection';
import { NotSignedInError, withSignIn, type SavedKeys, type SignInUi, type TerminalLogin } from '../../src/acp/signIn';
import { fixtureAgent, fixtureConnection, tempDir } from '../support/acpFixture';
import { newRecordFile, readRecords } from '../support/records';

const workspace = tempDir('elicit-acp-signin-ws-');
const digest = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A key store over a map, and what happened to it. */
function memoryKeys(initial: Record<string, string> = {}): SavedKeys & { values: Record<string, string> } {
  const store = {
    values: { ...initial },
    load: async () => ({ ...store.values }),
    save: async (values: Record<string, string>) => void Object.assign(store.values, values),
    forget: async (names: readonly string[]) => {
      for (const n of names) delete store.values[n];
    },
  };
  return store;
}

interface Script {
  picks: Array<(methods: readonly AuthMethodView[], problem: string | undefined) => AuthMethodView | undefined>;
  keys: Array<(method: EnvVarAuthMethod, reason: string | undefined) => Record<string, string> | undefined>;
  logins: Array<(login: TerminalLogin) => Promise<number | undefined>>;
}

function scriptedUi(script: Script): SignInUi & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    pickMethod: async (methods, problem) => {
      seen.push(`pick${problem ? `: ${problem}` : ''}`);
      const next = script.picks.shift();
      assert.ok(next, `an unexpected method pick (${problem ?? 'no problem'})`);
      return next(methods, problem);
    },
    askVariables: async (method, reason) => {
      seen.push(`ask ${method.vars.map((v) => v.name).join(',')}${reason ? `: ${reason}` : ''}`);
      const next = script.keys.shift();
      assert.ok(next, 'an unexpected key prompt');
      return next(method, reason);
    },
    runTerminalLogin: async (login) => {
      seen.push(`terminal ${login.args.slice(1).join(' ')}`);
      const next = script.logins.shift();
      assert.ok(next, 'an unexpected terminal login');
      return next(login);
    },
  };
}

function byId(id: string) {
  return (methods: readonly AuthMethodView[]) => {
    const method = methods.find((m) => m.id === id);
    assert.ok(method, `the agent offered no ${id} (offered: ${methods.map((m) => m.id).join(', ')})`);
    return method;
  };
}

/** Opens a session with sign-in; every agent process started is kept in `started`, every log line in `log`. */
async function open(agent: AgentConfig, ui: SignInUi, keys: SavedKeys, options: { terminalLogins?: boolean; signInFirst?: boolean } = {}) {
  const started: Array<{ connection: AcpConnection; env: Record<string, string> }> = [];
  const log: string[] = [];
  const notices: string[] = [];
  let current: AcpConnection | undefined;
  const run = withSignIn({
    agent,
    start: async (secretEnv) => {
      await current?.stop();
      current = fixtureConnection(agent, workspace, { secretEnv, terminalLogins: options.terminalLogins === true }, log);
      started.push({ connection: current, env: secretEnv });
      await current.start();
      return current;
    },
    attempt: (c) => c.newSession(workspace),
    signInFirst: options.signInFirst === true,
    ui,
    keys,
    notice: (severity, text) => notices.push(`${severity}: ${text}`),
    signal: new AbortController().signal,
  });
  return { run, started, log, notices };
}

/** A terminal login as an integrated terminal runs it: the agent's command, the method's args and env, input typed. */
function typeInto(answer: string) {
  return (login: TerminalLogin) =>
    new Promise<number | undefined>((resolve, reject) => {
      const child = spawn(login.command, login.args, {
        env: { ...process.env, ...login.env },
        cwd: login.cwd ?? workspace,
        stdio: ['pipe', 'ignore', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? undefined));
      child.stdin.end(`${answer}\n`);
    });
}

describe('Signing in with a key in the environment (env_var)', () => {
  it('asks for the key, restarts the agent with it, asks once more when it is refused, keeps only the accepted key', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('keyed', { RECORD_FILE: record, REQUIRE_AUTH: '1' });
    const keys = memoryKeys();
    const ui = scriptedUi({
      picks: [byId('fixture-key')],
      keys: [() => ({ FIXTURE_API_KEY: 'bad-key-1a2b' }), () => ({ FIXTURE_API_KEY: 'good-key-3c4d' })],
      logins: [],
    });
    const { run, started, log } = await open(agent, ui, keys);
    const { connection, result } = await run;

    assert.ok(result.sessionId);
    assert.equal(connection, started.at(-1)!.connection);
    assert.deepEqual(ui.seen, [
      'pick',
      'ask FIXTURE_API_KEY',
      'ask FIXTURE_API_KEY: Use FIXTURE_API_KEY failed: Internal error: the key •••• was refused: a fixture key starts with "good-"',
    ]);
    const records = readRecords(record);
    const auth = records.filter((r) => r.kind === 'authenticate');
    assert.deepEqual(
      auth.map((r) => r.keyDigest),
      [digest('bad-key-1a2b'), digest('good-key-3c4d')],
      'the agent got each typed key in its environment',
    );
    assert.equal(records.find((r) => r.kind === 'session')!.keyDigest, digest('good-key-3c4d'));
    assert.deepEqual(
      started.map((s) => s.env),
      [{}, { FIXTURE_API_KEY: 'bad-key-1a2b' }, { FIXTURE_API_KEY: 'good-key-3c4d' }],
      'restarted for each key',
    );
    assert.deepEqual(keys.values, { FIXTURE_API_KEY: 'good-key-3c4d' });
    assert.ok(!log.some((line) => line.includes('key-1a2b') || line.includes('key-3c4d')), 'no key in the log');
    assert.ok(!ui.seen.join('\n').includes('bad-key-1a2b'), 'the refused key, quoted by the agent, is masked in its reason');
  });

  it('uses a saved key without asking, from the first start', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('keyed-again', { RECORD_FILE: record, REQUIRE_AUTH: '1' });
    const ui = scriptedUi({ picks: [], keys: [], logins: [] });
    const { run, started, notices } = await open(agent, ui, memoryKeys({ FIXTURE_API_KEY: 'good-saved-5e6f' }));
    await run;
    assert.deepEqual(ui.seen, []);
    assert.equal(started.length, 1, 'no restart: the saved key was there from the start');
    const kinds = readRecords(record).map((r) => (r.kind === 'authenticate' ? `authenticate ${String(r.methodId)}` : r.kind));
    assert.deepEqual(kinds, ['initialize', 'auth-required', 'authenticate fixture-key', 'session']);
    assert.deepEqual(notices, ['info: Signed in to keyed-again (Use FIXTURE_API_KEY).']);
  });

  it('a refused saved key is asked again once with the reason, then forgotten; giving up is not an error of the agent', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('keyed-refused', { RECORD_FILE: record, REQUIRE_AUTH: '1' });
    const keys = memoryKeys({ FIXTURE_API_KEY: 'stale-saved-7a8b' });
    const ui = scriptedUi({
      picks: [() => undefined],
      keys: [(_m, reason) => (assert.match(reason ?? '', /the key •••• was refused/), { FIXTURE_API_KEY: 'still-bad-9c0d' })],
      logins: [],
    });
    const { run } = await open(agent, ui, keys);
    await assert.rejects(
      run,
      (error: unknown) => error instanceof NotSignedInError && /Not signed in to keyed-refused/.test(error.message),
    );
    assert.equal(ui.seen.length, 2);
    assert.match(ui.seen[1]!, /^pick: Use FIXTURE_API_KEY failed: Internal error: the key •••• was refused/);
    assert.ok(
      !ui.seen.join('\n').includes('stale-saved-7a8b') && !ui.seen.join('\n').includes('still-bad-9c0d'),
      'the agent quoted the keys; Elicit masks them',
    );
    assert.deepEqual(keys.values, {}, 'the refused keys are not kept');
    assert.deepEqual(
      readRecords(record)
        .filter((r) => r.kind === 'authenticate')
        .map((r) => r.keyDigest),
      [digest('stale-saved-7a8b'), digest('still-bad-9c0d')],
    );
  });

  it('an agent method that fails says why with the details of its error, and another method can be picked', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('picky', { RECORD_FILE: record, REQUIRE_AUTH: '1' });
    const ui = scriptedUi({ picks: [byId('fixture-refuse'), byId('fixture-token')], keys: [], logins: [] });
    const { run } = await open(agent, ui, memoryKeys());
    await run;
    assert.deepEqual(ui.seen, ['pick', 'pick: Refused sign-in failed: Invalid params: cannot sign in with fixture-refuse']);
  });
});

describe('Signing in in a terminal (terminal auth)', () => {
  it('declares auth.terminal, runs the agent with the method args and env, and opens the session after a zero exit', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('terminal-user', { RECORD_FILE: record, REQUIRE_AUTH: '1', LOGIN_STORE: tempDir('elicit-acp-login-') });
    const logins: TerminalLogin[] = [];
    const ui = scriptedUi({
      picks: [byId('fixture-terminal'), byId('fixture-terminal')],
      keys: [],
      logins: [(login) => (logins.push(login), typeInto('no')(login)), typeInto('yes')],
    });
    const { run, started } = await open(agent, ui, memoryKeys(), { terminalLogins: true });
    const { result } = await run;
    assert.ok(result.sessionId);
    assert.deepEqual(ui.seen, [
      'pick',
      'terminal --login',
      'pick: Terminal login did not finish: it exited with code 1',
      'terminal --login',
    ]);
    assert.deepEqual(logins[0]!.args, [agent.args[0], '--login']);
    assert.equal(logins[0]!.env.FIXTURE_LOGIN, 'terminal', "the method's env");
    assert.equal(logins[0]!.env.RECORD_FILE, record, 'the configured env');
    const records = readRecords(record);
    const init = records.find((r) => r.kind === 'initialize')!;
    assert.deepEqual((init.clientCapabilities as { auth?: unknown }).auth, { terminal: true });
    assert.deepEqual(
      records.filter((r) => r.kind === 'terminal-login').map((r) => [r.env, r.ok]),
      [
        ['terminal', false],
        ['terminal', true],
      ],
    );
    assert.ok(!records.some((r) => r.kind === 'authenticate'), 'a terminal method is never passed to authenticate');
    assert.equal(started.length, 2, 'restarted after the login to read its credentials');
  });
});

describe('Sign In after a failure the agent did not call a sign-in problem', () => {
  it('goes straight to the methods, signs in, then tries again (and reports a second failure as such)', async () => {
    const record = newRecordFile();
    const agent = fixtureAgent('quiet', { RECORD_FILE: record, REQUIRE_AUTH: '1', FAIL_NEW_SESSION: '1' });
    const ui = scriptedUi({ picks: [byId('fixture-token')], keys: [], logins: [] });
    const { run, notices } = await open(agent, ui, memoryKeys({ FIXTURE_API_KEY: 'good-saved-but-not-chosen' }), { signInFirst: true });
    await assert.rejects(run, (e: unknown) => e instanceof AgentRequestError && /Query closed before response received/.test(e.message));
    assert.deepEqual(ui.seen, ['pick'], 'the person chose, even with a key saved');
    const kinds = readRecords(record).map((r) => (r.kind === 'authenticate' ? `authenticate ${String(r.methodId)}` : r.kind));
    assert.deepEqual(kinds, ['initialize', 'authenticate fixture-token', 'new-session-failed']);
    assert.deepEqual(notices, ['info: Choose how to sign in to quiet.', 'info: Signed in to quiet (Sign in with a fixture token).']);
  });
});

describe('A session/new that fails', () => {
  it('rejects with the agent error and its data.details, and the panel sentence adds the stderr lines', async () => {
    const agent = fixtureAgent('claude-like', { RECORD_FILE: newRecordFile(), FAIL_NEW_SESSION: '1' });
    const connection = fixtureConnection(agent, workspace);
    await connection.start();
    const error = await connection.newSession(workspace).then(
      () => assert.fail('session/new should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AgentRequestError);
    assert.equal(error.code, -32603);
    assert.equal(error.message, 'Internal error: Query closed before response received');
    assert.deepEqual(error.data, { details: 'Query closed before response received' });
    const sentence = sessionFailure('claude-like', error, connection.stderrLines);
    assert.match(
      sentence,
      /^claude-like could not open a session: Internal error: Query closed before response received\n\nThe last lines claude-like wrote to stderr:\n/,
    );
    assert.match(sentence, /\[claude-like\] Error handling request session\/new/);
  });
});
