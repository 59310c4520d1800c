/**
 * A URL question inside an agent session: the real
 * @agentclientprotocol/claude-agent-acp 0.101.0 (on Node 22), offline with a
 * scripted Messages endpoint, in a real VS Code (code-server) through Elicit's
 * agent panel. The workspace's own Claude configuration (`.mcp.json`) gives
 * claude an MCP server (test/fixtures/ask-server.mjs, official SDK) whose tool
 * asks the person to open a sign-in URL. claude relays that question to Elicit
 * as an ACP URL elicitation and, when the server reports completion, relays
 * `elicitation/complete`: the person sees Elicit's URL consent naming claude,
 * the page opens only on Open, and the waiting notification closes on completion.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { notifications, pickQuickPickItem, runCommand, screenshot, waitForQuickInput } from './harness/workbench';
import { allProcesses } from './harness/processes';
import { agentPanel, send, waitForStatus } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { claudeAcp, claudeOfflineEnv } from '../support/claudeOffline';
import { messagesEndpoint, resultText, toolResults } from '../support/messagesEndpoint';
import { node22Binary } from '../support/node22';
import { readRecords, waitForRecords } from '../support/records';
import type { ScriptedModel } from '../support/scriptedModel';
import { waitUntil } from '../support/waitUntil';

/** A process's environment, or '' once it has ended. */
function environOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

type Line = { dir: 'in' | 'out' | 'env'; message?: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown } };

