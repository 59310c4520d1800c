/** parseDotenv and resolveLaunch: an envFile read at start, relative to the workspace folder, under the configured env. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { parseDotenv } from '../../src/mcp/dotenv';
import { envFilePath, resolveLaunch } from '../../src/mcp/launch';

describe('parseDotenv', () => {
  it('reads KEY=value lines, export, comments, blank lines and CRLF', () => {
    const text = '# a comment\r\nA=1\r\n\r\nexport B = two words \r\n  C=\r\nD=x#not-a-comment\r\nE=y # a comment\r\n';
    assert.deepEqual(parseDotenv(text), { env: { A: '1', B: 'two words', C: '', D: 'x#not-a-comment', E: 'y' }, problems: [] });
  });

  it('single quotes are literal; double quotes unescape and may span lines; backquotes are literal', () => {
    const text = `S='a \\n $HOME # kept'\nD="line1\\nline2\\t\\"q\\" \\\\ # kept"\nM="first\nsecond"\nB=\`it's "fine"\`\nAFTER=ok`;
    assert.deepEqual(parseDotenv(text).env, {
      S: 'a \\n $HOME # kept',
      D: 'line1\nline2\t"q" \\ # kept',
      M: 'first\nsecond',
      B: `it's "fine"`,
      AFTER: 'ok',
    });
  });

  it('a later key wins; keys may contain dots and dashes; a BOM is ignored', () => {
    assert.deepEqual(parseDotenv('\uFEFFA=1\nA=2\nmy.key-x=3').env, { A: '2', 'my.key-x': '3' });
  });

  it('reports bad lines by number without their text (it may hold a secret), and keeps the rest', () => {
    const result = parseDotenv('GOOD=1\nthis is not an assignment s3cret\n=nokey\nOPEN="never closed\nLAST=2');
    assert.deepEqual(result.env, { GOOD: '1', LAST: '2' });
    assert.deepEqual(result.problems, ['line 2: expected KEY=value', 'line 3: expected KEY=value', 'line 4: the " quote is never closed']);
    assert.ok(result.problems.every((p) => !p.includes('s3cret')));
  });

  it('counts lines inside a quoted value for later problems', () => {
    assert.deepEqual(parseDotenv('M="a\nb\nc"\nbad line').problems, ['line 4: expected KEY=value']);
  });

  it('empty text: nothing', () => {
    assert.deepEqual(parseDotenv(''), { env: {}, problems: [] });
  });
});

describe('resolveLaunch', () => {
  const server = (envFile: string | undefined, env: Record<string, string> = {}): ServerConfig => ({
    name: 's',
    source: '.vscode/mcp.json',
    origin: { file: 'file:///ws/.vscode/mcp.json', folder: '/ws' },
    inputs: [{ id: 'key', type: 'promptString', description: 'Key', password: true }],
    transport: { type: 'stdio', command: 'run', args: ['${input:key}'], env, ...(envFile ? { envFile } : {}) },
  });

  it('reads a relative envFile from the workspace folder; the configured env wins', async () => {
    const read: string[] = [];
    const launch = await resolveLaunch(server('.env', { B: 'configured' }), {
      inputValues: { key: 'k' },
      readText: async (file) => {
        read.push(file);
        return 'A=from-file\nB=from-file';
      },
    });
    assert.deepEqual(read, ['/ws/.env']);
    assert.deepEqual(launch, { type: 'stdio', command: 'run', args: ['k'], env: { A: 'from-file', B: 'configured' }, envFile: '.env' });
  });

  it('logs skipped lines (never their text) and says which file is missing', async () => {
    const logs: string[] = [];
    await resolveLaunch(server('/abs/.env'), { inputValues: { key: 'k' }, readText: async () => 'oops secret', log: (l) => logs.push(l) });
    assert.deepEqual(logs, ['envFile /abs/.env: line 1: expected KEY=value (skipped)']);
    const missing = Object.assign(new Error('no'), { code: 'ENOENT' });
    await assert.rejects(
      resolveLaunch(server('.env'), { inputValues: { key: 'k' }, readText: async () => Promise.reject(missing) }),
      /envFile not found: \/ws\/\.env/,
    );
  });

  it('fails for a missing input value, before reading anything', async () => {
    await assert.rejects(resolveLaunch(server('.env'), { readText: async () => assert.fail('read') }), /no value for \$\{input:key\}/);
  });

  it('envFilePath: absolute as is; relative needs a base', () => {
    assert.equal(envFilePath('/x/.env', undefined), '/x/.env');
    assert.equal(envFilePath('../shared/.env', '/ws/app'), '/ws/shared/.env');
    assert.throws(() => envFilePath('.env', undefined), /relative, but there is no workspace folder/);
  });
});
