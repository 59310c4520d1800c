/** Which of the person's MCP servers an agent session gets, and the `mcpServers` entries that carry them (acp/agentServers.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { mcpServerEntries, serversForAgent } from '../../src/acp/agentServers';
import { isAgentPanelToHost } from '../../src/core/protocols/agentPanelProtocol';
import { mcpToolOf } from '../../src/acp/transcript';

const available = ['github', 'tracker', 'songs (2)'];

describe('serversForAgent', () => {
  it('gives every agent all the servers when nothing is set', () => {
    assert.deepEqual(serversForAgent('claude', {}, available), { servers: available, missing: [], problems: [] });
  });

  it('reads the agent\'s own entry first, then "*"', () => {
    const user = { codex: ['tracker', 'gone'], '*': 'none' };
    assert.deepEqual(serversForAgent('codex', { user }, available), { servers: ['tracker'], missing: ['gone'], problems: [] });
    assert.deepEqual(serversForAgent('claude', { user }, available).servers, []);
    assert.deepEqual(serversForAgent('claude', { user: { claude: 'all', '*': 'none' } }, available).servers, available);
  });

  it('lets a workspace narrow the user value, never widen it', () => {
    assert.deepEqual(serversForAgent('claude', { user: { claude: ['github'] }, workspace: { claude: 'all' } }, available).servers, [
      'github',
    ]);
    assert.deepEqual(serversForAgent('claude', { user: { claude: ['github'] }, workspace: { '*': ['tracker'] } }, available).servers, []);
    assert.deepEqual(serversForAgent('claude', { user: {}, workspace: { claude: ['tracker', 'github'] } }, available).servers, [
      'github',
      'tracker',
    ]);
    assert.deepEqual(serversForAgent('claude', { user: { claude: 'none' }, workspace: { claude: 'all' } }, available).servers, []);
  });

  it('gives nothing for a value it cannot read, and says why', () => {
    const bad = serversForAgent('claude', { user: { claude: 'some' } }, available);
    assert.deepEqual(bad.servers, []);
    assert.match(bad.problems[0]!, /"claude" must be "all", "none" or a list of server names/);
    const notObject = serversForAgent('claude', { user: ['github'] }, available);
    assert.deepEqual(notObject.servers, []);
    assert.match(notObject.problems[0]!, /expected an object of agent names/);
    assert.deepEqual(serversForAgent('claude', { user: { claude: [1, 'github'] } }, available).servers, []);
  });

  it('ignores an inherited key of the object', () => {
    assert.deepEqual(serversForAgent('constructor', { user: { '*': ['github'] } }, available).servers, ['github']);
  });
});

describe('mcpServerEntries', () => {
  const offered = [
    { name: 'github', url: 'http://127.0.0.1:4000/servers/github' },
    { name: 'songs_2', url: 'http://127.0.0.1:4000/servers/songs_2' },
  ];
  const bridge = { command: '/usr/bin/node', args: ['/ext/dist/mcp-bridge.js'], env: { ELECTRON_RUN_AS_NODE: '1' } };
  const init = (mcpCapabilities: acp.McpCapabilities | undefined): acp.InitializeResponse =>
    ({ protocolVersion: 1, agentCapabilities: mcpCapabilities ? { mcpCapabilities } : {} }) as acp.InitializeResponse;

  it('offers HTTP endpoints with the session token to an agent that takes MCP over HTTP', () => {
    assert.deepEqual(mcpServerEntries(init({ http: true, sse: true }), offered, 'tok', bridge), {
      via: 'http',
      servers: [
        { type: 'http', name: 'github', url: offered[0]!.url, headers: [{ name: 'Authorization', value: 'Bearer tok' }] },
        { type: 'http', name: 'songs_2', url: offered[1]!.url, headers: [{ name: 'Authorization', value: 'Bearer tok' }] },
      ],
    });
  });

  it('offers the bridge command to the same endpoints to an agent without it', () => {
    const { via, servers } = mcpServerEntries(init({ http: false }), offered, 'tok', bridge);
    assert.equal(via, 'stdio');
    assert.deepEqual(servers[1], {
      name: 'songs_2',
      command: '/usr/bin/node',
      args: ['/ext/dist/mcp-bridge.js'],
      env: [
        { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
        { name: 'ELICIT_MCP_URL', value: offered[1]!.url },
        { name: 'ELICIT_MCP_TOKEN', value: 'tok' },
      ],
    });
    assert.equal(mcpServerEntries(init(undefined), offered, 'tok', bridge).via, 'stdio');
  });

  it('offers nothing when there is nothing to offer or no way to reach it', () => {
    assert.deepEqual(mcpServerEntries(init({ http: true }), [], 'tok', bridge), { servers: [], via: 'none' });
    assert.deepEqual(mcpServerEntries(init({}), offered, 'tok', undefined), { servers: [], via: 'none' });
  });
});

describe('the agent panel protocol', () => {
  it('takes the Servers… button', () => {
    assert.equal(isAgentPanelToHost({ type: 'chooseServers' }), true);
  });
});

describe('mcpToolOf', () => {
  const offered = new Map([
    ['tracker', 'tracker'],
    ['songs_2', 'songs (2)'],
  ]);

  it("names the server and tool of a call to one of the session's servers, as claude and codex title it", () => {
    assert.deepEqual(mcpToolOf('mcp__tracker__create_issue', offered), { server: 'tracker', tool: 'create_issue' });
    assert.deepEqual(mcpToolOf('mcp.songs_2.two_rounds', offered), { server: 'songs (2)', tool: 'two_rounds' });
  });

  it("leaves other tools alone, the agent's own servers among them", () => {
    for (const title of ['Bash', 'mcp__github__create_issue', 'mcp.tracker.', 'tracker create_issue', 'mcp__tracker_x__y']) {
      assert.equal(mcpToolOf(title, offered), undefined, title);
    }
  });
});
