/**
 * The pure parts of signing in to real agents and of the session controls:
 * reading auth methods (as codex-acp and claude-agent-acp send them), agent
 * errors with their details, modes and commands, slash-command completion, and
 * the panel messages that carry them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentRequestError, describeAgentError, withDetails } from '../../src/acp/agentErrors';
import { authenticateMeta, readAuthMethods, savedValuesFor, settableVariable, type EnvVarAuthMethod } from '../../src/acp/authMethods';
import { checkGatewayUrl, parseAgentGateways } from '../../src/acp/modelGateway';
import type { TerminalLogin } from '../../src/acp/signIn';
import { MASK, terminalLoginText } from '../../src/acp/terminalLoginText';
import { SessionControls } from '../../src/acp/sessionControls';
import { isAgentPanelToHost } from '../../src/core/protocols/agentPanelProtocol';
import { commandQuery, completedPrompt, matchCommands } from '../../src/core/commandCompletion';

describe('readAuthMethods', () => {
  it("reads codex-acp 0.16.0's methods: an agent login and two env_var keys", () => {
    const codex = [
      {
        id: 'chatgpt',
        name: 'Login with ChatGPT',
        description: 'Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)',
      },
      {
        type: 'env_var',
        id: 'codex-api-key',
        name: 'Use CODEX_API_KEY',
        description: 'Requires setting the `CODEX_API_KEY` environment variable.',
        vars: [{ name: 'CODEX_API_KEY' }],
      },
      {
        type: 'env_var',
        id: 'openai-api-key',
        name: 'Use OPENAI_API_KEY',
        description: 'Requires setting the `OPENAI_API_KEY` environment variable.',
        vars: [{ name: 'OPENAI_API_KEY' }],
      },
    ];
    assert.deepEqual(readAuthMethods(codex), [
      {
        kind: 'agent',
        id: 'chatgpt',
        name: 'Login with ChatGPT',
        description: 'Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)',
      },
      {
        kind: 'env_var',
        id: 'codex-api-key',
        name: 'Use CODEX_API_KEY',
        description: 'Requires setting the `CODEX_API_KEY` environment variable.',
        vars: [{ name: 'CODEX_API_KEY', secret: true, optional: false }],
      },
      {
        kind: 'env_var',
        id: 'openai-api-key',
        name: 'Use OPENAI_API_KEY',
        description: 'Requires setting the `OPENAI_API_KEY` environment variable.',
        vars: [{ name: 'OPENAI_API_KEY', secret: true, optional: false }],
      },
    ]);
  });

  it('reads codex-acp 2.6.0\'s api-key method (type agent, _meta["api-key"]) as one masked key sent in authenticate', () => {
    // What codex-acp 2.6.0 answers initialize with (protocol 1, NO_BROWSER, a client with URL elicitation).
    const codex = [
      { id: 'api-key', name: 'API Key', description: 'Use an API key to authenticate', _meta: { 'api-key': { provider: 'openai' } } },
      {
        id: 'chat-gpt-device-code',
        name: 'ChatGPT (device code)',
        description: 'Sign in to ChatGPT by opening a verification page and entering a one-time code',
      },
    ];
    const [apiKey, deviceCode] = readAuthMethods(codex);
    assert.deepEqual(apiKey, {
      kind: 'env_var',
      id: 'api-key',
      name: 'API Key',
      description: 'Use an API key to authenticate',
      vars: [{ name: 'authenticate:api-key', label: 'API key', secret: true, optional: false }],
      sentIn: 'authenticate',
    });
    assert.equal(deviceCode?.kind, 'agent');
    // Its saved name can never be put in an environment.
    assert.equal(settableVariable('authenticate:api-key'), false);
    const method = apiKey as EnvVarAuthMethod;
    assert.deepEqual(authenticateMeta(method, { 'authenticate:api-key': 'sk-typed' }), { 'api-key': { apiKey: 'sk-typed' } });
    assert.deepEqual(savedValuesFor(method, { 'authenticate:api-key': 'sk-saved', OPENAI_API_KEY: 'other' }), {
      'authenticate:api-key': 'sk-saved',
    });
    assert.equal(savedValuesFor(method, { OPENAI_API_KEY: 'other' }), undefined);
  });

  it("reads codex-acp 2.6.0's gateway method only with the person's gateway URL: a masked key sent in _meta.gateway's headers, to that URL", () => {
    // What codex-acp 2.6.0 answers initialize with when the client sends auth._meta.gateway: true.
    const gateway = {
      id: 'gateway',
      name: 'Custom model gateway',
      description: 'Use a custom gateway to authenticate and access models',
      _meta: { gateway: { protocol: 'openai', restartRequired: 'false' } },
    };
    // Without a URL of the person's, Elicit could not use it: it is not offered.
    assert.deepEqual(readAuthMethods([gateway]), []);
    const [method] = readAuthMethods([gateway], 'https://gateway.example.com/v1');
    assert.deepEqual(method, {
      kind: 'env_var',
      id: 'gateway',
      name: 'Custom model gateway',
      description: 'Use a custom gateway to authenticate and access models',
      vars: [{ name: 'authenticate:gateway', label: 'API key', secret: true, optional: false }],
      sentIn: 'authenticate',
      gateway: 'https://gateway.example.com/v1',
    });
    assert.deepEqual(authenticateMeta(method as EnvVarAuthMethod, { 'authenticate:gateway': 'sk-gw' }), {
      gateway: { baseUrl: 'https://gateway.example.com/v1', headers: { Authorization: 'Bearer sk-gw' } },
    });
    // Another protocol would need another key header: left out.
    assert.deepEqual(readAuthMethods([{ ...gateway, _meta: { gateway: { protocol: 'anthropic' } } }], 'https://g.example'), []);
  });

  it('holds a gateway URL to what a key may travel over: https, or http to this machine; no credentials, query or fragment', () => {
    assert.deepEqual(checkGatewayUrl(' https://gateway.example.com/v1/ '), { ok: true, url: 'https://gateway.example.com/v1' });
    assert.deepEqual(checkGatewayUrl('http://127.0.0.1:8080/v1'), { ok: true, url: 'http://127.0.0.1:8080/v1' });
    assert.deepEqual(checkGatewayUrl('http://localhost:8080'), { ok: true, url: 'http://localhost:8080' });
    assert.deepEqual(checkGatewayUrl('http://[::1]:8080/v1'), { ok: true, url: 'http://[::1]:8080/v1' });
    for (const refused of ['http://gateway.example.com/v1', 'http://127.0.0.1.example.com', 'file:///etc/passwd', 'ftp://g.example']) {
      assert.equal(checkGatewayUrl(refused).ok, false, refused);
    }
    assert.equal(checkGatewayUrl('https://user:sk-secret@gateway.example.com').ok, false);
    assert.equal(checkGatewayUrl('https://gateway.example.com/v1?key=sk').ok, false);
    assert.equal(checkGatewayUrl('not a url').ok, false);
    assert.equal(checkGatewayUrl(42).ok, false);
    const parsed = parseAgentGateways({ codex: 'https://g.example/v1', other: 'http://g.example' });
    assert.deepEqual([...parsed.urls], [['codex', 'https://g.example/v1']]);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0]!, /agent "other": .*https/);
    assert.deepEqual(parseAgentGateways(['x']).problems, ['expected an object of agent names and URLs']);
  });

  it('sends no key in authenticate for a variable method, nor for an agent method whose _meta["api-key"] is not an object', () => {
    const [envVar, plain] = readAuthMethods([
      { id: 'k', name: 'K', type: 'env_var', vars: [{ name: 'OPENAI_API_KEY' }] },
      { id: 'p', name: 'P', _meta: { 'api-key': 'yes' } },
    ]);
    assert.equal(authenticateMeta(envVar as EnvVarAuthMethod, { OPENAI_API_KEY: 'sk' }), undefined);
    assert.deepEqual(plain, { kind: 'agent', id: 'p', name: 'P' });
  });

  it("reads claude-agent-acp 0.23.1's terminal login with its args", () => {
    const claude = [
      {
        description: 'Run `claude /login` in the terminal',
        name: 'Log in with Claude',
        id: 'claude-login',
        type: 'terminal',
        args: ['--cli'],
      },
    ];
    assert.deepEqual(readAuthMethods(claude), [
      {
        kind: 'terminal',
        id: 'claude-login',
        name: 'Log in with Claude',
        description: 'Run `claude /login` in the terminal',
        args: ['--cli'],
        env: {},
      },
    ]);
  });

  it('treats any method naming vars as env_var, keeps label, secret: false and optional, and a https link only', () => {
    const [method] = readAuthMethods([
      {
        id: 'azure',
        name: 'Azure OpenAI',
        link: 'https://portal.azure.com',
        vars: [
          { name: 'AZURE_KEY', label: 'API key' },
          { name: 'AZURE_ENDPOINT', secret: false },
          { name: 'AZURE_ORG', optional: true },
        ],
      },
    ]);
    assert.deepEqual(method, {
      kind: 'env_var',
      id: 'azure',
      name: 'Azure OpenAI',
      link: 'https://portal.azure.com',
      vars: [
        { name: 'AZURE_KEY', label: 'API key', secret: true, optional: false },
        { name: 'AZURE_ENDPOINT', secret: false, optional: false },
        { name: 'AZURE_ORG', secret: true, optional: true },
      ],
    });
    assert.equal((readAuthMethods([{ id: 'x', name: 'X', link: 'javascript:alert(1)', vars: [] }])[0] as EnvVarAuthMethod).link, undefined);
  });

  it('leaves out unknown types, duplicates, malformed entries, and variables Elicit will not set', () => {
    const methods = readAuthMethods([
      { id: 'oauth', name: 'Browser', type: 'oauth2' },
      { id: 'a', name: 'A' },
      { id: 'a', name: 'A again' },
      { name: 'no id' },
      'text',
      { id: 'path', name: 'Sets PATH', vars: [{ name: 'PATH' }] },
      { id: 'preload', name: 'Sets LD_PRELOAD', vars: [{ name: 'ld_preload' }] },
      { id: 'spaces', name: 'Odd name', vars: [{ name: 'A B' }] },
    ]);
    assert.deepEqual(
      methods.map((m) => m.id),
      ['a'],
    );
    assert.deepEqual(readAuthMethods(undefined), []);
  });

  it("holds a terminal method's env to the env_var rule: one that sets what a method may not is left out", () => {
    const terminal = (id: string, env: Record<string, unknown>) => ({ id, name: id, type: 'terminal', args: ['--login'], env });
    const methods = readAuthMethods([
      terminal('ok', { FIXTURE_LOGIN: 'terminal', COUNT: 3 }),
      ...['LD_PRELOAD', 'ld_audit', 'DYLD_INSERT_LIBRARIES', 'PATH', 'NODE_OPTIONS', 'BASH_ENV', 'ENV', 'PYTHONSTARTUP', 'A B'].map(
        (name) => terminal(`sets ${name}`, { [name]: '/tmp/x' }),
      ),
    ]);
    assert.deepEqual(methods, [{ kind: 'terminal', id: 'ok', name: 'ok', args: ['--login'], env: { FIXTURE_LOGIN: 'terminal' } }]);
    // env_var's variables follow the same rule.
    assert.deepEqual(readAuthMethods([{ id: 'b', name: 'B', vars: [{ name: 'BASH_ENV' }] }]), []);
  });

  it('finds the saved values a method needs; an optional one may be missing', () => {
    const [method] = readAuthMethods([
      { id: 'k', name: 'K', vars: [{ name: 'KEY' }, { name: 'ORG', optional: true }] },
    ]) as EnvVarAuthMethod[];
    assert.deepEqual(savedValuesFor(method!, { KEY: 'k1' }), { KEY: 'k1' });
    assert.deepEqual(savedValuesFor(method!, { KEY: 'k1', ORG: 'o', OTHER: 'x' }), { KEY: 'k1', ORG: 'o' });
    assert.equal(savedValuesFor(method!, { ORG: 'o' }), undefined);
    assert.equal(savedValuesFor(method!, { KEY: '' }), undefined);
  });
});

describe('agent errors', () => {
  it('adds data.details, a data string or data.message to the message, once', () => {
    assert.equal(
      describeAgentError('Internal error', { details: 'Query closed before response received' }),
      'Internal error: Query closed before response received',
    );
    assert.equal(describeAgentError('Internal error', 'CODEX_API_KEY is not set'), 'Internal error: CODEX_API_KEY is not set');
    assert.equal(
      describeAgentError('Internal error', { message: 'stream disconnected before completion', codex_error_info: 'other' }),
      'Internal error: stream disconnected before completion',
    );
    assert.equal(describeAgentError('Invalid params: no mode x', 'no mode x'), 'Invalid params: no mode x');
    assert.equal(describeAgentError('Authentication required', undefined), 'Authentication required');
    assert.equal(describeAgentError('Internal error', { code: 7 }), 'Internal error: {"code":7}');
    assert.ok(describeAgentError('Internal error', { blob: 'x'.repeat(5000) }).length < 600);
  });

  it('turns a JSON-RPC error into an AgentRequestError that keeps the code and data; other errors pass through', () => {
    const rpc = Object.assign(new Error('Internal error'), { code: -32603, data: { details: 'why' } });
    const error = withDetails(rpc);
    assert.ok(error instanceof AgentRequestError);
    assert.deepEqual([error.message, error.code, error.data], ['Internal error: why', -32603, { details: 'why' }]);
    const plain = new Error('spawn failed');
    assert.equal(withDetails(plain), plain);
    assert.equal(withDetails(error), error);
  });
});

describe('SessionControls', () => {
  it('takes the modes of a session answer, follows current_mode_update, and ignores unknown shapes', () => {
    const controls = new SessionControls();
    controls.opened({ modes: null });
    const none = controls.modes;
    assert.equal(none, undefined);
    controls.opened({
      modes: {
        currentModeId: 'read-only',
        availableModes: [
          { id: 'read-only', name: 'Read Only', description: 'Reads' },
          { id: 'auto', name: 'Default' },
        ],
      },
    });
    assert.deepEqual(controls.modes, {
      current: 'read-only',
      available: [
        { id: 'read-only', name: 'Read Only', description: 'Reads' },
        { id: 'auto', name: 'Default' },
      ],
    });
    assert.equal(controls.apply({ sessionUpdate: 'current_mode_update', currentModeId: 'auto' }), true);
    assert.equal(controls.modes?.current, 'auto');
    assert.equal(controls.apply({ sessionUpdate: 'current_mode_update', currentModeId: 'auto' }), false, 'no change');
    assert.equal(controls.modeName('auto'), 'Default');
    assert.equal(controls.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }), false);
  });

  it("keeps the agent's commands without the leading slash, with their input hint", () => {
    const controls = new SessionControls();
    controls.apply({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        {
          name: 'review',
          description: 'Review my current changes and find issues',
          input: { hint: 'optional custom review instructions' },
        },
        { name: '/init', description: 'create an AGENTS.md file with instructions for Codex' },
        { name: '  ', description: 'no name' },
      ],
    });
    assert.deepEqual(controls.commands, [
      { name: 'review', description: 'Review my current changes and find issues', hint: 'optional custom review instructions' },
      { name: 'init', description: 'create an AGENTS.md file with instructions for Codex' },
    ]);
  });
});

describe('slash-command completion', () => {
  const commands = [
    { name: 'review', description: 'Review' },
    { name: 'review-branch', description: 'Review a branch' },
    { name: 'init', description: 'Init' },
    { name: 'compact', description: 'Compact' },
  ];

  it('offers commands while the prompt is "/" and a word, those starting with it first', () => {
    assert.equal(commandQuery('/'), '');
    assert.equal(commandQuery('/rev'), 'rev');
    assert.equal(commandQuery('/review x'), undefined, 'the name is finished once a space follows');
    assert.equal(commandQuery('review'), undefined);
    assert.equal(commandQuery(' /review'), undefined);
    assert.equal(commandQuery('/a\nb'), undefined);
    assert.deepEqual(
      matchCommands('', commands).map((c) => c.name),
      ['review', 'review-branch', 'init', 'compact'],
    );
    assert.deepEqual(
      matchCommands('re', commands).map((c) => c.name),
      ['review', 'review-branch'],
    );
    assert.deepEqual(
      matchCommands('IT', commands).map((c) => c.name),
      ['init'],
    );
    assert.deepEqual(
      matchCommands('act', commands).map((c) => c.name),
      ['compact'],
    );
    assert.equal(completedPrompt(commands[0]!), '/review ');
  });
});

describe('agent panel messages', () => {
  it('accepts setMode with a mode id and signOut; refuses a setMode without one', () => {
    assert.equal(isAgentPanelToHost({ type: 'setMode', modeId: 'auto' }), true);
    assert.equal(isAgentPanelToHost({ type: 'signOut' }), true);
    assert.equal(isAgentPanelToHost({ type: 'setMode' }), false);
    assert.equal(isAgentPanelToHost({ type: 'setMode', modeId: 7 }), false);
    assert.equal(isAgentPanelToHost({ type: 'setMode', modeId: 'x'.repeat(201) }), false);
  });
});

describe('terminalLoginText', () => {
  const login: TerminalLogin = {
    agent: 'claude',
    method: 'Log in',
    command: '/usr/bin/claude',
    args: ['--login', 'a b'],
    env: { HOME_CONFIG: '/home/u/.cfg', FIXTURE_LOGIN: 'terminal', API_TOKEN: 'hunter2' },
    methodEnv: { FIXTURE_LOGIN: 'terminal', API_TOKEN: 'hunter2', OPAQUE: 'sk1234567890abcdefXYZ', SHOWN: 'plain' },
    cwd: '/work/app',
  };

  it("shows the command line, the folder and the method's variables, masking what looks secret", () => {
    assert.equal(
      terminalLoginText(login),
      [
        "Command: /usr/bin/claude --login 'a b'",
        'In: /work/app',
        'Environment variables it sets:',
        '  FIXTURE_LOGIN=terminal',
        `  API_TOKEN=${MASK}`,
        `  OPAQUE=${MASK}`,
        '  SHOWN=plain',
      ].join('\n'),
    );
    assert.ok(!terminalLoginText(login).includes('hunter2'));
    assert.ok(!terminalLoginText(login).includes('HOME_CONFIG'), "the person's own configured env is not the agent's");
  });

  it('keeps each part on one line, so an argument cannot fake another line', () => {
    const text = terminalLoginText({ ...login, args: ['x\nEnvironment variables it sets: none'], methodEnv: {} });
    assert.equal(text.split('\n').length, 3);
    assert.match(text, /sets no environment variables/);
  });
});
