/**
 * A server's own app for a question (draft SEP-3118, MCP Apps) in a real VS Code,
 * with `elicit.experimental.appQuestions` on: a question answered in the server's
 * app in the form's tab; the same question answered in Elicit's own form, one click
 * away on the tab's title bar; and a hostile app whose attacks (fetch and an image
 * to a listener on this machine, top.location, the parent's and top's documents, the
 * webview's API, a tools/call) all fail, and whose answer outside the schema is
 * refused: nothing of it reaches the server, and the person answers in Elicit's form.
 * Above every app, outside its frame, Elicit's own strip (issue #57, findings 5 and 8)
 * says who asks, that the page is the server's and not Elicit's, which sites the app
 * may reach, and holds Elicit's Decline, Later and Cancel: its Decline reaches the server.
 * The server is written with the official v2 SDK (app-server.mjs) and records what it
 * received.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { chooseInDropdown, clickAtPersonsPace, runMcpTool, screenshot, waitForRenderedText, webviewFrame } from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';

const PICK = 'palette asks · tool pick_color';
const HOSTILE = 'palette asks · tool hostile_pick';

describe('app questions in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;
  /** What reached the listener the hostile app tries to leak to. */
  const leaks: string[] = [];
  const listener = http.createServer((req, res) => {
    leaks.push(req.url ?? '');
    res.setHeader('access-control-allow-origin', '*');
    res.end('leaked');
  });

  before(async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const leakUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/leak`;
    const mcpJson = {
      servers: { palette: fixtureServer('app-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'palette', LEAK_URL: leakUrl }) },
    };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.experimental.appQuestions': true });
  });

  after(async () => {
    await session?.close();
    listener.close();
  });

  const page = (): Page => session.workbench.page;
  const answers = (tool: string): Array<Record<string, unknown>> => readRecords(record).filter((r) => r.tool === tool);

  /** The app, once it has been asked the question (it marks its page so). */
  async function appFrame(title: string): Promise<FrameLocator> {
    // The tab's page is Elicit's host page; the app is in its sandboxed frame.
    const frame = (await webviewFrame(page(), title)).frameLocator('iframe[title="App"]');
    await frame.locator('body[data-asked="yes"]').waitFor({ timeout: 30_000 });
    return frame;
  }

  /** Elicit's own form for the color question: the color chosen, Submit, and the server's reply shown. */
  async function answerInForm(form: FrameLocator, color: string): Promise<void> {
    await chooseInDropdown(page(), form.locator('.field[data-name="0:color"] select'), color);
    await form.getByRole('button', { name: 'Submit' }).click();
    await waitForRenderedText(page(), `Painted it ${color}.`);
  }

  it("answers a question in the server's own app, shown in the question's tab", async () => {
    const before = answers('pick_color').length;
    await runMcpTool(page(), 'pick_color');
    const app = await appFrame(PICK);
    assert.equal(await app.locator('body').getAttribute('data-host'), 'Elicit', 'the bridge said who hosts it');
    assert.equal(await app.locator('#message').textContent(), 'Which color should the chorus be?');
    await screenshot(page(), 'app-question');
    await clickAtPersonsPace(page(), app.getByRole('button', { name: 'Green' }));
    await waitForRenderedText(page(), 'Painted it green.');
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'pick_color')).slice(-1);
    assert.deepEqual([entry!.declared, entry!.action, entry!.content], [true, 'accept', { color: 'green' }]);
  });

  it("answers the same question in Elicit's own form, one click away on the tab's title bar, and back", async () => {
    const before = answers('pick_color').length;
    await runMcpTool(page(), 'pick_color');
    await appFrame(PICK);
    await clickAtPersonsPace(page(), page().locator('.editor-actions .action-label[aria-label="Answer in Elicit\'s Form"]'));
    let form = await webviewFrame(page(), PICK);
    const showApp = form.getByRole('button', { name: "Show palette's App" });
    await showApp.waitFor({ timeout: 20_000 });
    // And back to the app, then to the form again: neither loses the question.
    await clickAtPersonsPace(page(), showApp);
    await appFrame(PICK);
    await clickAtPersonsPace(page(), page().locator('.editor-actions .action-label[aria-label="Answer in Elicit\'s Form"]'));
    form = await webviewFrame(page(), PICK);
    await answerInForm(form, 'blue');
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'pick_color')).slice(-1);
    assert.deepEqual([entry!.action, entry!.content], ['accept', { color: 'blue' }]);
  });

  it("shows Elicit's strip above the app, outside its frame, and the strip's Decline reaches the server", async () => {
    const before = answers('pick_color').length;
    await runMcpTool(page(), 'pick_color');
    await appFrame(PICK);
    const tab = await webviewFrame(page(), PICK);
    const strip = tab.locator('#elicit-strip');
    await strip.waitFor({ state: 'visible' });
    assert.equal(await strip.locator('.who').textContent(), PICK);
    assert.match(
      (await strip.locator('.notice').textContent()) ?? '',
      /^The page below is palette's own, not Elicit's: what you type in it goes to palette\./,
    );
    assert.equal(await strip.locator('.reach').textContent(), 'It may reach: https://api.palette.example', 'the declared domains, shown');
    for (const name of ["Answer in Elicit's Form", 'Decline', 'Later', 'Cancel']) {
      assert.ok(await strip.getByRole('button', { name, exact: true }).isVisible(), `${name} is shown`);
    }
    // Outside the app's frame: the strip ends where the frame begins, and the frame fills the rest of the tab.
    const stripBox = await strip.boundingBox();
    const frameBox = await tab.locator('iframe[title="App"]').boundingBox();
    assert.ok(stripBox && frameBox, 'both on screen');
    assert.ok(
      stripBox.y + stripBox.height <= frameBox.y + 1,
      `the strip (${JSON.stringify(stripBox)}) is above the frame (${JSON.stringify(frameBox)})`,
    );
    await screenshot(page(), 'app-question-strip');
    await clickAtPersonsPace(page(), strip.getByRole('button', { name: 'Decline', exact: true }));
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'pick_color')).slice(-1);
    assert.deepEqual([entry!.action, entry!.content], ['decline', undefined]);
    await waitForRenderedText(page(), 'No color: the person chose decline.');
  });

  it('a hostile app reaches nothing, and its answer outside the schema never reaches the server', async () => {
    const before = answers('hostile_pick').length;
    const workbenchUrl = page().url();
    await runMcpTool(page(), 'hostile_pick');
    const app = await appFrame(HOSTILE);
    const report = await app.locator('#report li').allTextContents();
    await screenshot(page(), 'app-question-hostile');
    assert.deepEqual(report, [
      'fetch: blocked',
      'image: blocked',
      'top.location: blocked SecurityError',
      'top.document: blocked SecurityError',
      'parent.document: blocked SecurityError',
      'vscode api: refused',
      'tools/call: refused',
    ]);
    assert.deepEqual(leaks, [], 'nothing reached the listener');
    assert.equal(page().url(), workbenchUrl, 'the workbench was not navigated');
    // Elicit's strip is still there, as Elicit wrote it: the app could not reach it.
    const strip = (await webviewFrame(page(), HOSTILE)).locator('#elicit-strip');
    assert.match((await strip.locator('.notice').textContent()) ?? '', /^The page below is palette's own, not Elicit's/);
    assert.equal(await strip.locator('.reach').textContent(), 'It may reach no site.');
    await clickAtPersonsPace(page(), app.getByRole('button', { name: 'Claim purple' }));
    // Refused as a typed answer would be: Elicit's form says why, and nothing was sent.
    const form = await webviewFrame(page(), HOSTILE);
    const note = form.locator('.app-note');
    await note.waitFor({ timeout: 20_000 });
    assert.match((await note.textContent()) ?? '', /palette's app gave an answer that does not fit the question .*Nothing was sent/);
    assert.equal(answers('hostile_pick').length, before, 'the server has no answer yet');
    await answerInForm(form, 'red');
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'hostile_pick')).slice(-1);
    assert.deepEqual([entry!.action, entry!.content], ['accept', { color: 'red' }]);
    assert.deepEqual(leaks, [], 'still nothing leaked');
  });
});
