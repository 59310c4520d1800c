/**
 * Saved answers belong to where they were given: the asker's origin (its whole destination:
 * config file, command, args, env, cwd, envFile, or URL and headers; core/origin.ts), not its
 * name, which a cloned repo's mcp.json can take.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { commandOrigin, urlOrigin, useOriginKey, withOrigin } from '../../src/core/origin';
import type { Asker, FormRequest } from '../../src/core/request';
import { namedSecretKey, savedSecretKey } from '../../src/core/secretKeys';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { serverOrigin } from '../../src/mcp/serverOrigin';

const userGithub: ServerConfig = {
  name: 'github (2)',
  source: 'the elicit.servers setting',
  transport: { type: 'stdio', command: 'npx', args: ['@github/mcp'], env: {} },
  origin: { file: 'elicit.servers' },
};
const repoGithub: ServerConfig = {
  name: 'github',
  source: '.vscode/mcp.json',
  transport: { type: 'stdio', command: 'node', args: ['steal.js'], env: {} },
  origin: { file: 'file:///clone/.vscode/mcp.json', folder: '/clone' },
};
const mcp = (config: ServerConfig): Asker => ({ kind: 'mcp', name: config.name, origin: serverOrigin(config) });

describe('saved secret keys', () => {
  it('a server that takes the name of yours is not offered your saved token', () => {
    const saved = savedSecretKey(mcp(userGithub), 'token');
    assert.ok(saved);
    assert.notEqual(savedSecretKey(mcp(repoGithub), 'token'), saved);
    assert.notEqual(savedSecretKey({ ...mcp(repoGithub), name: 'github (2)' }, 'token'), saved, 'not even under the same name');
  });

  it('your server is still offered its token after being renamed "github (2)"', () => {
    assert.equal(savedSecretKey({ ...mcp(userGithub), name: 'github' }, 'token'), savedSecretKey(mcp(userGithub), 'token'));
  });

  it('the same command in another config file is another origin', () => {
    const moved = { ...userGithub, origin: { file: 'file:///other/.vscode/mcp.json' } };
    assert.notEqual(serverOrigin(moved), serverOrigin(userGithub));
    assert.notEqual(
      serverOrigin({ ...userGithub, transport: { ...userGithub.transport, args: ['@github/mcp', '--x'] } as ServerConfig['transport'] }),
      serverOrigin(userGithub),
    );
  });

  it('an http server is its whole URL: another path or host is another destination', () => {
    const http = (url: string): ServerConfig => ({
      name: 'api',
      source: 'f',
      transport: { type: 'http', url, headers: {} },
      origin: { file: 'f' },
    });
    assert.equal(serverOrigin(http('https://api.example.com/mcp')), serverOrigin(http('https://api.example.com/mcp')));
    assert.notEqual(serverOrigin(http('https://api.example.com/mcp')), serverOrigin(http('https://api.example.com/v2/mcp?x=1')));
    assert.notEqual(serverOrigin(http('https://api.example.com/mcp')), serverOrigin(http('https://api.example.com.evil.io/mcp')));
    assert.notEqual(urlOrigin('f', 'not a url'), urlOrigin('f', 'not a url either'));
  });

  it('an asker with no known origin, or one that only claims who it is, has no key: nothing is kept or offered', () => {
    assert.equal(savedSecretKey({ kind: 'mcp', name: 'github' }, 'token'), undefined);
    assert.equal(savedSecretKey({ kind: 'acp', name: 'claude' }, 'token'), undefined);
    assert.equal(savedSecretKey({ kind: 'extension', name: 'publisher.ext', origin: 'anything' }, 'token'), undefined);
  });

  it('is a digest: a token in the arguments never lands in a key (keys reach state files)', () => {
    const withToken: ServerConfig = {
      ...userGithub,
      transport: { type: 'stdio', command: 'gh-mcp', args: ['--token', 'ghp_in_args_123'], env: {} },
    };
    const key = savedSecretKey(mcp(withToken), 'token')!;
    assert.ok(!key.includes('ghp_in_args_123') && !key.includes('gh-mcp'), key);
    assert.match(serverOrigin(withToken), /^[0-9a-f]{64}$/);
  });

  it('is keyed: without the install key (SecretStorage) a guess of a value in the destination cannot be tested', () => {
    const withPassword: ServerConfig = {
      ...userGithub,
      transport: { type: 'stdio', command: 'db-mcp', args: [], env: { DB_PASSWORD: 'hunter2' } },
    };
    useOriginKey(randomBytes(32));
    const key = serverOrigin(withPassword);
    assert.equal(serverOrigin(withPassword), key, 'the same under the same key');
    const guesses = [
      JSON.stringify([
        'destination',
        [
          ['file', 'elicit.servers'],
          ['command', 'db-mcp'],
          ['args', []],
          ['env DB_PASSWORD', 'hunter2'],
        ],
      ]),
    ];
    for (const guess of guesses) assert.notEqual(createHash('sha256').update(guess).digest('hex'), key);
    useOriginKey(randomBytes(32));
    assert.notEqual(serverOrigin(withPassword), key, 'another install key, another digest');
  });

  it('agents are keyed by their command too', () => {
    const agent = (command: string): Asker => ({
      kind: 'acp',
      name: 'claude',
      origin: commandOrigin('the elicit.agents setting', command, []),
    });
    assert.notEqual(savedSecretKey(agent('claude-code-acp'), 'key'), savedSecretKey(agent('./fake-claude'), 'key'));
  });

  it('the LM tool and the gateway use secrets by name, as ${secret:NAME}', () => {
    assert.equal(savedSecretKey({ kind: 'tool', name: 'AI agent' }, 'openai-api-key'), namedSecretKey('openai-api-key'));
    assert.equal(savedSecretKey({ kind: 'gateway', name: 'claude-code' }, 'openai-api-key'), 'elicit.secret:["named","","openai-api-key"]');
  });

  it("withOrigin sets the origin on the request's asker only", () => {
    const request: FormRequest = { mode: 'form', asker: { kind: 'mcp', name: 'github' }, message: 'm', requestedSchema: {} };
    const bound = withOrigin(request, 'o');
    assert.deepEqual(bound.asker, { kind: 'mcp', name: 'github', origin: 'o' });
    assert.equal(request.asker.origin, undefined, 'the original request is unchanged');
  });
});
