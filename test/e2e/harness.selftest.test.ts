// Self-test of the e2e harness: builds a tiny throwaway extension, installs it into a
// real code-server and drives an InputBox, a multi-select QuickPick, a notification
// and a webview through the harness helpers.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot, startCodeServer, type CodeServer } from './harness/codeServer';
import {
  CONTEXT_MENU_ITEM,
  chooseContextMenuItem,
  openWorkbench,
  pickQuickPickItem,
  pressKey,
  readQuickInput,
  runCommand,
  screenshot,
  typeAndSubmit,
  typeText,
  waitForNotification,
  waitForQuickInput,
  webviewFrame,
  workbenchState,
  type Workbench,
} from './harness/workbench';
import { waitForFile } from '../support/waitUntil';

const execFileAsync = promisify(execFile);

const extensionJs = `
const vscode = require('vscode');
const fs = require('fs');
// Written whole under a temporary name, then renamed: the test never reads a half-written file.
const out = (suffix, text) => {
  const file = process.env.HARNESS_OUT + suffix;
  fs.writeFileSync(file + '.tmp', text);
  fs.renameSync(file + '.tmp', file);
};
exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('harness.ask', async () => {
      const answer = await vscode.window.showInputBox({
        title: 'Harness question',
        prompt: 'Type a word',
        validateInput: (v) => (v.includes(' ') ? 'No spaces please' : undefined),
      });
      out('', answer ?? '<cancelled>');
      vscode.window.showInformationMessage('Harness got ' + answer);
    }),
    vscode.commands.registerCommand('harness.pick', () => {
      const qp = vscode.window.createQuickPick();
      Object.assign(qp, { title: 'Harness pick', step: 2, totalSteps: 3, canSelectMany: true, placeholder: 'Pick fruits' });
      qp.items = [{ label: 'Apple', description: 'red', detail: 'A crunchy fruit' }, { label: 'Banana' }, { label: 'Cherry' }];
      qp.selectedItems = [qp.items[1]];
      qp.onDidAccept(() => { out('.pick', qp.selectedItems.map((i) => i.label).join(',')); qp.hide(); });
      qp.show();
    }),
    vscode.commands.registerCommand('harness.webview', () => {
      const panel = vscode.window.createWebviewPanel('harnessView', 'Harness View', vscode.ViewColumn.One, { enableScripts: true });
      panel.webview.onDidReceiveMessage((m) => out('.webview', String(m)));
      panel.webview.html = '<button id="b" onclick="acquireVsCodeApi().postMessage(\\'clicked\\')">Press</button>';
    }),
    vscode.commands.registerCommand('harness.menu', (uri) => out('.menu', uri ? require('path').basename(uri.fsPath) : '<none>')),
  );
};
`;

const commands = [
  ['harness.ask', 'Ask'],
  ['harness.pick', 'Pick'],
  ['harness.webview', 'Webview'],
  ['harness.menu', 'Menu Choice'],
] as const;

const manifest = {
  name: 'harness-selftest',
  publisher: 'elicit-e2e',
  version: '0.0.1',
  engines: { vscode: '^1.101.0' },
  main: './extension.js',
  activationEvents: commands.map(([id]) => `onCommand:${id}`),
  contributes: {
    commands: commands.map(([command, title]) => ({ command, title, category: 'Harness' })),
    menus: { 'explorer/context': [{ command: 'harness.menu', group: 'navigation@0' }] },
  },
};

async function buildVsix(dir: string): Promise<string> {
  const extDir = path.join(dir, 'ext');
  await fs.promises.mkdir(extDir, { recursive: true });
  await fs.promises.writeFile(path.join(extDir, 'package.json'), JSON.stringify(manifest, null, 2));
  await fs.promises.writeFile(path.join(extDir, 'extension.js'), extensionJs);
  await fs.promises.writeFile(path.join(extDir, 'README.md'), '# Harness self-test extension\n');
  const vsix = path.join(dir, 'h.vsix');
  const vsce = path.join(repoRoot, 'node_modules', '.bin', 'vsce');
  await execFileAsync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], {
    cwd: extDir,
  });
  return vsix;
}

