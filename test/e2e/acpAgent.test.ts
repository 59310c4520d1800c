/**
 * An ACP agent session in a real VS Code: Elicit: New Agent Session opens the
 * agent panel for the fixture agent (configured through `elicit.agents`), a
 * prompt typed in the panel runs a turn, the permission QuickPick and the
 * webview form are answered, and the agent's write lands in the workspace.
 * Also: Stop closes a pending permission prompt, a crash offers Restart, and an
 * agent that requires signing in gets its method picked before the session opens.
 * Assertions are on what the fixture agent recorded.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import {
  chooseInDropdown,
  glimpseQuickInput,
  keyboardInQuickInput,
  pickQuickPickItem,
  pressKey,
  readQuickInput,
  runCommand,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
  webviewFrame,
} from './harness/workbench';
import { axeViolations, setColorTheme, THEMES } from './harness/axe';
import { agentPanel as findAgentPanel, newAgentSession as openAgentSession, send, waitForStatus } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, readRecords, RecordCursor, waitForRecords } from '../support/records';
import { waitUntil } from '../support/waitUntil';
import { findInFiles } from '../support/leakScan';

const SECRET = 'acp-e2e-token-7c1d9e2f';

describe('ACP agent sessions in code-server', { timeout: 900_000 }, () => {
  const record = newRecordFile();
  const lockedRecord = newRecordFile();
  const moodyRecord = newRecordFile();
  const tunerRecord = newRecordFile();
  // Each test reads only the fixture agent's records of the turns and requests it caused (after the known-editor step).
  const records = new RecordCursor(record);
  const moodyRecords = new RecordCursor(moodyRecord);
  let session: ElicitSession;

  before(async () => {
    const agents = {
      fixture: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: record, FIXTURE_NAME: 'fixture' },
      },
      locked: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: lockedRecord, FIXTURE_NAME: 'locked', REQUIRE_AUTH: '1' },
      },
      moody: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: moodyRecord, FIXTURE_NAME: 'moody', MODES: '1' },
      },
      tuner: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: tunerRecord, FIXTURE_NAME: 'tuner', CONFIG_OPTIONS: '1' },
      },
    };
    // Auto-save off, so an edit stays unsaved until the agent reads it.
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents, 'files.autoSave': 'off' });
  });

  after(async () => {
    await session?.close();
  });

  const newAgentSession = (agent: string): Promise<void> => openAgentSession(session.workbench.page, agent);
  const agentPanel = (title = 'fixture'): Promise<FrameLocator> => findAgentPanel(session.workbench.page, title);
  /** A session of its own for a test: each test starts from an editor with no tab open. */
  const freshPanel = async (agent = 'fixture'): Promise<FrameLocator> => {
    await newAgentSession(agent);
    const panel = await agentPanel(agent);
    await waitForStatus(panel, 'Ready');
    return panel;
  };
  beforeEach(() => {
    records.begin();
    moodyRecords.begin();
  });

  it('opens a session from the palette, answers the permission and the form, and the agent writes the file', async () => {
    const { page } = session.workbench;
    await newAgentSession('fixture');
    let panel = await agentPanel();
    await waitForStatus(panel, 'Ready');
    const started = await records.next((r) => r.kind === 'session');
    assert.equal(fs.realpathSync(String(started.cwd)), fs.realpathSync(session.workspaceDir));
    const init = readRecords(record).find((r) => r.kind === 'initialize')!;
    assert.deepEqual((init.clientCapabilities as { elicitation: unknown }).elicitation, { form: {}, url: {} });

    await send(panel, 'full');
    const pick = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Allow once'));
    assert.equal(pick.title, 'fixture wants permission · Write greeting.txt');
    assert.deepEqual(
      pick.items.map((i) => i.label),
      ['Allow once', 'Always allow', 'Reject', 'Always reject'],
    );
    await screenshot(page, 'acp-permission');
    await pickQuickPickItem(page, 'Allow once');
    const [permission] = await waitForRecords(record, 1, (r) => r.kind === 'permission');
    assert.deepEqual(permission!.result, { outcome: { outcome: 'selected', optionId: 'allow-once' } });

    const form = await webviewFrame(page, 'fixture asks · Write greeting.txt');
    const greeting = form.locator('.field[data-name="greeting"] input.text-input');
    await greeting.waitFor({ timeout: 30_000 });
    await greeting.fill('Howdy');
    await form.locator('.field[data-name="apiToken"] input.text-input').fill(SECRET);
    await form.getByRole('button', { name: 'Submit' }).click();
    const [answer] = await waitForRecords(record, 1, (r) => r.kind === 'form');
    assert.deepEqual(answer!.result, {
      action: 'accept',
      content: { greeting: 'Howdy', audience: 'world', apiToken: SECRET, shout: false },
    });

    const [written] = await waitForRecords(record, 1, (r) => r.kind === 'write');
    assert.ok(!('error' in written!), JSON.stringify(written));
    assert.equal(fs.readFileSync(path.join(session.workspaceDir, 'greeting.txt'), 'utf8'), 'Howdy, world!\n');

    panel = await agentPanel();
    await panel.locator('.item.turn', { hasText: 'Done' }).waitFor({ timeout: 30_000 });
    const transcript = (await panel.locator('.transcript').textContent()) ?? '';
    assert.match(transcript, /Hello from the fixture agent\.\s*A second line\./);
    assert.match(transcript, /Write greeting\.txt/);
    assert.match(transcript, /Chosen: Allow once/);
    assert.match(transcript, /Answered/);
    assert.match(transcript, /API token\s*•••••• \(secret, not shown\)/);
    assert.match(transcript, /Wrote greeting\.txt/);
    assert.ok(!transcript.includes(SECRET), 'the secret is not in the transcript');
    assert.equal(await panel.locator('.item.tool').getAttribute('data-status'), 'completed');
    await screenshot(page, 'acp-agent-panel');
  });

  // Issue #25 item 5: WCAG 2.1 A/AA (axe-core, no rule disabled, nothing excluded) in three themes.
  it('has no accessibility violation in its transcript with a permission and a question, in three themes', async () => {
    const { page } = session.workbench;
    await send(await freshPanel(), 'full');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Allow once'));
    await pickQuickPickItem(page, 'Allow once');
    const form = await webviewFrame(page, 'fixture asks · Write greeting.txt');
    await form.locator('.field[data-name="greeting"] input.text-input').fill('Hi');
    // A token saved earlier in the window is used: its field says so and takes no typing.
    const token = form.locator('.field[data-name="apiToken"] input.text-input');
    if (await token.isEnabled()) await token.fill(SECRET);
    await form.getByRole('button', { name: 'Submit' }).click();
    await records.next((r) => r.kind === 'form');
    for (const theme of THEMES) {
      await setColorTheme(page, theme);
      const panel = await agentPanel();
      await panel.locator('.item.turn', { hasText: 'Done' }).waitFor({ timeout: 30_000 });
      const transcript = (await panel.locator('.transcript').textContent()) ?? '';
      assert.match(transcript, /Chosen: Allow once/, 'the permission is in the transcript');
      assert.match(transcript, /Answered/, 'the question is in the transcript');
      const violations = await axeViolations(panel);
      assert.deepEqual(violations, [], `${theme.name}: ${JSON.stringify(violations, null, 2)}`);
    }
    await setColorTheme(page, THEMES[0]);
  });

  it('lets the agent read what the editor holds, unsaved changes included', async () => {
    const { page } = session.workbench;
    const notes = path.join(session.workspaceDir, 'notes.txt');
    fs.writeFileSync(notes, 'saved line\n');
    // From the palette, as the harness opens it: a key press landing as the theme picker closes and
    // focus goes back to the agent's panel is sometimes lost (Ctrl+P did nothing in two runs of four).
    await runCommand(page, 'Go to File...');
    const quickOpen = page.locator('.quick-input-widget .quick-input-box input');
    await quickOpen.fill('notes.txt');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'notes.txt' }).first().waitFor({ timeout: 20_000 });
    await quickOpen.press('Enter');
    const lines = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await lines.getByText('saved line').waitFor({ timeout: 20_000 });
    await lines.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('unsaved line');
    await page.keyboard.press('Escape'); // the word-completion popup
    await page.locator('.tabs-container .tab.dirty', { hasText: 'notes.txt' }).waitFor({ timeout: 10_000 });

    const panel = await freshPanel();
    await send(panel, `read ${JSON.stringify({ path: notes })}`);
    const reads = await waitForRecords(record, 1, (r) => r.kind === 'read');
    assert.deepEqual(reads.at(-1)!.result, { content: 'saved line\nunsaved line' });
    assert.equal(fs.readFileSync(notes, 'utf8'), 'saved line\n', 'reading saved nothing');
  });

  it('runs a command the agent asks for in a terminal and shows its output in the tool call', async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    const script = "console.log('built ' + 3 + ' targets'); console.error('one warning')";
    await send(panel, `terminal ${JSON.stringify({ command: process.execPath, args: ['-e', script] })}`);
    const [exit] = await waitForRecords(record, 1, (r) => r.kind === 'terminal-exit');
    assert.deepEqual(exit!.result, { exitCode: 0, signal: null });
    const terminal = panel.locator('.item.tool .terminal', { hasText: 'built 3 targets' });
    await terminal.waitFor({ timeout: 20_000 });
    await terminal.locator('.terminal-head', { hasText: 'exit code 0' }).waitFor({ timeout: 20_000 });
    assert.match((await terminal.locator('.terminal-output').textContent()) ?? '', /built 3 targets\n(.|\n)*one warning/);
    await screenshot(page, 'acp-terminal');
  });

  it("asks codex's non-blocking questions as two steps, each question on its line, Other… asking for the text", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await send(panel, 'agent-question codex-async');
    // codex's notice is the message; the question (the field's title) is on the line that stays while typing.
    const first = await waitForQuickInput(page, (q) => q.step === '1/2' && q.items.some((i) => i.label.includes('Other…')));
    assert.match(first.message ?? '', /Codex keeps working while you answer.* — Which database should the service use\?/);
    assert.deepEqual(
      first.items
        .filter((i) => !i.label.includes('Leave empty') && !i.label.includes('Decline'))
        .map((i) => i.label.replace(/^\S*\s*(?=Other)/, '')),
      ['Postgres', 'SQLite', 'Other…'],
      '"None of the above" is what Other… sends, not an option of its own',
    );
    await pickQuickPickItem(page, 'Other…');
    const box = await waitForQuickInput(page, (q) =>
      (q.message ?? '').includes('your own answer to “Which database should the service use?”'),
    );
    assert.equal(box.step, '1/2');
    await screenshot(page, 'acp-question-other');
    await typeAndSubmit(page, 'DuckDB, embedded');
    await waitForQuickInput(page, (q) => q.step === '2/2' && (q.message ?? '').includes('Should I add a migration?'));
    await pickQuickPickItem(page, 'No');
    const answer = await records.next((r) => r.kind === 'agent-question');
    assert.deepEqual(answer!.result, {
      action: 'accept',
      content: { question_0: 'None of the above', question_0_note: 'DuckDB, embedded', question_1: 'No' },
    });
  });

  it("draws claude's AskUserQuestion in a form: Other… reveals a text box named after its question, in the single- and the multi-select", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await send(panel, 'agent-question claude-ask-four');
    const form = await webviewFrame(page, 'fixture asks · tool call toolu_ask_1');
    const single = form.locator('.field[data-name="question_0"] select');
    await single.waitFor({ timeout: 30_000 });
    const customRow = form.locator('.field[data-name="question_0_custom"]');
    assert.equal(await customRow.isVisible(), false, 'the text waits until Other… is chosen');
    await chooseInDropdown(page, single, 'Other…');
    const custom = customRow.locator('input');
    await custom.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match((await customRow.locator('.field-title').textContent()) ?? '', /Your answer to “Tooling”/);
    await custom.fill('yarn');
    const multi = form.locator('.field[data-name="question_1"]');
    await multi.locator('label.checkbox-label', { hasText: 'Lint' }).click();
    await multi.locator('label.checkbox-label', { hasText: 'Other…' }).click();
    await form.locator('.field[data-name="question_1_custom"] input.text-input').fill('Format check');
    await screenshot(page, 'acp-question-other-form');
    await form.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await records.next((r) => r.kind === 'agent-question')).result, {
      action: 'accept',
      content: { question_0_custom: 'yarn', question_1: ['Lint'], question_1_custom: 'Format check' },
    });
  });

  it('keeps a permission prompt through an Escape in its first moment; Stop sends session/cancel and closes it as cancelled', async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await send(panel, 'permission-wait');
    // An Escape meant for what was on screen before (the panel) as the prompt appears does not cancel it.
    const title = 'fixture wants permission · Delete the build folder';
    await glimpseQuickInput(page, (q) => q.title === title);
    await pressKey(page, 'Escape');
    await page.waitForTimeout(1_000);
    assert.equal((await readQuickInput(page))?.title, title, 'the prompt is still shown');
    assert.deepEqual(
      records.unread((r) => r.kind === 'permission'),
      [],
      'nothing was answered',
    );
    await waitForQuickInput(page, (q) => q.title === title);
    await panel.locator('button.stop').click();
    assert.deepEqual((await records.next((r) => r.kind === 'permission')).result, { outcome: { outcome: 'cancelled' } });
    await records.next((r) => r.kind === 'cancel-received');
    await panel.locator('.item.turn', { hasText: 'Stopped' }).waitFor({ timeout: 20_000 });
    await waitForNoQuickInput(page, 'the permission prompt to close');
  });

  it("shows a crash with the agent's stderr and restarts the agent on Restart", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    records.skip((r) => r.kind === 'session');
    await send(panel, 'crash');
    const banner = panel.locator('.error-banner');
    await banner.getByText(/fixture exited with code 3/).waitFor({ timeout: 30_000 });
    assert.match((await banner.textContent()) ?? '', /crashing now/);
    await screenshot(page, 'acp-agent-crashed');
    await panel.locator('button.restart').click();
    await waitForStatus(panel, 'Ready');
    await records.next((r) => r.kind === 'session');
    await send(panel, 'echo back again');
    await panel.locator('.item.agent', { hasText: 'back again' }).waitFor({ timeout: 20_000 });
  });

  it('keeps the agent list open when the keyboard goes to an agent panel; the person comes back to it and picks', async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await runCommand(page, 'Elicit: New Agent Session');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'moody'));
    // The keyboard leaves the list for a webview, as when a panel whose page loads late takes it.
    await panel.locator('textarea.prompt').click();
    await waitUntil(async () => !(await keyboardInQuickInput(page)), 'the keyboard to leave the agent list');
    await page.waitForTimeout(700);
    const still = await readQuickInput(page);
    assert.ok(
      still?.items.some((i) => i.label === 'moody'),
      'the agent list is still on screen',
    );
    await pickQuickPickItem(page, 'moody');
    await waitForStatus(await agentPanel('moody'), 'Ready');
  });

  it('asks how to sign in when the agent requires it, says when a way fails, then opens the session', async () => {
    const { page } = session.workbench;
    await newAgentSession('locked');
    const pick = await waitForQuickInput(page, (q) => q.title === 'locked asks you to sign in');
    // Elicit declares auth.terminal, so the agent offers its terminal login too.
    assert.deepEqual(
      pick.items.map((i) => i.label),
      ['Sign in with a fixture token', 'Refused sign-in', 'Use FIXTURE_API_KEY', 'Terminal login'],
    );
    assert.deepEqual(
      pick.items.map((i) => i.description),
      ['the agent signs in', 'the agent signs in', 'asks for FIXTURE_API_KEY', 'opens a terminal'],
    );
    await pickQuickPickItem(page, 'Refused sign-in');
    await waitForQuickInput(
      page,
      (q) => q.title === 'locked asks you to sign in' && q.placeholder?.includes('Refused sign-in failed') === true,
    );
    await screenshot(page, 'acp-sign-in');
    await pickQuickPickItem(page, 'Sign in with a fixture token');
    const panel = await agentPanel('locked');
    await waitForStatus(panel, 'Ready');
    await panel.getByText('Signed in to locked (Sign in with a fixture token).').waitFor({ timeout: 10_000 });
    const kinds = readRecords(lockedRecord).map((r) => (r.kind === 'authenticate' ? `authenticate ${String(r.methodId)}` : r.kind));
    assert.deepEqual(kinds, ['initialize', 'auth-required', 'authenticate fixture-refuse', 'authenticate fixture-token', 'session']);
  });

  it("shows the session's modes and switches them with session/set_mode; a refused switch snaps back", async () => {
    const { page } = session.workbench;
    await newAgentSession('moody');
    const panel = await agentPanel('moody');
    await waitForStatus(panel, 'Ready');
    const select = panel.locator('.mode-picker select');
    await select.waitFor({ timeout: 10_000 });
    assert.deepEqual(await select.locator('option').allTextContents(), ['Ask', 'Code', 'Architect']);
    assert.equal(await select.inputValue(), 'ask');
    const [opened] = await waitForRecords(moodyRecord, 1, (r) => r.kind === 'session');

    await select.selectOption('code');
    const [switched] = await waitForRecords(moodyRecord, 1, (r) => r.kind === 'set-mode');
    assert.deepEqual([switched!.sessionId, switched!.modeId], [opened!.sessionId, 'code']);
    await panel.locator('.item.notice', { hasText: 'Mode: Code.' }).waitFor({ timeout: 10_000 });
    assert.equal(await select.inputValue(), 'code');

    await select.selectOption('architect');
    await waitForRecords(moodyRecord, 2, (r) => r.kind === 'set-mode');
    await panel
      .locator('.item.notice.warning', {
        hasText: 'moody did not switch to Architect: Internal error: the Architect mode is not available in this workspace',
      })
      .waitFor({ timeout: 10_000 });
    await waitUntil(async () => (await select.inputValue()) === 'code', 'the menu to go back to the mode in force');

    // The agent switches by itself: the menu follows.
    await send(panel, 'mode ask');
    await panel.locator('.item.notice', { hasText: 'moody switched to the Ask mode.' }).waitFor({ timeout: 10_000 });
    assert.equal(await select.inputValue(), 'ask');
    await screenshot(page, 'acp-modes');
  });

  it("offers the agent's slash commands as completions after /", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel('moody');
    moodyRecords.skip((r) => r.kind === 'prompt');
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill('');
    await prompt.pressSequentially('/');
    const menu = panel.locator('.command-menu');
    await menu.waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepEqual(await menu.locator('.command-name').allTextContents(), ['/review', '/init', '/compact']);
    assert.deepEqual(await menu.locator('.command-hint').allTextContents(), ['what to focus on']);
    await screenshot(page, 'acp-commands');
    await prompt.pressSequentially('co');
    assert.deepEqual(await menu.locator('.command-name').allTextContents(), ['/compact']);
    await prompt.press('Escape');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 });
    await prompt.fill('');
    await prompt.pressSequentially('/re');
    await prompt.press('Tab');
    assert.equal(await prompt.inputValue(), '/review ');
    await prompt.pressSequentially('the tests');
    await prompt.press('Enter');
    assert.equal((await moodyRecords.next((r) => r.kind === 'prompt')).text, '/review the tests');
    await panel.locator('.item.agent', { hasText: 'Running the command /review (the tests).' }).waitFor({ timeout: 10_000 });
  });

  it("shows the session's config options as labelled drop-downs and a checkbox (a boolean); a change goes to session/set_config_option, a refused one says so and shows the value in force; no accessibility violation", async () => {
    const { page } = session.workbench;
    await newAgentSession('tuner');
    const panel = await agentPanel('tuner');
    await waitForStatus(panel, 'Ready');
    const options = panel.locator('.config-options');
    await options.waitFor({ timeout: 10_000 });
    assert.deepEqual(await options.locator('.config-label').allTextContents(), ['Model', 'Reasoning effort']);
    const model = options.locator('.config-option[data-config-id="model"]');
    const effort = options.locator('.config-option[data-config-id="reasoning_effort"]');
    assert.equal(await model.getAttribute('data-current'), 'sol');
    const [opened] = await waitForRecords(tunerRecord, 1, (r) => r.kind === 'session');

    await model.locator('vscode-single-select').click();
    await model.getByRole('option', { name: 'Luna' }).click();
    const [changed] = await waitForRecords(tunerRecord, 1, (r) => r.kind === 'set-config-option');
    assert.deepEqual([changed!.sessionId, changed!.configId, changed!.value], [opened!.sessionId, 'model', 'luna']);
    await panel.locator('.item.notice', { hasText: 'Model: Luna.' }).waitFor({ timeout: 10_000 });
    await options.locator('.config-option[data-config-id="model"][data-current="luna"]').waitFor({ timeout: 10_000 });

    await effort.locator('vscode-single-select').click();
    await effort.getByRole('option', { name: 'Max' }).click();
    await waitForRecords(tunerRecord, 2, (r) => r.kind === 'set-config-option');
    await panel
      .locator('.item.notice.warning', {
        hasText:
          'tuner did not set Reasoning effort to Max: Internal error: the Max effort is not available for this model. It is still Low.',
      })
      .waitFor({ timeout: 10_000 });
    await effort.locator('.config-error', { hasText: 'the Max effort is not available for this model' }).waitFor({ timeout: 10_000 });
    await waitUntil(
      async () => (await effort.locator('vscode-single-select').evaluate((e) => (e as HTMLElement & { value: string }).value)) === 'low',
      'the drop-down to go back to the value in force',
    );
    assert.equal(await effort.getAttribute('data-current'), 'low');

    // Fast mode, a boolean option (Elicit advertises them): a labelled checkbox, toggled from the keyboard.
    const fast = options.locator('.config-option[data-config-id="fast"]');
    const box = fast.locator('vscode-checkbox');
    const checked = (): Promise<boolean> => box.evaluate((e) => (e as HTMLElement & { checked: boolean }).checked);
    assert.equal(await fast.getByRole('checkbox', { name: 'Fast mode' }).count(), 1, 'the checkbox is named by its label');
    assert.equal(await checked(), false);
    await box.focus();
    await page.keyboard.press('Space');
    // With Luna the agent refuses it: the box shows the value still in force.
    const refused = (await waitForRecords(tunerRecord, 3, (r) => r.kind === 'set-config-option'))[2]!;
    assert.deepEqual([refused.configId, refused.type, refused.value], ['fast', 'boolean', true]);
    await panel
      .locator('.item.notice.warning', {
        hasText: 'tuner did not set Fast mode to On: Internal error: Fast mode is not available for Luna. It is still Off.',
      })
      .waitFor({ timeout: 10_000 });
    await fast.locator('.config-error', { hasText: 'Fast mode is not available for Luna' }).waitFor({ timeout: 10_000 });
    await waitUntil(async () => !(await checked()), 'the checkbox to go back to the value in force');
    assert.equal(await fast.getAttribute('data-current'), 'false');
    // Back on Sol, the agent takes it.
    await model.locator('vscode-single-select').click();
    await model.getByRole('option', { name: 'Sol' }).click();
    await options.locator('.config-option[data-config-id="model"][data-current="sol"]').waitFor({ timeout: 10_000 });
    await box.click();
    const taken = (await waitForRecords(tunerRecord, 5, (r) => r.kind === 'set-config-option'))[4]!;
    assert.deepEqual([taken.configId, taken.type, taken.value], ['fast', 'boolean', true]);
    await panel.locator('.item.notice', { hasText: 'Fast mode: On.' }).waitFor({ timeout: 10_000 });
    await options.locator('.config-option[data-config-id="fast"][data-current="true"]').waitFor({ timeout: 10_000 });
    assert.equal(await checked(), true);
    await screenshot(page, 'acp-config-options');

    for (const theme of THEMES) {
      await setColorTheme(page, theme);
      const violations = await axeViolations(await agentPanel('tuner'));
      assert.deepEqual(violations, [], `${theme.name}: ${JSON.stringify(violations, null, 2)}`);
    }
    await setColorTheme(page, THEMES[0]);
  });

  it("shows the agent's own timer as a countdown after the quick input's title, the question kept on its line; the agent's cancel closes it", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await send(panel, 'agent-question-timed codex-blocking 12000');
    const first = await waitForQuickInput(page, (q) => /fixture answers for you in 0:1\d \(its own timer\)$/.test(q.title ?? ''));
    assert.match(first.message ?? first.placeholder ?? '', /What should I do next\?/);
    // The panel's card for the question counts the same timer down.
    const card = panel.locator('.item.question').last();
    assert.match((await card.locator('.countdown').textContent()) ?? '', /^The agent answers for you in 0:\d\d \(its own timer\)$/);
    const later = await waitForQuickInput(page, (q) => q.title !== first.title && /answers for you in 0:\d\d/.test(q.title ?? ''), 5_000);
    assert.ok(later.title !== first.title, 'the countdown moves');
    // The card's line is not read out every second; its own polite region tells screen readers.
    assert.equal(await card.locator('.countdown').getAttribute('aria-live'), 'off');
    assert.match((await card.locator('[role="status"][aria-live="polite"]').textContent()) ?? '', /^The agent answers for you in 0:\d\d/);
    await screenshot(page, 'acp-question-countdown');
    // The fixture, as codex-acp 2.6 does when its timer runs out, cancels its request: the question closes.
    assert.deepEqual((await records.next((r) => r.kind === 'agent-question', 30_000)).result, { action: 'cancel' });
    await waitForNoQuickInput(page, 'the question to close when the agent gave up');
    await card.locator('.outcome', { hasText: 'Cancelled' }).waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('.countdown, [role="status"]').count(), 0, 'no countdown once the question is closed');
  });

  it("shows the agent's own timer as a countdown under the form's title; the agent's cancel closes the form", async () => {
    const { page } = session.workbench;
    const panel = await freshPanel();
    await send(panel, 'agent-question-timed claude-ask-four 15000');
    const form = await webviewFrame(page, 'fixture asks · tool call toolu_ask_1');
    const countdown = form.locator('.countdown');
    await countdown.waitFor({ timeout: 30_000 });
    const first = (await countdown.textContent()) ?? '';
    assert.match(first, /^fixture answers for you in 0:1\d \(its own timer\)$/);
    await waitUntil(async () => ((await countdown.textContent()) ?? '') !== first, 'the countdown to move');
    // Told to screen readers through a polite region of its own, not the line that changes every second.
    assert.equal(await countdown.getAttribute('aria-live'), 'off');
    assert.match((await form.locator('.header [role="status"][aria-live="polite"]').textContent()) ?? '', /fixture answers for you in/);
    assert.deepEqual(await axeViolations(form), []);
    assert.deepEqual((await records.next((r) => r.kind === 'agent-question', 30_000)).result, { action: 'cancel' });
    await panel.locator('.item.question .outcome', { hasText: 'Cancelled' }).last().waitFor({ timeout: 10_000 });
  });

  it('never writes the secret into any file VS Code or the extension wrote', async () => {
    const hits = findInFiles([session.server.userDataDir, session.server.extensionsDir, session.workspaceDir], SECRET);
    assert.deepEqual(hits, [], `the secret leaked into: ${hits.join(', ')}`);
  });
});
