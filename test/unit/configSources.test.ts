/**
 * The pure side of "every MCP server a person already has" (issue #32): the
 * portable `.mcp.json` / Copilot CLI format, its environment references, the
 * fields Elicit acts on or names, VS Code's order of sources and the names it
 * gives two servers of one name, and which profile's mcp.json a window reads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandEnvReferences } from '../../src/core/mcpConfig/envExpansion';
import { parsePortableConfig } from '../../src/core/mcpConfig/portableConfig';
import { nameServers, namesForAgents, type SourcedConfig } from '../../src/core/mcpConfig/configSources';
import { parseMcpConfig, type ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { profileForWorkspace } from '../../src/core/mcpConfig/userProfile';
import { socketEndpoint } from '../../src/mcp/socketFetch';
import { resolveLaunch } from '../../src/mcp/launch';

const env = { TOKEN: 'tok-1', EMPTY: '', HOST: 'mcp.example.com' };

describe('environment references of the portable files', () => {
  it('expands ${VAR} and ${VAR:-default}, leaves the rest as written', () => {
    assert.equal(expandEnvReferences('Bearer ${TOKEN}', env), 'Bearer tok-1');
    assert.equal(expandEnvReferences('${MISSING:-fallback}/${EMPTY:-x}/${EMPTY}', env), 'fallback/x/');
    assert.equal(expandEnvReferences('${MISSING}', env), '${MISSING}', 'unset without a default stays');
    assert.equal(expandEnvReferences('$TOKEN ${env:TOKEN} ${input:x} ${1BAD}', env), '$TOKEN ${env:TOKEN} ${input:x} ${1BAD}');
    const long = `${'a'.repeat(1000)}\${TOKEN}`;
    assert.equal(expandEnvReferences(long, env), long, 'a very long string is not expanded, as in VS Code');
  });
});

describe('parsePortableConfig (.mcp.json, Copilot CLI mcp-config.json)', () => {
  const parse = (value: unknown, defaultCwd?: string) =>
    parsePortableConfig(typeof value === 'string' ? value : JSON.stringify(value), 'app/.mcp.json', defaultCwd ? { defaultCwd } : {});

  it('reads local, stdio, http and sse entries as Copilot CLI writes them; ${VAR} is filled in at launch', async () => {
    const result = parse(
      {
        mcpServers: {
          playwright: { type: 'local', command: 'npx', args: ['@playwright/mcp@latest'], env: {}, tools: ['*'] },
          db: { type: 'stdio', command: 'node', args: ['db.js', '--token=${TOKEN}'], env: { PORT: 8080, KEY: '${TOKEN}' }, cwd: '/srv' },
          context7: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, tools: ['*'] },
          old: { type: 'sse', url: 'https://old.example/sse' },
          bare: { command: 'weather-mcp' },
        },
      },
      '/ws/app',
    );
    assert.deepEqual(result.problems, []);
    const byName = Object.fromEntries(result.servers.map((s) => [s.name, s]));
    assert.deepEqual(byName.playwright!.transport, {
      type: 'stdio',
      command: 'npx',
      args: ['@playwright/mcp@latest'],
      env: {},
      cwd: '/ws/app',
    });
    assert.equal(byName.playwright!.notSupported, undefined, 'tools ["*"] is every tool: nothing to name');
    // As written: the environment's values are filled in when the server starts, never kept here.
    assert.deepEqual(byName.db!.transport, {
      type: 'stdio',
      command: 'node',
      args: ['db.js', '--token=${TOKEN}'],
      env: { PORT: '8080', KEY: '${TOKEN}' },
      cwd: '/srv',
    });
    assert.equal(byName.db!.environmentReferences, true);
    assert.equal(byName.playwright!.environmentReferences, undefined);
    assert.deepEqual(byName.context7!.transport, {
      type: 'http',
      url: 'https://${HOST}/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    });
    const started = await resolveLaunch(byName.context7!, { env });
    assert.deepEqual(started, { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer tok-1' } });
    const process = await resolveLaunch(byName.db!, { env });
    assert.deepEqual(process.type === 'stdio' && [process.args, process.env], [['db.js', '--token=tok-1'], { PORT: '8080', KEY: 'tok-1' }]);
    const unset = await resolveLaunch(byName.context7!, { env: {} });
    assert.deepEqual(unset.type !== 'stdio' && unset.headers, { Authorization: 'Bearer ${TOKEN}' }, 'an unset variable stays as written');
    assert.equal(byName.old!.transport.type, 'sse');
    assert.equal(byName.bare!.transport.type, 'stdio');
    assert.equal(byName.bare!.source, 'app/.mcp.json');
  });

  it('reads a flat map of servers too (VS Code accepts it)', () => {
    const result = parse({ weather: { command: 'weather-mcp' } });
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['weather'],
    );
  });

  it('names the fields Elicit does not act on, and a restricted tools list', () => {
    const result = parse({
      mcpServers: {
        cli: { type: 'local', command: 'x', tools: ['read'], timeout: 30000 },
        remote: { type: 'http', url: 'https://a.example/mcp', tools: ['*'], oauthClientId: 'client', filterMapping: 'markdown' },
      },
    });
    const [cli, remote] = result.servers;
    assert.deepEqual(cli!.notSupported, ['tools', 'timeout']);
    assert.deepEqual(remote!.notSupported, ['filterMapping']);
    assert.equal(remote!.oauthClientId, 'client');
  });

  it('has no inputs: an ${input:…} or an "inputs" list is a problem naming .vscode/mcp.json; other servers load', () => {
    const result = parse({
      inputs: [{ id: 'x', type: 'promptString' }],
      mcpServers: { a: { command: 'run', env: { K: '${input:x}' } }, b: { command: 'ok' } },
    });
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['b'],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.server, p.message]),
      [
        [undefined, 'app/.mcp.json: "inputs" are not read in this file; use .vscode/mcp.json for servers that need them'],
        ['a', 'app/.mcp.json: server "a": uses ${input:…}, which this file does not support; use .vscode/mcp.json for it'],
      ],
    );
  });

  it('refuses an unknown type (ws) and a missing command, each a problem of its own', () => {
    const result = parse({
      mcpServers: { sock: { type: 'ws', url: 'ws://x' }, empty: { type: 'local' }, fine: { url: 'https://a.example' } },
    });
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['fine'],
    );
    assert.deepEqual(
      result.problems.map((p) => p.message),
      [
        'app/.mcp.json: server "sock": unknown type "ws"; use "local", "stdio", "http" or "sse"',
        'app/.mcp.json: server "empty": "command" is missing',
      ],
    );
  });

  it('a broken file is one problem with its line and column; an empty one configures nothing', () => {
    const broken = parse('{\n  "mcpServers": {\n    "a": { "command": "x" ]\n}');
    assert.equal(broken.servers.length, 0);
    assert.match(broken.problems[0]!.message, /^app\/\.mcp\.json: .+ at line 3, column \d+$/);
    assert.deepEqual(parse('  \n'), { servers: [], problems: [] });
  });
});

describe('fields beyond the transport (VS Code format)', () => {
  const parse = (servers: Record<string, unknown>) =>
    parseMcpConfig(JSON.stringify({ servers }), '.vscode/mcp.json', { workspaceFolder: '/ws', userHome: '/home/ada', env: {} });

  it("a sandboxed server carries its file's sandbox rules, variables filled in; others carry none", () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        sandbox: {
          filesystem: { allowWrite: ['${workspaceFolder}/out'], denyRead: ['${userHome}/.ssh'] },
          network: { allowedDomains: ['*.example.com'] },
        },
        servers: { boxed: { command: 'node', args: ['s.js'], sandboxEnabled: true }, open: { command: 'node', sandboxEnabled: false } },
      }),
      '.vscode/mcp.json',
      { workspaceFolder: '/ws', userHome: '/home/ada', env: {} },
    );
    const [boxed, open] = parsed.servers;
    assert.deepEqual(boxed!.sandbox, {
      filesystem: { allowWrite: ['/ws/out'], denyRead: ['/home/ada/.ssh'], denyWrite: [] },
      network: { allowedDomains: ['*.example.com'], deniedDomains: [] },
    });
    assert.equal(boxed!.notStarted, undefined);
    assert.equal(open!.sandbox, undefined);
    assert.equal(open!.notSupported, undefined);
  });

  it('sandbox rules that cannot be read: the sandboxed server is not started (never with fewer rules), and the file says why', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        sandbox: { filesystem: { allowWrite: '/tmp' } },
        servers: { boxed: { command: 'node', sandboxEnabled: true }, open: { command: 'x' } },
      }),
      '.vscode/mcp.json',
      { userHome: '/home/ada', env: {} },
    );
    assert.match(
      parsed.servers[0]!.notStarted ?? '',
      /its file's "sandbox" rules cannot be read \("filesystem\.allowWrite" must be a list of strings\)/,
    );
    assert.equal(parsed.servers[1]!.notStarted, undefined);
    assert.deepEqual(
      parsed.problems.map((p) => p.message),
      ['.vscode/mcp.json: "sandbox": "filesystem.allowWrite" must be a list of strings'],
    );
  });

  it('dev.watch becomes watch patterns, oauth.clientId a registered client; dev.debug and unknown fields are named; gallery data is not', () => {
    const [dev, remote] = parse({
      dev: { command: 'node', dev: { watch: 'src/**/*.ts', debug: { type: 'node' } }, gallery: 'https://g.example', version: '1.0.0' },
      remote: { type: 'http', url: 'https://a.example/mcp', oauth: { clientId: 'abc' }, carrier: 'pigeon' },
    }).servers;
    assert.deepEqual(dev!.watch, ['src/**/*.ts']);
    assert.deepEqual(dev!.notSupported, ['dev.debug']);
    assert.deepEqual(remote!.notSupported, ['carrier']);
    assert.equal(remote!.oauthClientId, 'abc');
  });
});

