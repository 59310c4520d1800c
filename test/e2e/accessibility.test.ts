/**
 * axe-core, WCAG 2.1 A and AA, no rule disabled and no element excluded, on the form webview in
 * Dark Modern, Light Modern and Dark High Contrast (issue #25 item 5): the full server-everything
 * form, and a corpus of every field kind with and without a title, a description, a default and
 * `required` (issue #34 item 2, test/fixtures/questions.mjs), in a real VS Code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { runMcpTool, webviewFrame } from './harness/workbench';
import { axeViolations, setColorTheme, THEMES } from './harness/axe';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile } from '../support/records';

describe('accessibility of the form webview (axe-core, WCAG 2.1 AA) in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), {});
  });

  after(async () => {
    await session?.close();
  });

  for (const theme of THEMES) {
    it(`finds no violation in the server-everything form in ${theme.name}`, async () => {
      const { page } = session.workbench;
      await setColorTheme(page, theme);
      await runMcpTool(page, 'ask_everything');
      const form = await webviewFrame(page, 'ask-server asks · tool ask_everything');
      await form.locator('.field[data-name="name"] input.text-input').waitFor({ timeout: 30_000 });
      // "Remember this answer" beside Submit (issue #22) is part of what is checked.
      await form.locator('footer select.remember').waitFor();
      const violations = await axeViolations(form);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
      await cancel(form, 'ask-server asks · tool ask_everything');
    });

    it(`finds no violation in any field kind, with or without title, description, default and required, in ${theme.name}`, async () => {
      const { page } = session.workbench;
      await setColorTheme(page, theme);
      // The three parts of the corpus, then the seeds' widgets: a slider, stars, a row, previews.
      for (const tool of ['ask_corpus_1', 'ask_corpus_2', 'ask_corpus_3', 'ask_clip_review']) {
        await runMcpTool(page, tool);
        const form = await webviewFrame(page, `ask-server asks · tool ${tool}`);
        await form.locator('footer button').first().waitFor({ timeout: 30_000 });
        const fields = await form.locator('.field').count();
        assert.ok(fields >= (tool === 'ask_clip_review' ? 4 : 72), `${tool}: ${fields} fields drawn`);
        const violations = await axeViolations(form);
        assert.deepEqual(violations, [], `${tool}, ${theme.name}: ${JSON.stringify(violations, null, 2)}`);
        await cancel(form, `ask-server asks · tool ${tool}`);
      }
    });
  }

  async function cancel(form: FrameLocator, title: string): Promise<void> {
    await form.getByRole('button', { name: 'Cancel' }).click();
    // The next theme is picked once the form's tab has closed, so closing it takes no focus from the picker.
    await session.workbench.page.locator('.tabs-container .tab', { hasText: title }).waitFor({ state: 'detached', timeout: 20_000 });
  }
});
