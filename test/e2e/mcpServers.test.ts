/**
 * The MCP Servers view and the prompt/tool commands in a real VS Code, against
 * test/fixtures/catalog-server.mjs: the view shows the server with its status
 * and, expanded, its tools, prompts and resources; Run Tool from the view asks
 * the tool's arguments (a form of quick-input steps), then the server asks a
 * question during the call; Get MCP Prompt asks the prompt's arguments and
 * opens the messages; a server's `${input:…}` values are asked when it starts, the
 * password one kept in SecretStorage and reused on Restart. Asserted on what the
 * fixtures recorded.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  chooseInDropdown,
  exactText,
  pickQuickPickItem,
  runCommand,
  runCommandShowing,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { readRecords, newRecordFile, waitForRecords } from '../support/records';
import { findInFiles } from '../support/leakScan';
import { digestOf, waitForSavedSecret } from '../support/secretReport';

const TOKEN = 'tok-e2e-5b7c1d9e3f';

describe('MCP Servers view, Run Tool with arguments, Get MCP Prompt in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  const securedRecord = newRecordFile();
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-secrets-')), 'report.json');
  let session: ElicitSession;

  before(async () => {
    const mcpJson = {
      inputs: [
        { id: 'api-token', type: 'promptString', description: 'Token for the secured server', password: true },
        { id: 'region', type: 'pickString', description: 'Region of the secured server', options: ['eu', 'us'] },
      ],
      servers: {
        'catalog-server': fixtureServer('catalog-server.mjs', { RECORD_FILE: record }),
        secured: fixtureServer('catalog-server.mjs', {
          RECORD_FILE: securedRecord,
          FIXTURE_NAME: 'secured',
          API_TOKEN: '${input:api-token}',
          REGION: '${input:region}',
        }),
      },
    };
    session = await openElicitSession(JSON.stringify(mcpJson, null, 2), {}, { ELICIT_TEST_REPORT: report });
  });

  after(async () => {
    await session?.close();
  });

  function serversView(page: Page): Locator {
    return page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'MCP Servers' }) });
  }

  function treeRow(page: Page, label: string): Locator {
    return serversView(page)
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: exactText(label) }) })
      .first();
  }

  /** Runs `command`, picks catalog-server, then the tool or prompt titled `item`. */
  async function runOnCatalog(page: Page, command: string, item: string): Promise<void> {
    await runCommandShowing(page, command, (q) => q.items.some((i) => i.label === 'catalog-server'));
    await pickQuickPickItem(page, 'catalog-server');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === item));
    await pickQuickPickItem(page, item);
  }

  /** The buttons in the quick input's title bar, by their tooltip's first word ("Back", "Later", "Decline"). */
  async function titleButtons(page: Page): Promise<string[]> {
    const labels = await page
      .locator('.quick-input-widget .quick-input-titlebar a[aria-label]')
      .evaluateAll((links) => links.filter((a) => (a as HTMLElement).offsetParent !== null).map((a) => a.getAttribute('aria-label') ?? ''));
    return labels.map((label) => label.split(/[\s:]/)[0]!);
  }

  it('shows the server with its status, and its tools, prompts and resources when expanded', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Focus on MCP Servers View');
    const server = treeRow(page, 'catalog-server');
    await server.waitFor({ timeout: 30_000 });
    await server.click();
    await treeRow(page, 'Plan a release').waitFor({ timeout: 30_000 });
    await treeRow(page, 'Release notes').waitFor();
    await treeRow(page, 'Changelog').waitFor();
    // Expanding started the server: its row now says running.
    await server.locator('.label-description', { hasText: 'running' }).waitFor({ timeout: 20_000 });
    // Issue #25 item 11: the row says running, no protocol revision (that is in the tooltip).
    assert.equal(await server.locator('.label-description').innerText(), 'running');
    const groups = await serversView(page).locator('.monaco-list-row .label-name').allTextContents();
    assert.deepEqual(
      groups.map((t) => t.trim()).filter((t) => ['Tools', 'Prompts', 'Resources'].includes(t)),
      ['Tools', 'Prompts', 'Resources'],
    );
    await screenshot(page, 'servers-view');
  });

  it('Run Tool from the view: an argument form, then a question during the call, then the result', async () => {
    const { page } = session.workbench;
    const tool = treeRow(page, 'Plan a release');
    await tool.hover();
    await tool.locator('.action-label[aria-label="Run Tool"]').click();
    // The tool's arguments, as steps: version (required, with a pattern), then the optional codename.
    // Elicit asks them for the person, before the call: titled by the command, with no Later or Decline.
    const version = await waitForQuickInput(page, (q) => q.title === 'Run MCP Tool · catalog-server · plan_release' && q.step === '1/2');
    assert.match(version.message ?? '', /version/);
    assert.deepEqual(await titleButtons(page), [], 'no Later or Decline on the first step');
    await typeAndSubmit(page, '1.4');
    await waitForQuickInput(
      page,
      (q) => q.step === '1/2' && /Version to release, e\.g\. 1\.4\.0 · ⚠ Not in the form this field asks for$/.test(q.message ?? ''),
    );
    await typeAndSubmit(page, '1.4.0');
    await waitForQuickInput(page, (q) => q.step === '2/2');
    assert.deepEqual(await titleButtons(page), ['Back'], 'Back only on the second step');
    await screenshot(page, 'run-tool-arguments');
    await typeAndSubmit(page, 'Lighthouse');
    // The server asks while the tool runs.
    await waitForQuickInput(page, (q) => q.title === 'catalog-server asks · tool plan_release' && q.items.some((i) => i.label === 'beta'));
    await pickQuickPickItem(page, 'beta');
    const results = await waitForRecords(record, 1, (r) => r.tool === 'plan_release' && r.result !== undefined);
    assert.deepEqual(results[0]!.result, { action: 'accept', content: { channel: 'beta' } });
    assert.deepEqual(readRecords(record).find((r) => r.tool === 'plan_release' && r.arguments)?.arguments, {
      version: '1.4.0',
      codename: 'Lighthouse',
    });
    await waitForRenderedText(page, 'Planned 1.4.0');
    await screenshot(page, 'run-tool-with-arguments-result');
  });

  it('Run Tool: four arguments in a form that Elicit titles for the person, with Submit and Cancel only', async () => {
    const { page } = session.workbench;
    await runOnCatalog(page, 'Elicit: Run MCP Tool', 'Schedule a release');
    const title = 'Run MCP Tool · catalog-server · schedule_release';
    const frame = await webviewFrame(page, title);
    await frame.locator('.field[data-name="version"] input.text-input').waitFor({ timeout: 20_000 });
    assert.equal((await frame.locator('h1.title').textContent())?.trim(), title);
    assert.deepEqual(
      (await frame.locator('footer .buttons button').allTextContents()).map((t) => t.trim()),
      ['Submit', 'Cancel'],
    );
    await frame.locator('.field[data-name="version"] input.text-input').fill('2.1.0');
    await frame.locator('.field[data-name="date"] input.text-input').fill('2026-12-01');
    await chooseInDropdown(page, frame.locator('.field[data-name="channel"] select'), 'beta');
    await screenshot(page, 'run-tool-arguments-form');
    await frame.getByRole('button', { name: 'Submit' }).click();
    const [call] = await waitForRecords(record, 1, (r) => r.tool === 'schedule_release');
    assert.deepEqual(call!.arguments, { version: '2.1.0', date: '2026-12-01', channel: 'beta' });
    await waitForRenderedText(page, 'Scheduled 2.1.0 for 2026-12-01 on beta.');
  });

  it('Get MCP Prompt: the prompt’s arguments in a form, the messages in an editor', async () => {
    const { page } = session.workbench;
    await runOnCatalog(page, 'Elicit: Get MCP Prompt', 'Release notes');
    await waitForQuickInput(page, (q) => q.title === 'Get MCP Prompt · catalog-server · prompt release_notes' && q.step === '1/2');
    assert.deepEqual(await titleButtons(page), []);
    await typeAndSubmit(page, '2.0.0');
    await waitForQuickInput(page, (q) => q.step === '2/2');
    await screenshot(page, 'get-prompt-arguments');
    await typeAndSubmit(page, 'developers');
    const [call] = await waitForRecords(record, 1, (r) => r.prompt === 'release_notes');
    assert.deepEqual(call!.arguments, { version: '2.0.0', audience: 'developers' });
    await waitForRenderedText(page, 'Write release notes for 2.0.0 for developers.');
    await screenshot(page, 'get-prompt-result');
  });

  it('asks a server’s inputs when it starts (the password masked), and reuses the password on Restart', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Start MCP Server');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'secured'));
    await pickQuickPickItem(page, 'secured');
    const token = await waitForQuickInput(page, (q) => q.title === 'secured asks · configuration input');
    assert.match(token.message ?? '', /Token for the secured server/);
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await screenshot(page, 'config-input-password');
    await typeAndSubmit(page, TOKEN);
    await waitForQuickInput(page, (q) => q.title === 'secured asks · configuration input' && q.items.some((i) => i.label === 'us'));
    await pickQuickPickItem(page, 'us');
    const digest = digestOf(TOKEN);
    const [first] = await waitForRecords(securedRecord, 1, (r) => r.started !== undefined);
    assert.deepEqual(first!.env, { API_TOKEN: digest, REGION: 'us' });

    // Kept in SecretStorage under the config file and the input id (the report holds digests only).
    const keyPrefix = 'elicit.input:["file://';
    const inputKey = (k: string): boolean => k.startsWith(keyPrefix) && k.endsWith('/.vscode/mcp.json","api-token"]');
    await waitForSavedSecret(report, inputKey, TOKEN, 'the input saved in SecretStorage');

    await runCommand(page, 'Elicit: Restart MCP Server');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'secured'));
    await pickQuickPickItem(page, 'secured');
    const starts = await waitForRecords(securedRecord, 2, (r) => r.started !== undefined);
    assert.deepEqual(starts[1]!.env, { API_TOKEN: digest, REGION: 'us' }, 'nothing asked again: the same values');
    await waitForNoQuickInput(page, 'no question to be open');
  });

  it('never writes the input’s secret into any file VS Code or the extension wrote', async () => {
    const hits = findInFiles([session.server.userDataDir, session.server.extensionsDir, session.workspaceDir], TOKEN);
    assert.deepEqual(hits, [], `the secret leaked into: ${hits.join(', ')}`);
  });
});