describe('nameServers: VS Code order, numbered duplicates, told with their source', () => {
  const config = (name: string, source: string): ServerConfig => ({
    name,
    source,
    transport: { type: 'stdio', command: name, args: [], env: {} },
  });

  it('orders by source as VS Code does and numbers the later of one name', () => {
    const sourced: SourcedConfig[] = [
      { kind: 'elicitSetting', config: config('notes', 'the elicit.servers setting (User settings)') },
      { kind: 'userMcpJson', config: config('github', 'User mcp.json') },
      { kind: 'copilotConfig', config: config('github', '~/.copilot/mcp-config.json') },
      { kind: 'folderDotMcpJson', config: config('github', '.mcp.json') },
      { kind: 'folderMcpJson', config: config('db', '.vscode/mcp.json') },
    ];
    const named = nameServers(sourced);
    assert.deepEqual(
      named.map((c) => [c.name, c.source, c.askerName]),
      [
        ['db', '.vscode/mcp.json', undefined],
        ['github', '.mcp.json', 'github from .mcp.json'],
        ['github (2)', 'User mcp.json', 'github (2) from User mcp.json'],
        ['github (3)', '~/.copilot/mcp-config.json', 'github (3) from ~/.copilot/mcp-config.json'],
        ['notes', 'the elicit.servers setting (User settings)', undefined],
      ],
    );
  });

  it('skips a number some source uses as a name itself', () => {
    const named = nameServers([
      { kind: 'folderMcpJson', config: config('db', 'a') },
      { kind: 'folderMcpJson', config: config('db (2)', 'a') },
      { kind: 'userMcpJson', config: config('db', 'b') },
    ]);
    assert.deepEqual(
      named.map((c) => c.name),
      ['db', 'db (2)', 'db (3)'],
    );
  });
});