let tmp: string;
let out: string;
let server: CodeServer | undefined;
let wb: Workbench | undefined;

before(
  async () => {
    tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'elicit-e2e-selftest-'));
    const workspaceDir = path.join(tmp, 'workspace');
    await fs.promises.mkdir(workspaceDir);
    await fs.promises.writeFile(path.join(workspaceDir, 'notes.txt'), 'a file to right-click\n');
    out = path.join(tmp, 'answer.txt');
    const vsix = await buildVsix(tmp);
    server = await startCodeServer({ vsixPaths: [vsix], workspaceDir, env: { HARNESS_OUT: out } });
    wb = await openWorkbench(server.url);
  },
  { timeout: 10 * 60_000 },
); // first run may have to install code-server

after(async () => {
  await wb?.close();
  await server?.stop();
  await server?.removeDirs();
  if (tmp) await fs.promises.rm(tmp, { recursive: true, force: true });
});

test('InputBox round trip: title, prompt, validation, answer, notification', { timeout: 120_000 }, async () => {
  const page = wb!.page;
  await runCommand(page, 'Harness: Ask');
  const q = await waitForQuickInput(page, (s) => s.title === 'Harness question');
  assert.equal(q.message, 'Type a word');
  assert.deepEqual(q.items, []);
  await typeText(page, 'two words');
  await waitForQuickInput(page, (s) => s.message === 'No spaces please');
  await screenshot(page, 'harness-selftest-inputbox');
  await typeAndSubmit(page, 'hello');
  assert.equal(await waitForFile(out), 'hello');
  await waitForNotification(page, 'Harness got hello');
  assert.equal(await readQuickInput(page), undefined);
});

test('multi-select QuickPick: step, items, checkboxes', { timeout: 120_000 }, async () => {
  const page = wb!.page;
  await runCommand(page, 'Harness: Pick');
  const q = await waitForQuickInput(page, (s) => s.title === 'Harness pick');
  assert.equal(q.step, '2/3');
  assert.equal(q.placeholder, 'Pick fruits');
  assert.deepEqual(q.items, [
    { label: 'Apple', description: 'red', detail: 'A crunchy fruit', checked: false },
    { label: 'Banana', checked: true },
    { label: 'Cherry', checked: false },
  ]);
  await pickQuickPickItem(page, 'Apple'); // toggles its checkbox in a multi-select pick
  await waitForQuickInput(page, (s) => s.items.find((i) => i.label === 'Apple')?.checked === true);
  await screenshot(page, 'harness-selftest-quickpick');
  await pressKey(page, 'Enter');
  assert.equal(await waitForFile(`${out}.pick`), 'Apple,Banana');
});

test('webview content is reachable', { timeout: 120_000 }, async () => {
  const page = wb!.page;
  await runCommand(page, 'Harness: Webview');
  await (await webviewFrame(page)).locator('#b').click();
  assert.equal(await waitForFile(`${out}.webview`), 'clicked');
});

test('context menu: the item is chosen, and an open menu is named in the workbench state', { timeout: 120_000 }, async () => {
  const page = wb!.page;
  await runCommand(page, 'View: Show Explorer');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes.txt' }).click({ button: 'right' });
  const label = 'Menu Choice';
  await page.locator(CONTEXT_MENU_ITEM, { hasText: label }).waitFor();
  const { menu } = await workbenchState(page);
  assert.ok(Array.isArray(menu) && menu.includes(label), JSON.stringify(menu));
  await chooseContextMenuItem(page, label);
  assert.equal(await waitForFile(`${out}.menu`), 'notes.txt');
  assert.deepEqual((await workbenchState(page)).menu, []);
});
