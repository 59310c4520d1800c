/** `${secret:NAME}` in env and headers is filled from saved secrets when a server starts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveLaunch, resolveSecrets } from '../../src/mcp/launch';

const saved: Record<string, string> = { 'openai-api-key': 'sk-saved-1', region: 'eu' };
const secret = async (name: string): Promise<string | undefined> => saved[name];

describe('resolveSecrets', () => {
  it('fills env values of a stdio server, leaving other text alone', async () => {
    const launch = await resolveSecrets(
      { type: 'stdio', command: 'node', args: ['${secret:openai-api-key}'], env: { KEY: '${secret:openai-api-key}', MIX: 'a-${secret:region}-${secret:region}', PLAIN: 'x' } },
      secret,
    );
    assert.deepEqual(launch.type === 'stdio' && launch.env, { KEY: 'sk-saved-1', MIX: 'a-eu-eu', PLAIN: 'x' });
    assert.deepEqual(launch.type === 'stdio' && launch.args, ['${secret:openai-api-key}'], 'only env and headers are filled');
  });

  it('fills headers of an http server', async () => {
    const launch = await resolveSecrets({ type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:openai-api-key}' } }, secret);
    assert.deepEqual(launch.type === 'http' && launch.headers, { Authorization: 'Bearer sk-saved-1' });
  });

  it('refuses to start with a secret that was never saved, naming it', async () => {
    await assert.rejects(
      resolveSecrets({ type: 'stdio', command: 'node', args: [], env: { K: '${secret:missing}' } }, secret),
      /uses \$\{secret:missing\}, but no secret of that name is saved/,
    );
  });

  it('is applied by resolveLaunch', async () => {
    const launch = await resolveLaunch(
      { name: 's', source: 'test', transport: { type: 'stdio', command: 'node', args: [], env: { K: '${secret:region}' } } },
      { secret },
    );
    assert.deepEqual(launch.type === 'stdio' && launch.env, { K: 'eu' });
  });
});
