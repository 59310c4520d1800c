/** parseMcpConfig: .vscode/mcp.json text → servers and problems, one bad server never hiding the others. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  inputQuestionSchema,
  parseMcpConfig,
  parseServerTable,
  resolveInputs,
  substitute,
  type ParsedConfig,
  type StdioServerConfig,
  type VariableContext,
} from '../../src/core/mcpConfig/serverConfig';

const SOURCE = '/ws/.vscode/mcp.json';
const vars: VariableContext = { workspaceFolder: '/ws', userHome: '/home/ada', env: { TOKEN: 's3cret', PORT: '8080' } };

function parse(text: string, context: VariableContext = vars): ParsedConfig {
  return parseMcpConfig(text, SOURCE, context);
}

function servers(config: Record<string, unknown>, key = 'servers'): ParsedConfig {
  return parse(JSON.stringify({ [key]: config }));
}

describe('parseMcpConfig: the VS Code format', () => {
  it('reads stdio, http and sse servers in order', () => {
    const result = servers({
      local: { type: 'stdio', command: 'node', args: ['server.js', '--verbose'], env: { DEBUG: '1' }, envFile: '.env', cwd: '/ws/tools' },
      remote: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
    });
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.servers, [
      {
        name: 'local',
        source: SOURCE,
        transport: {
          type: 'stdio',
          command: 'node',
          args: ['server.js', '--verbose'],
          env: { DEBUG: '1' },
          envFile: '.env',
          cwd: '/ws/tools',
        },
      },
      {
        name: 'remote',
        source: SOURCE,
        transport: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      },
      { name: 'legacy', source: SOURCE, transport: { type: 'sse', url: 'http://localhost:3001/sse', headers: {} } },
    ]);
  });

  it('infers the type from command or url, and reads streamableHttp as http', () => {
    const result = servers({
      byCommand: { command: 'python', args: [] },
      byUrl: { url: 'https://example.com/mcp' },
      streamable: { type: 'streamableHttp', url: 'https://example.com/mcp' },
    });
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.servers.map((s) => [s.name, s.transport.type]),
      [
        ['byCommand', 'stdio'],
        ['byUrl', 'http'],
        ['streamable', 'http'],
      ],
    );
    const stdio = result.servers[0]!.transport;
    assert.deepEqual(stdio, { type: 'stdio', command: 'python', args: [], env: {} });
    assert.equal(Object.hasOwn(stdio, 'cwd'), false);
    assert.equal(Object.hasOwn(stdio, 'envFile'), false);
  });

  it('reads the mcpServers key of Claude Desktop / Cursor configs', () => {
    const result = servers({ memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } }, 'mcpServers');
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['memory'],
    );
  });

  it('prefers servers over mcpServers when both are present', () => {
    const result = parse(JSON.stringify({ servers: { a: { command: 'a' } }, mcpServers: { b: { command: 'b' } } }));
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['a'],
    );
  });

  it('accepts comments and trailing commas (JSONC)', () => {
    const text = `{
  // Servers for this workspace
  "servers": {
    /* the local one */
    "local": {
      "command": "node",
      "args": ["a.js",], // trailing comma in a list
    },
  },
  "inputs": [],
}`;
    const result = parse(text);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.servers[0]!.transport, { type: 'stdio', command: 'node', args: ['a.js'], env: {} });
  });

  it('ignores other top-level keys such as inputs', () => {
    const result = parse(JSON.stringify({ inputs: [{ id: 'x', type: 'promptString' }], servers: { a: { command: 'a' } } }));
    assert.deepEqual(result.problems, []);
    assert.equal(result.servers.length, 1);
  });
});

describe('parseMcpConfig: variables', () => {
  it('substitutes ${workspaceFolder}, ${userHome} and ${env:NAME} in command, args, env, cwd, envFile, url and headers', () => {
    const result = servers({
      local: {
        command: '${workspaceFolder}/bin/server',
        args: ['--home', '${userHome}', '--token=${env:TOKEN}'],
        env: { API_TOKEN: '${env:TOKEN}', ROOT: '${workspaceFolder}' },
        cwd: '${workspaceFolder}/tools',
        envFile: '${userHome}/.env',
      },
      remote: { url: 'http://localhost:${env:PORT}/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
    });
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.servers[0]!.transport, {
      type: 'stdio',
      command: '/ws/bin/server',
      args: ['--home', '/home/ada', '--token=s3cret'],
      env: { API_TOKEN: 's3cret', ROOT: '/ws' },
      cwd: '/ws/tools',
      envFile: '/home/ada/.env',
    });
    assert.deepEqual(result.servers[1]!.transport, {
      type: 'http',
      url: 'http://localhost:8080/mcp',
      headers: { Authorization: 'Bearer s3cret' },
    });
  });

  it('a missing environment variable becomes ""', () => {
    const result = servers({ a: { command: 'run', args: ['[${env:NOT_SET}]'] } });
    assert.deepEqual((result.servers[0]!.transport as { args: string[] }).args, ['[]']);
  });

  it('leaves ${input:…} and unknown variables as they are', () => {
    assert.equal(substitute('${input:api-key}', vars), '${input:api-key}');
    assert.equal(
      substitute('${workspaceFolderBasename} ${env:} ${env:A-B} $env:TOKEN', vars),
      '${workspaceFolderBasename} ${env:} ${env:A-B} $env:TOKEN',
    );
    // Inputs are filled in when the server starts (resolveInputs), so parsing keeps the reference.
    const result = parse(
      JSON.stringify({
        inputs: [{ id: 'api-key', type: 'promptString', description: 'API key', password: true }],
        servers: { a: { command: 'run', env: { KEY: '${input:api-key}' } } },
      }),
    );
    assert.deepEqual((result.servers[0]!.transport as { env: Record<string, string> }).env, { KEY: '${input:api-key}' });
  });

  it('leaves ${workspaceFolder} as is when there is no folder', () => {
    assert.equal(substitute('${workspaceFolder}/x', { userHome: '/h', env: {} }), '${workspaceFolder}/x');
  });

  it('substitutes every occurrence, once (no recursive expansion)', () => {
    const context: VariableContext = { userHome: '/h', env: { A: '${userHome}', B: 'b' } };
    assert.equal(substitute('${env:B}-${env:B}-${env:A}', context), 'b-b-${userHome}');
  });
});

describe('parseMcpConfig: problems', () => {
  it('bad JSON: one problem naming the file, with line and column', () => {
    const result = parse('{\n  "servers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}');
    assert.deepEqual(result.servers, []);
    assert.equal(result.problems.length, 1);
    const [problem] = result.problems;
    assert.equal(problem!.source, SOURCE);
    assert.equal(problem!.server, undefined);
    assert.equal(problem!.message, `${SOURCE}: Comma expected at line 4, column 5`);
  });

  it('bad JSON: unterminated object and a missing value', () => {
    assert.deepEqual(
      parse('{').problems.map((p) => p.message),
      [`${SOURCE}: Close brace expected at line 1, column 2`],
    );
    assert.match(parse('{"servers": }').problems[0]!.message, /^\/ws\/\.vscode\/mcp\.json: Value expected at line 1, column 13$/);
    assert.match(parse('{"a": 1,\r\n "b": }').problems[0]!.message, /at line 2, column 7$/);
  });

  it('not an object', () => {
    for (const text of ['[]', '42', 'null', '"servers"', 'true']) {
      const result = parse(text);
      assert.deepEqual(result.servers, [], text);
      assert.deepEqual(result.problems, [{ source: SOURCE, message: `${SOURCE}: expected a JSON object with a "servers" key` }], text);
    }
  });

  it('servers not an object', () => {
    for (const value of [[], 'x', 3]) {
      const result = parse(JSON.stringify({ servers: value }));
      assert.deepEqual(result.problems, [{ source: SOURCE, message: `${SOURCE}: "servers" must be an object of named servers` }]);
    }
    assert.equal(parse(JSON.stringify({ mcpServers: [] })).problems.length, 1);
  });

  it('no servers key, or an empty table: nothing and no problem', () => {
    assert.deepEqual(parse('{}'), { servers: [], problems: [] });
    assert.deepEqual(parse('{"servers": {}}'), { servers: [], problems: [] });
  });

  it('empty text: no servers, no problems', () => {
    assert.deepEqual(parse(''), { servers: [], problems: [] });
    assert.deepEqual(parse('  \n\t\r\n'), { servers: [], problems: [] });
  });

  it('one bad server is a problem naming it; the good servers are still returned', () => {
    const result = servers({
      good1: { command: 'node' },
      noCommand: { type: 'stdio', args: ['x'] },
      nothing: { args: ['x'] },
      unknownType: { type: 'websocket', url: 'ws://x' },
      badUrl: { type: 'http', url: 'not a url' },
      ftpUrl: { url: 'ftp://files.example.com/mcp' },
      argsNotStrings: { command: 'node', args: ['a', 1] },
      argsNotList: { command: 'node', args: 'a b' },
      envObject: { command: 'node', env: { NESTED: { a: 1 } } },
      envList: { command: 'node', env: ['A=1'] },
      headerObject: { url: 'https://x.example', headers: { H: { v: 1 } } },
      emptyCommand: { command: '   ' },
      commandNotString: { command: ['node'] },
      cwdNotString: { command: 'node', cwd: 1 },
      notAnObject: 'node server.js',
      nullServer: null,
      good2: { type: 'http', url: 'https://example.com/mcp' },
    });
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['good1', 'good2'],
    );
    const byServer = Object.fromEntries(result.problems.map((p) => [p.server, p.message]));
    const expected: Record<string, string> = {
      noCommand: '"command" is missing',
      nothing: 'needs a "command" (stdio) or a "url" (http)',
      unknownType: 'unknown type "websocket"; use "stdio", "http" or "sse"',
      badUrl: '"url" is not a valid URL',
      ftpUrl: '"url" must be http, https, unix or pipe',
      argsNotStrings: '"args" must be a list of strings',
      argsNotList: '"args" must be a list of strings',
      envObject: '"env.NESTED" must be a string',
      envList: '"env" must be an object of strings',
      headerObject: '"headers.H" must be a string',
      emptyCommand: '"command" is empty',
      commandNotString: '"command" must be a string',
      cwdNotString: '"cwd" must be a string',
      notAnObject: 'must be an object',
      nullServer: 'must be an object',
    };
    assert.deepEqual(Object.keys(byServer).sort(), Object.keys(expected).sort());
    for (const [name, message] of Object.entries(expected)) {
      assert.equal(byServer[name], `${SOURCE}: server "${name}": ${message}`, name);
    }
    assert.ok(result.problems.every((p) => p.source === SOURCE));
  });

  it('numbers and booleans in env and headers become strings; null entries are dropped', () => {
    const result = servers({
      a: { command: 'node', env: { PORT: 8080, DEBUG: true, RATIO: 0.5, UNSET: null } },
      b: { url: 'https://x.example', headers: { 'X-Retry': 3 } },
    });
    assert.deepEqual(result.problems, []);
    assert.deepEqual((result.servers[0]!.transport as { env: Record<string, string> }).env, { PORT: '8080', DEBUG: 'true', RATIO: '0.5' });
    assert.deepEqual((result.servers[1]!.transport as { headers: Record<string, string> }).headers, { 'X-Retry': '3' });
  });

  it('a url that only becomes valid after substitution is checked after substitution', () => {
    const ok = servers({ a: { url: 'http://localhost:${env:PORT}/mcp' } });
    assert.deepEqual(ok.problems, []);
    const bad = parse(JSON.stringify({ servers: { a: { url: '${env:MISSING}' } } }));
    assert.match(bad.problems[0]!.message, /"url" is not a valid URL/);
  });
});

describe('parseServerTable (the elicit.servers setting)', () => {
  it('reads the same shape with its own source name', () => {
    const result = parseServerTable({ a: { command: 'node' }, b: { type: 'nope' } }, 'setting elicit.servers', vars);
    assert.deepEqual(result.servers, [
      { name: 'a', source: 'setting elicit.servers', transport: { type: 'stdio', command: 'node', args: [], env: {} } },
    ]);
    assert.deepEqual(result.problems, [
      {
        source: 'setting elicit.servers',
        server: 'b',
        message: 'setting elicit.servers: server "b": unknown type "nope"; use "stdio", "http" or "sse"',
      },
    ]);
  });
});

describe('parseMcpConfig: inputs', () => {
  const inputs = [
    { id: 'api-key', type: 'promptString', description: 'Your API key', password: true },
    { id: 'region', type: 'pickString', description: 'Region', options: ['eu', 'us'], default: 'eu' },
    { id: 'user', type: 'promptString', description: 'User name', default: 'ada' },
  ];

  it('reads promptString and pickString inputs and lists, per server, the ones it uses in order of first use', () => {
    const result = parse(
      JSON.stringify({
        inputs,
        servers: {
          local: { command: 'run', args: ['--region', '${input:region}'], env: { KEY: '${input:api-key}', AGAIN: '${input:region}' } },
          remote: { url: 'https://${input:region}.example.com/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
          plain: { command: 'run' },
        },
      }),
    );
    assert.deepEqual(result.problems, []);
    const [local, remote, plain] = result.servers;
    assert.deepEqual(local!.inputs, [
      { id: 'region', type: 'pickString', description: 'Region', options: ['eu', 'us'], default: 'eu' },
      { id: 'api-key', type: 'promptString', description: 'Your API key', password: true },
    ]);
    assert.deepEqual(
      remote!.inputs!.map((i) => i.id),
      ['region', 'api-key'],
    );
    assert.equal(Object.hasOwn(plain!, 'inputs'), false, 'a server without inputs has no inputs key');
  });

  it('finds inputs in command, cwd and envFile too', () => {
    const result = parse(
      JSON.stringify({
        inputs: [{ id: 'bin' }, { id: 'dir' }, { id: 'env' }].map((i) => ({ ...i, type: 'promptString' })),
        servers: { a: { command: '${input:bin}', cwd: '/w/${input:dir}', envFile: '${input:env}.env' } },
      }),
    );
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.servers[0]!.inputs!.map((i) => i.id),
      ['bin', 'dir', 'env'],
    );
  });

  it('an ${input:…} with no such input is a problem naming the server; the others still load', () => {
    const result = parse(
      JSON.stringify({
        inputs: [inputs[0]],
        servers: {
          broken: { command: 'run', env: { TOKEN: '${input:token}' } },
          typo: { url: 'https://example.com/mcp', headers: { Key: '${input:api_key}' } },
          fine: { command: 'run', env: { KEY: '${input:api-key}' } },
        },
      }),
    );
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['fine'],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.server, p.message]),
      [
        ['broken', `${SOURCE}: server "broken": uses \${input:token}, but "inputs" defines no input "token"`],
        ['typo', `${SOURCE}: server "typo": uses \${input:api_key}, but "inputs" defines no input "api_key"`],
      ],
    );
  });

  it('the elicit.servers setting has no inputs: an ${input:…} there is a problem', () => {
    const result = parseServerTable({ a: { command: 'run', args: ['${input:x}'] } }, 'setting', vars);
    assert.deepEqual(result.servers, []);
    assert.match(result.problems[0]!.message, /server "a": uses \$\{input:x\}, but "inputs" defines no input "x"/);
  });

  it('a bad input is a problem naming it; good inputs and servers still load', () => {
    const result = parse(
      JSON.stringify({
        inputs: [
          { id: 'ok', type: 'promptString' },
          { id: 'cmd', type: 'command', command: '' },
          { id: 'weird', type: 'promptNumber' },
          { type: 'promptString' },
          'token',
          { id: 'pick', type: 'pickString', options: [] },
          { id: 'pick2', type: 'pickString', options: ['a', 2] },
          { id: 'pick3', type: 'pickString', options: ['a', 'b'], default: 'c' },
          { id: 'pw', type: 'promptString', password: 'yes' },
          { id: 'desc', type: 'promptString', description: 3 },
          { id: 'bad id!', type: 'promptString' },
          { id: 'ok', type: 'promptString' },
        ],
        servers: { a: { command: 'run', args: ['${input:ok}'] } },
      }),
    );
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['a'],
    );
    assert.deepEqual(
      result.problems.map((p) => p.message.slice(SOURCE.length + 2)),
      [
        'input "cmd": needs a "command" string (a VS Code command id)',
        'input "weird": unknown type "promptNumber"; use "promptString", "pickString" or "command"',
        'inputs[3]: needs an "id" string',
        'inputs[4]: must be an object',
        'input "pick": "options" must be a non-empty list',
        'input "pick2": "options" must be strings (or objects with a "value" string)',
        'input "pick3": "default" must be one of the options',
        'input "pw": "password" must be true or false',
        'input "desc": "description" must be a string',
        'input "bad id!": "id" may use letters, digits, "_", "-" and "." only',
        'input "ok": is defined more than once',
      ],
    );
    assert.ok(result.problems.every((p) => p.server === undefined));
  });

  it('"inputs" that is not a list is one problem; servers still load', () => {
    const result = parse(JSON.stringify({ inputs: { id: 'x' }, servers: { a: { command: 'run' } } }));
    assert.deepEqual(
      result.problems.map((p) => p.message),
      [`${SOURCE}: "inputs" must be a list`],
    );
    assert.equal(result.servers.length, 1);
  });

  it('pickString options may be objects with a value and a label, asked by their labels; duplicates collapse', () => {
    const result = parse(
      JSON.stringify({
        inputs: [{ id: 'env', type: 'pickString', options: [{ label: 'Production', value: 'prod' }, 'dev', 'dev'] }],
        servers: { a: { command: 'run', args: ['${input:env}'] } },
      }),
    );
    const input = result.servers[0]!.inputs![0]!;
    assert.deepEqual(input, {
      id: 'env',
      type: 'pickString',
      description: 'env',
      options: ['prod', 'dev'],
      labels: { prod: 'Production' },
    });
    assert.ok(input.type === 'pickString');
    assert.deepEqual(inputQuestionSchema(input).properties, {
      env: {
        type: 'string',
        title: 'env',
        oneOf: [
          { const: 'prod', title: 'Production' },
          { const: 'dev', title: 'dev' },
        ],
      },
    });
  });

  it('a command input names its VS Code command and arguments, for the person to allow when it first runs', () => {
    const result = parse(
      JSON.stringify({
        inputs: [{ id: 'branch', type: 'command', command: 'git.getBranch', args: { repo: '.' } }],
        servers: { a: { command: 'run', env: { BRANCH: '${input:branch}' } } },
      }),
    );
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.servers[0]!.inputs, [
      { id: 'branch', type: 'command', description: 'branch', command: 'git.getBranch', args: { repo: '.' } },
    ]);
  });

  it('a URL with an input in it is checked only once the input is filled in', () => {
    const result = parse(
      JSON.stringify({ inputs: [{ id: 'host', type: 'promptString' }], servers: { a: { url: 'https://${input:host}/mcp' } } }),
    );
    assert.deepEqual(result.problems, []);
    const transport = result.servers[0]!.transport;
    assert.deepEqual(resolveInputs(transport, { host: 'mcp.example.com' }), {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: {},
    });
    assert.throws(() => resolveInputs(transport, { host: 'not a host' }), /"url" is not a valid URL/);
  });
});

describe('resolveInputs', () => {
  const stdio: StdioServerConfig = {
    type: 'stdio',
    command: '${input:bin}',
    args: ['--key=${input:key}', '${input:key}${input:key}'],
    env: { KEY: '${input:key}', PLAIN: 'x' },
    cwd: '/w/${input:dir}',
    envFile: '${input:dir}/.env',
  };

  it('fills every reference in every field, once (a value that looks like a reference stays as it is)', () => {
    const resolved = resolveInputs(stdio, { bin: 'node', key: '${input:bin}', dir: 'tools' });
    assert.deepEqual(resolved, {
      type: 'stdio',
      command: 'node',
      args: ['--key=${input:bin}', '${input:bin}${input:bin}'],
      env: { KEY: '${input:bin}', PLAIN: 'x' },
      cwd: '/w/tools',
      envFile: 'tools/.env',
    });
    assert.equal(stdio.command, '${input:bin}', 'the configuration itself is unchanged');
  });

  it('a missing value is an error naming the input', () => {
    assert.throws(() => resolveInputs(stdio, { bin: 'node', dir: 'x' }), /no value for \$\{input:key\}/);
  });

  it('headers of an http server', () => {
    const http = { type: 'http' as const, url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } };
    assert.deepEqual(resolveInputs(http, { token: 't0k' }).headers, { Authorization: 'Bearer t0k' });
  });
});

describe('inputQuestionSchema', () => {
  it('a password input is one required masked string field named after the input', () => {
    assert.deepEqual(inputQuestionSchema({ id: 'api-key', type: 'promptString', description: 'API key', password: true }), {
      type: 'object',
      properties: { 'api-key': { type: 'string', title: 'api-key', format: 'password' } },
      required: ['api-key'],
    });
  });

  it('a pickString input is a required choice with its default', () => {
    assert.deepEqual(
      inputQuestionSchema({ id: 'region', type: 'pickString', description: 'Region', options: ['eu', 'us'], default: 'us' }),
      {
        type: 'object',
        properties: { region: { type: 'string', title: 'region', enum: ['eu', 'us'], default: 'us' } },
        required: ['region'],
      },
    );
  });

  it('a plain promptString keeps its default', () => {
    const schema = inputQuestionSchema({ id: 'user', type: 'promptString', description: 'User', password: false, default: 'ada' });
    assert.deepEqual((schema.properties as Record<string, unknown>).user, { type: 'string', title: 'user', default: 'ada' });
  });
});
