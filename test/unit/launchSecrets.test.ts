/**
 * `${secret:NAME}` in env and headers is filled from saved secrets when a server starts, only
 * where the person allowed that secret to go (secretGrants.ts), and never inside an envFile.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { resolveLaunch, resolveSecrets, type SecretDestination } from '../../src/mcp/launch';
import { SecretGrants, SecretNotGrantedError } from '../../src/mcp/secretGrants';
import { serverDestination, serverOrigin } from '../../src/mcp/serverOrigin';

const saved: Record<string, string> = { 'openai-api-key': 'sk-saved-1', region: 'eu' };
const secret = async (name: string): Promise<string | undefined> => saved[name];
const anywhere = (): SecretDestination => ({ origin: 'o', destination: { file: 'f' }, server: 's', source: 'test', target: 't' });

describe('resolveSecrets', () => {
  it('fills env values of a stdio server, leaving other text alone', async () => {
    const launch = await resolveSecrets(
      {
        type: 'stdio',
        command: 'node',
        args: ['${secret:openai-api-key}'],
        env: { KEY: '${secret:openai-api-key}', MIX: 'a-${secret:region}-${secret:region}', PLAIN: 'x' },
      },
      secret,
      anywhere,
    );
    assert.deepEqual(launch.type === 'stdio' && launch.env, { KEY: 'sk-saved-1', MIX: 'a-eu-eu', PLAIN: 'x' });
    assert.deepEqual(launch.type === 'stdio' && launch.args, ['${secret:openai-api-key}'], 'only env and headers are filled');
  });

  it('fills headers of an http server', async () => {
    const launch = await resolveSecrets(
      { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:openai-api-key}' } },
      secret,
      anywhere,
    );
    assert.deepEqual(launch.type === 'http' && launch.headers, { Authorization: 'Bearer sk-saved-1' });
  });

  it('refuses to start with a secret that was never saved, naming it', async () => {
    await assert.rejects(
      resolveSecrets({ type: 'stdio', command: 'node', args: [], env: { K: '${secret:missing}' } }, secret, anywhere),
      /uses \$\{secret:missing\}, but no secret of that name is saved/,
    );
  });
});

describe('resolveLaunch', () => {
  const stdio: ServerConfig = {
    name: 'weather',
    source: '.vscode/mcp.json',
    transport: {
      type: 'stdio',
      command: 'npx',
      args: ['weather-mcp'],
      env: { API_KEY: '${secret:openai-api-key}', ALSO: '${secret:openai-api-key}' },
    },
    origin: { file: 'file:///ws/.vscode/mcp.json', folder: '/ws' },
  };

  it('tells the lookup which server would receive the secret, and where the value goes', async () => {
    const asked: Array<[string, SecretDestination]> = [];
    const launch = await resolveLaunch(stdio, { secret: async (name, destination) => (asked.push([name, destination]), saved[name]) });
    assert.deepEqual(launch.type === 'stdio' && launch.env, { API_KEY: 'sk-saved-1', ALSO: 'sk-saved-1' });
    assert.deepEqual(asked[0], [
      'openai-api-key',
      {
        origin: serverOrigin(stdio),
        destination: serverDestination(stdio),
        server: 'weather',
        source: '.vscode/mcp.json',
        target: 'the environment (API_KEY, ALSO) of `npx weather-mcp`',
      },
    ]);
    const http: ServerConfig = {
      name: 'api',
      source: 'f',
      transport: { type: 'http', url: 'https://evil.example:8443/collect?x=1', headers: { 'X-Key': '${secret:region}' } },
    };
    await resolveLaunch(http, { secret: async (name, destination) => (asked.push([name, destination]), saved[name]) });
    assert.equal(asked[2]![1].target, 'a header (X-Key) sent to https://evil.example:8443/collect?x=1');
  });

  it('leaves a reference inside an envFile as written: only the reviewed config may name a secret', async () => {
    const withFile: ServerConfig = {
      ...stdio,
      transport: { ...stdio.transport, env: { PLAIN: '1' }, envFile: '.env' } as ServerConfig['transport'],
    };
    const launch = await resolveLaunch(withFile, { secret, readText: async () => 'FROM_FILE=${secret:openai-api-key}\n' });
    assert.deepEqual(launch.type === 'stdio' && launch.env, { FROM_FILE: '${secret:openai-api-key}', PLAIN: '1' });
  });

  it('refuses to start when the person refused the secret for this server', async () => {
    const grants = new SecretGrants(memoryStore(), secret, async () => false);
    await assert.rejects(resolveLaunch(stdio, { secret: (n, d) => grants.lookup(n, d) }), SecretNotGrantedError);
  });
});

describe('SecretGrants', () => {
  const destination = (origin: string): SecretDestination => ({
    origin,
    destination: { file: '.vscode/mcp.json', command: origin },
    server: 'weather',
    source: '.vscode/mcp.json',
    target: 'the environment (K) of `x`',
  });

  it('asks once per secret and destination and remembers the answer', async () => {
    const questions: string[] = [];
    const answers = [true, false];
    const store = memoryStore();
    const grants = new SecretGrants(
      store,
      secret,
      async (subject, d) => (questions.push(`${subject.kind === 'secret' ? subject.name : subject.id} → ${d.origin}`), answers.shift()),
    );
    assert.equal(await grants.lookup('openai-api-key', destination('a')), 'sk-saved-1');
    assert.equal(await grants.lookup('openai-api-key', destination('a')), 'sk-saved-1');
    await assert.rejects(grants.lookup('openai-api-key', destination('b')), /you refused/);
    await assert.rejects(grants.lookup('openai-api-key', destination('b')), /you refused/);
    assert.deepEqual(questions, ['openai-api-key → a', 'openai-api-key → b']);
    // Remembered across windows: a new instance over the same store asks nothing.
    const again = new SecretGrants(store, secret, async () => assert.fail('asked again'));
    assert.equal(await again.lookup('openai-api-key', destination('a')), 'sk-saved-1');
    assert.ok(!JSON.stringify(store.data).includes('sk-saved-1'), 'no value in the remembered answers');
  });

  it('a question closed unanswered refuses this time and is asked again next time', async () => {
    const answers: Array<boolean | undefined> = [undefined, true];
    const grants = new SecretGrants(memoryStore(), secret, async () => answers.shift());
    await assert.rejects(grants.lookup('region', destination('a')), /closed unanswered/);
    assert.equal(await grants.lookup('region', destination('a')), 'eu');
  });

  it('asks nothing for a secret that is not saved, and one question at a time', async () => {
    let open = 0;
    let most = 0;
    const grants = new SecretGrants(memoryStore(), secret, async () => {
      most = Math.max(most, ++open);
      await new Promise((resolve) => setTimeout(resolve, 10));
      open--;
      return true;
    });
    assert.equal(await grants.lookup('missing', destination('a')), undefined);
    await Promise.all([
      grants.lookup('region', destination('a')),
      grants.lookup('region', destination('a')),
      grants.lookup('region', destination('b')),
    ]);
    assert.equal(most, 1);
  });

  it('forgetting a secret forgets where it may go', async () => {
    let asked = 0;
    const grants = new SecretGrants(memoryStore(), secret, async () => (asked++, true));
    await grants.lookup('region', destination('a'));
    await grants.forget('region');
    await grants.lookup('region', destination('a'));
    assert.equal(asked, 2);
  });
});

function memoryStore(): {
  data: Record<string, unknown>;
  get<T>(key: string, fallback: T): T;
  update(key: string, value: unknown): Promise<void>;
} {
  const data: Record<string, unknown> = {};
  return {
    data,
    get: <T>(key: string, fallback: T): T => (key in data ? (data[key] as T) : fallback),
    update: async (key: string, value: unknown) => void (data[key] = value),
  };
}