describe("namesForAgents: the person's own servers keep their names (issue #57 finding 6)", () => {
  const config = (name: string, source: string): ServerConfig => ({
    name,
    source,
    transport: { type: 'stdio', command: name, args: [], env: {} },
  });

  it("numbers a workspace's server of the same name for agents, whatever VS Code's order gives the window", () => {
    const named = nameServers([
      { kind: 'userMcpJson', config: config('github', 'User mcp.json') },
      { kind: 'folderDotMcpJson', config: config('github', '.mcp.json'), workspace: true },
      { kind: 'folderMcpJson', config: config('db', '.vscode/mcp.json'), workspace: true },
      { kind: 'elicitSetting', config: config('db (2)', 'the elicit.servers setting (User settings)') },
    ]);
    // The window: VS Code's order, the repository's github first.
    assert.deepEqual(
      named.map((c) => [c.name, c.source, c.writtenName, c.fromWorkspace]),
      [
        ['db', '.vscode/mcp.json', undefined, true],
        ['github', '.mcp.json', undefined, true],
        ['github (2)', 'User mcp.json', 'github', undefined],
        ['db (2)', 'the elicit.servers setting (User settings)', undefined, undefined],
      ],
    );
    // Agents: the person's own github is "github"; the repository's is numbered past every written name.
    assert.deepEqual(
      [...namesForAgents(named)],
      [
        ['github', 'github (2)'],
        ['db (2)', 'db (2)'],
        ['db', 'db'],
        ['github (2)', 'github'],
      ],
    );
  });

  it('keeps every name when no two sources share one', () => {
    const named = nameServers([
      { kind: 'folderMcpJson', config: config('db', 'a'), workspace: true },
      { kind: 'userMcpJson', config: config('github', 'b') },
    ]);
    assert.deepEqual(
      [...namesForAgents(named)],
      [
        ['github', 'github'],
        ['db', 'db'],
      ],
    );
  });
});

