/**
 * Other tools' MCP server files (issue #32, item 2): where each tool keeps
 * them on each system, and each format read into Elicit's one server shape,
 * with a broken file named by its line and column.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { otherToolFiles, parseOtherTool, type MachineFacts } from '../../src/core/mcpConfig/otherTools';
import type { OtherTool } from '../../src/core/mcpConfig/otherToolNames';

const linux: MachineFacts = { home: '/home/ada', platform: 'linux', env: {}, folders: ['/ws/app'] };
const parse = (tool: OtherTool, text: string, env: Record<string, string> = {}, folder?: string) =>
  parseOtherTool({ tool, file: '/x', ...(folder ? { folder } : {}) }, text, 'Tool (x)', { env, folders: ['/ws/app'] });

describe('where other tools keep their MCP servers', () => {
  it('on Linux, macOS and Windows, as VS Code and the tools place them', () => {
    const files = (tool: OtherTool, facts = linux): string[] => otherToolFiles(tool, facts).map((f) => f.file);
    assert.deepEqual(files('claude-desktop'), ['/home/ada/.config/Claude/claude_desktop_config.json']);
    assert.deepEqual(files('claude-desktop', { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } }), ['/xdg/Claude/claude_desktop_config.json']);
    assert.deepEqual(files('claude-desktop', { ...linux, platform: 'darwin' }), [
      '/home/ada/Library/Application Support/Claude/claude_desktop_config.json',
    ]);
    assert.deepEqual(
      files('claude-desktop', {
        ...linux,
        platform: 'win32',
        home: 'C:\\Users\\ada',
        env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
      }),
      ['C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
    );
    assert.deepEqual(files('claude-code'), ['/home/ada/.claude.json']);
    assert.deepEqual(files('cursor-global'), ['/home/ada/.cursor/mcp.json']);
    assert.deepEqual(otherToolFiles('cursor-workspace', linux), [
      { tool: 'cursor-workspace', file: '/ws/app/.cursor/mcp.json', folder: '/ws/app' },
    ]);
    assert.deepEqual(files('windsurf'), ['/home/ada/.codeium/windsurf/mcp_config.json']);
    assert.deepEqual(files('codex'), ['/home/ada/.codex/config.toml']);
    assert.deepEqual(files('codex', { ...linux, env: { CODEX_HOME: '/codex' } }), ['/codex/config.toml']);
    assert.deepEqual(files('gemini'), ['/home/ada/.gemini/settings.json', '/ws/app/.gemini/settings.json']);
  });
});

describe('their formats, read into servers', () => {
  it('Claude Desktop and Cursor: mcpServers of commands and URLs', () => {
    const result = parse(
      'claude-desktop',
      JSON.stringify({
        mcpServers: { fs: { command: 'npx', args: ['-y', 'fs-mcp'], env: { ROOT: '/srv' } }, web: { url: 'https://w.example/mcp' } },
      }),
    );
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.servers.map((s) => [s.name, s.transport.type, s.source]),
      [
        ['fs', 'stdio', 'Tool (x)'],
        ['web', 'http', 'Tool (x)'],
      ],
    );
  });

  it("Claude Code: the user's servers and the open folder's project servers, not another project's", () => {
    const claude = {
      mcpServers: { mine: { type: 'stdio', command: 'mine-mcp', env: { K: '${TOKEN}' } } },
      projects: {
        '/ws/app': { mcpServers: { proj: { type: 'http', url: 'https://p.example/mcp' } } },
        '/elsewhere': { mcpServers: { other: { command: 'other' } } },
      },
    };
    const result = parse('claude-code', JSON.stringify(claude), { TOKEN: 'tok-1' });
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['mine', 'proj'],
    );
    assert.deepEqual(result.servers[0]!.transport.type === 'stdio' && result.servers[0]!.transport.env, { K: '${TOKEN}' });
    assert.equal(result.servers[0]!.environmentReferences, true, 'filled in at launch');
  });

  it("Windsurf's serverUrl and Gemini CLI's httpUrl (Streamable HTTP) and url (SSE); Gemini's own fields named", () => {
    const windsurf = parse('windsurf', JSON.stringify({ mcpServers: { remote: { serverUrl: 'https://r.example/mcp' } } }));
    assert.deepEqual(windsurf.servers[0]!.transport, { type: 'http', url: 'https://r.example/mcp', headers: {} });
    const gemini = parse(
      'gemini',
      JSON.stringify({
        mcpServers: {
          stream: { httpUrl: 'https://s.example/mcp', headers: { A: 'b' }, timeout: 5000, trust: true },
          events: { url: 'https://e.example/sse' },
          local: { command: 'node', args: ['g.js'], cwd: './tools', includeTools: ['x'] },
        },
      }),
      {},
      '/ws/app',
    );
    assert.deepEqual(
      gemini.servers.map((s) => [s.name, s.transport.type, s.notSupported]),
      [
        ['stream', 'http', ['timeout', 'trust']],
        ['events', 'sse', undefined],
        ['local', 'stdio', ['includeTools']],
      ],
    );
  });

  it("Codex CLI's config.toml: commands, URLs with a bearer token from the environment, disabled servers left out", () => {
    const toml = [
      '[mcp_servers.docs]',
      'command = "npx"',
      'args = ["-y", "docs-mcp"]',
      'env = { API_KEY = "${NOT_EXPANDED}" }',
      '',
      '[mcp_servers.remote]',
      'url = "https://r.example/mcp"',
      'bearer_token_env_var = "R_TOKEN"',
      'http_headers = { "X-Team" = "audio" }',
      'tool_timeout_sec = 30',
      '',
      '[mcp_servers.off]',
      'command = "off"',
      'enabled = false',
    ].join('\n');
    const result = parse('codex', toml, { R_TOKEN: 'rt-5' });
    assert.deepEqual(result.problems, []);
    const [docs, remote] = result.servers;
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['docs', 'remote'],
    );
    assert.deepEqual(docs!.transport, { type: 'stdio', command: 'npx', args: ['-y', 'docs-mcp'], env: { API_KEY: '${NOT_EXPANDED}' } });
    assert.equal(docs!.environmentReferences, undefined, 'Codex has no variables: text stays text');
    assert.deepEqual(remote!.transport, {
      type: 'http',
      url: 'https://r.example/mcp',
      headers: { 'X-Team': 'audio', Authorization: 'Bearer rt-5' },
    });
    assert.deepEqual(remote!.notSupported, ['tool_timeout_sec']);
  });

  it('a broken file is one problem naming its line; a file without servers has none', () => {
    const toml = parse('codex', '[mcp_servers.a]\ncommand = "x"\nargs = [\n');
    assert.equal(toml.servers.length, 0);
    assert.match(toml.problems[0]!.message, /^Tool \(x\): .+ at line \d+, column \d+$/);
    const json = parse('windsurf', '{\n  "mcpServers": { "a": ]\n}');
    assert.match(json.problems[0]!.message, /^Tool \(x\): .+ at line 2, column \d+$/);
    assert.deepEqual(parse('gemini', JSON.stringify({ theme: 'dark' })), { servers: [], problems: [] });
    assert.deepEqual(parse('codex', 'model = "o3"\n'), { servers: [], problems: [] });
  });
});
