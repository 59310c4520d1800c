/** Every gateway snippet carries the real URL and token, in the shape its client reads. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gatewaySnippets } from '../../src/gateway/configSnippets';

describe('gatewaySnippets', () => {
  const url = 'http://127.0.0.1:47321/mcp';
  const token = 'tok-abc';
  const byId = Object.fromEntries(gatewaySnippets(url, token).map((s) => [s.id, s.text]));

  it('gives Claude Code an `mcp add` command with the header', () => {
    assert.equal(byId.claude, `claude mcp add --transport http elicit ${url} --header "Authorization: Bearer ${token}"`);
  });
  it('gives Codex a config.toml table that reads the token from the environment', () => {
    assert.match(byId.codex!, /^\[mcp_servers\.elicit\]$/m);
    assert.match(byId.codex!, new RegExp(`^url = "${url.replace(/[.]/g, '\\.')}"$`, 'm'));
    assert.match(byId.codex!, /bearer_token_env_var = "ELICIT_GATEWAY_TOKEN"/);
    assert.match(byId.codex!, /export ELICIT_GATEWAY_TOKEN="tok-abc"/);
  });
  it('gives Gemini CLI and mcp.json valid JSON with the header', () => {
    assert.deepEqual(JSON.parse(byId.gemini!), { mcpServers: { elicit: { httpUrl: url, headers: { Authorization: 'Bearer tok-abc' } } } });
    assert.deepEqual(JSON.parse(byId.mcpJson!), {
      servers: { elicit: { type: 'http', url, headers: { Authorization: 'Bearer tok-abc' } } },
    });
  });
});