describe('claude-agent-acp 0.101.0 in code-server: an MCP server of its own asks to open a sign-in URL', { timeout: 900_000 }, () => {
  let out: string;
  let tapRecord: string;
  let serverRecord: string;
  let model: ScriptedModel;
  let site: http.Server;
  const visits: string[] = [];
  let session: ElicitSession | undefined;

  const lines = (): Line[] => readRecords(tapRecord) as Line[];
  const fromAgent = (method: string): Line[] => lines().filter((l) => l.dir === 'out' && l.message?.method === method);
  const fromElicit = (method: string): Line[] => lines().filter((l) => l.dir === 'in' && l.message?.method === method);

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-claude-url-'));
    tapRecord = path.join(out, 'tap.jsonl');
    serverRecord = path.join(out, 'server.jsonl');
    site = http.createServer((req, res) => {
      visits.push(req.url ?? '');
      res.end('<h1>Signed in</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    model = messagesEndpoint();
    const url = await model.start();
    const agents = {
      claude: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), node22Binary(), claudeAcp],
        env: { ...claudeOfflineEnv(out, url, 'sk-ant-scripted'), TAP_RECORD: tapRecord },
      },
    };
    // Elicit reads the workspace's .mcp.json too, and would give claude that server through itself (its entry
    // takes the place of claude's own of the same name): this person keeps claude on its own servers.
    session = await openElicitSession(JSON.stringify({ servers: {} }), {
      'elicit.agents': agents,
      'elicit.agentServers': { claude: 'none' },
    });
    // claude's own project configuration, as a person who uses Claude Code has it: an MCP server, trusted,
    // and permissions asked (not the "auto" mode, whose classifier is a model call of its own).
    const workspace = session.workspaceDir;
    fs.writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          signin: {
            command: process.execPath,
            args: [path.join(fixtures, 'ask-server.mjs')],
            env: { RECORD_FILE: serverRecord, FIXTURE_NAME: 'signin', COMPLETE_DELAY_MS: '4000' },
          },
        },
      }),
    );
    fs.mkdirSync(path.join(workspace, '.claude'));
    fs.writeFileSync(
      path.join(workspace, '.claude', 'settings.json'),
      JSON.stringify({ enableAllProjectMcpServers: true, permissions: { defaultMode: 'default' } }),
    );
  });

  after(async () => {
    try {
      await session?.close();
      await model?.close();
      site?.close();
      // The Claude Code process and its MCP server outlive the extension host by a moment and write
      // into claude's home as they go: wait for them, or they recreate a folder just removed.
      if (out)
        await waitUntil(() => !allProcesses().some((p) => environOf(p.pid).includes(out)), 'claude to end', 20_000).catch(() => undefined);
    } finally {
      if (out) fs.rmSync(out, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  it('shows the URL consent naming claude, opens the page only on Open, and closes the wait when claude relays the completion', async () => {
    const { page } = session!.workbench;
    const port = (site.address() as AddressInfo).port;
    const target = `http://127.0.0.1:${port}/login?state=claude`;
    await runCommand(page, 'Elicit: New Agent Session');
    const panel = await agentPanel(page, 'claude', 120_000);
    await waitForStatus(panel, 'Ready', 120_000);
    await panel.locator('.servers', { hasText: 'No MCP servers' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(fromElicit('session/new')[0]!.message!.params!.mcpServers, [], 'elicit.agentServers "none": no server offered');

    model.script({ tool: 'mcp__signin__ask_url', input: { url: target } }, { text: 'Signed in to the sign-in server.' });
    await send(panel, 'Sign in to the sign-in server');
    // claude asks before it calls the tool; allowed once, as a person would.
    const permission = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Yes'), 120_000);
    assert.equal(permission.title, 'claude wants permission · mcp__signin__ask_url');
    await pickQuickPickItem(page, 'Yes');

    const box = page.locator('.monaco-dialog-box');
    await box.waitFor({ timeout: 120_000 }).catch((error: unknown) => {
      // What claude sent and what its tool calls returned say why no question came.
      const methods = lines().map((l) => `${l.dir} ${l.message?.method ?? `answer ${l.message?.id}`}`);
      const results = model.turnRequests.flatMap((r) => toolResults(r.body).map((t) => resultText(t.content)));
      throw new Error(`no URL consent: ${String(error)}\nprotocol: ${methods.join(', ')}\ntool results: ${results.join(' | ')}`);
    });
    const message = (await box.locator('.dialog-message-text').textContent()) ?? '';
    const detail = (await box.locator('.dialog-message-detail').textContent()) ?? '';
    assert.match(message, new RegExp(`^claude asks.*open 127\\.0\\.0\\.1:${port}\\?`));
    assert.match(detail, /Sign in to continue/);
    assert.match(detail, new RegExp(`Full URL: http://127\\.0\\.0\\.1:${port}/login\\?state=claude`));
    assert.deepEqual(visits, [], 'nothing is opened before consent');
    await screenshot(page, 'acp-claude-url-consent');
    const newTab = page.context().waitForEvent('page', { timeout: 30_000 });
    await box.locator('.dialog-buttons').getByRole('button', { name: 'Open', exact: true }).click();
    const tab = await newTab;
    await tab.waitForLoadState('domcontentloaded').catch(() => undefined);
    await waitUntil(() => visits.some((v: string) => v.startsWith('/login?state=claude')), 'the browser visits the URL');

    // The server got the acceptance through claude; the wait shows until the completion comes back through claude.
    const [answered] = await waitForRecords(serverRecord, 1, (r) => r.result !== undefined);
    assert.deepEqual(answered!.result, { action: 'accept', content: {} });
    await waitUntil(async () => (await notifications(page)).some((n) => n.startsWith(`Waiting for 127.0.0.1:${port}`)), 'waiting shown');
    await waitForRecords(serverRecord, 1, (r) => r.completed !== undefined);
    await waitUntil(
      async () => !(await notifications(page)).some((n) => n.startsWith('Waiting for')),
      'the waiting notification closes',
      30_000,
    );

    const asked = fromAgent('elicitation/create').map((l) => l.message!.params!);
    assert.equal(asked.length, 1);
    assert.deepEqual(
      { mode: asked[0]!.mode, url: asked[0]!.url, elicitationId: asked[0]!.elicitationId },
      { mode: 'url', url: target, elicitationId: 'login-1' },
    );
    assert.ok(
      fromAgent('elicitation/complete').some((l) => l.message!.params!.elicitationId === 'login-1'),
      'claude relayed the completion',
    );
    await panel.locator('.item.agent', { hasText: 'Signed in to the sign-in server.' }).waitFor({ timeout: 120_000 });
    assert.match(resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content), /URL elicitation login-1: accept/);
    tab.close().catch(() => undefined);
  });
});