describe("profileForWorkspace: which profile's mcp.json a window reads", () => {
  const storage = JSON.stringify({
    userDataProfiles: [
      { location: '-5a1b', name: 'Work' },
      { location: '-77cc', name: 'Shared', useDefaultFlags: { mcp: true } },
    ],
    profileAssociations: {
      workspaces: { 'file:///home/ada/work': '-5a1b', 'file:///home/ada/shared': '-77cc', 'file:///c%3A/Code/app': '-5a1b' },
      emptyWindows: {},
    },
  });

  it('the profile VS Code associated with the folder, by name', () => {
    assert.deepEqual(profileForWorkspace(storage, ['file:///home/ada/work']), { location: '-5a1b', name: 'Work' });
    assert.deepEqual(profileForWorkspace(storage, ['file:///c:/Code/app/']), { location: '-5a1b', name: 'Work' }, 'drive letters compare');
  });

  it('the default profile otherwise: no association, a profile sharing the default MCP servers, no or broken storage', () => {
    assert.deepEqual(profileForWorkspace(storage, ['file:///home/ada/other']), {});
    assert.deepEqual(profileForWorkspace(storage, ['file:///home/ada/shared']), {});
    assert.deepEqual(profileForWorkspace(undefined, ['file:///home/ada/work']), {});
    assert.deepEqual(profileForWorkspace('{ not json', ['file:///home/ada/work']), {});
  });
});

describe('local socket URLs (unix:, pipe:), as VS Code writes them', () => {
  it('the socket from the path, the HTTP path from the fragment', () => {
    assert.deepEqual(socketEndpoint('unix:///tmp/server.sock#/mcp/subpath'), {
      socketPath: '/tmp/server.sock',
      url: 'http://localhost/mcp/subpath',
    });
    assert.deepEqual(socketEndpoint('unix:///run/my%20app.sock'), { socketPath: '/run/my app.sock', url: 'http://localhost/' });
    assert.deepEqual(socketEndpoint('pipe:///pipe/named-pipe#/mcp'), {
      socketPath: '\\\\.\\pipe\\named-pipe',
      url: 'http://localhost/mcp',
    });
    assert.equal(socketEndpoint('https://example.com/mcp'), undefined);
  });

  it('are accepted in a config; one that names no socket is a problem', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({ servers: { sock: { type: 'http', url: 'unix:///tmp/s.sock#/mcp' }, none: { type: 'http', url: 'unix:///' } } }),
      '.vscode/mcp.json',
      { userHome: '/home/ada', env: {} },
    );
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['sock'],
    );
    assert.deepEqual(
      parsed.problems.map((p) => p.message),
      ['.vscode/mcp.json: server "none": "url" names no socket: use unix:///path#/http-path'],
    );
  });
});
