/**
 * An agent's call through the gateway to a tool that runs as a task (MCP's tasks extension), at
 * Developer: Reload Window: the window's end stops the call (the agent is told to call again), and
 * nobody will answer that task's question any more (a gateway call's rounds are not kept), so the
 * task must be cancelled at its server (tasks/cancel) before the old window goes. Found by the soak
 * (issue #37): the server's task waited at input_required for ever.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reloadWindow, runCommand, waitForQuickInput } from './harness/workbench';
import { openElicitSession, type ElicitSession } from './elicitSession';
import { copyGatewayConfig } from '../soak/gatewayAgent';
import { HttpAsker } from '../soak/httpAsker';
import { readSoakLog, type SoakLogLine } from '../soak/soakLog';
import { freePort } from '../support/freePort';
import { repoRoot } from '../support/mcpServers';
import { waitUntil } from '../support/waitUntil';

describe('a task an agent started through the gateway, at Developer: Reload Window, in code-server', { timeout: 300_000 }, () => {
  let dir: string;
  let asker: HttpAsker;
  let session: ElicitSession;
  let agent: Client | undefined;

  const logged = (): SoakLogLine[] => readSoakLog<SoakLogLine>(path.join(dir, 'log.jsonl'));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-task-reload-'));
    asker = await HttpAsker.start(
      'tasker',
      path.join(repoRoot, 'test', 'soak', 'soak-server.mjs'),
      { SOAK_LOG: path.join(dir, 'log.jsonl'), SOAK_WITHDRAW: '0' },
      ['--tasks'],
    );
    session = await openElicitSession(JSON.stringify({ servers: { tasker: { type: 'http', url: asker.url } } }), {
      'elicit.gateway.enabled': true,
      'elicit.gateway.port': await freePort(),
    });
  });

  after(async () => {
    await agent?.close().catch(() => undefined);
    await session?.close();
    await asker?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("cancels the task at its server as the window goes, and the agent's call ends with the reason", async () => {
    const { page } = session.workbench;
    const gateway = await copyGatewayConfig(page, session.server.url);
    // The only server: started without a pick.
    await runCommand(page, 'Elicit: Start MCP Server');
    agent = new Client({ name: 'task-agent', version: '1.0.0' }, { capabilities: {} });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } } }),
    );
    const call = agent.callTool({ name: 'tasker__soak_task', arguments: { call: 'c1' } }, { timeout: 120_000 }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await waitUntil(() => logged().some((e) => e.event === 'asked' && e.question === 'tasker-c1'), 'the task asks', 60_000);
    // The person sees it; nobody answers before the reload.
    await waitForQuickInput(page, (q) => /Soak task from tasker/.test(q.message ?? q.placeholder ?? ''));
    await reloadWindow(page);
    const ended = await call;
    const said = 'result' in ended ? JSON.stringify(ended.result.content) : String(ended.error);
    assert.ok('result' in ended && ended.result.isError === true, `the call ends with an error result: ${said}`);
    await waitUntil(
      () => logged().some((e) => e.event === 'fate' && e.question === 'tasker-c1'),
      "the task's question has its fate at the server",
      20_000,
    );
    const fate = logged().find((e) => e.event === 'fate' && e.question === 'tasker-c1')!;
    assert.equal(fate.fate, 'error', JSON.stringify(fate));
    assert.equal(fate.message, 'the client cancelled the task');
  });
});
