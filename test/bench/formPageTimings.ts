/**
 * The form page alone, in the test Chromium with no VS Code around it: the production
 * `dist/webview/form.js` written into a page as Elicit writes it (webviewShell.ts), with a stand-in
 * for VS Code's webview API that hands over server-everything's form as soon as the page says
 * `ready`. Timed on the page's clock, median of PAGES fresh loads:
 * - formPageReadyMs: navigation start → the page says `ready` (its script parsed and run);
 * - formPagePaintMs: the `show` message → that form built and painted (the next frame after it).
 * VS Code's own work (its webview page, the extension host) is not in these figures: they are what
 * Elicit's page costs by itself, steadier than formColdMs on a shared machine.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { normalize } from '../../src/core/form/normalize';
import { initialValues } from '../../src/core/form/formState';
import type { FormView } from '../../src/core/protocols/formProtocol';

const PAGES = 15;

export interface FormPageTimings {
  formPageReadyMs: number;
  formPagePaintMs: number;
  samples: number;
}

interface Marks {
  ready?: number;
  show?: number;
  painted?: number;
}

export async function measureFormPage(root: string, pages = PAGES): Promise<FormPageTimings> {
  const schema: unknown = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'everything-schema.json'), 'utf8'));
  const form = normalize(schema);
  const view: FormView = {
    questionId: 1,
    title: 'Bench',
    message: 'Please provide inputs for the following fields:',
    form,
    initial: initialValues(form),
  };
  const script = fs.readFileSync(path.join(root, 'dist', 'webview', 'form.js'), 'utf8');
  // The stand-in API: `show` goes out in a task of its own after `ready`, as VS Code's message would.
  const api = `
window.__marks = {};
window.acquireVsCodeApi = () => ({
  postMessage(message) {
    if (!message || message.type !== 'ready' || window.__marks.ready !== undefined) return;
    window.__marks.ready = performance.now();
    setTimeout(() => {
      window.__marks.show = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'show', view: ${JSON.stringify(view).replace(/</g, '\\u003c')} } }));
      requestAnimationFrame(() => setTimeout(() => (window.__marks.painted = performance.now()), 0));
    }, 0);
  },
  getState: () => undefined,
  setState: () => undefined,
});`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-bench-page-'));
  const file = path.join(dir, 'form.html');
  fs.writeFileSync(
    file,
    `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Question</title></head>
<body><main id="app" aria-busy="true"></main><script>${api}</script><script type="module">${script}</script></body></html>`,
  );
  const browser = await chromium.launch({ executablePath: process.env.ELICIT_E2E_CHROMIUM ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    const samples: Required<Marks>[] = [];
    for (let i = 0; i < pages; i++) {
      await page.goto(`file://${file}`);
      await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.painted !== undefined);
      samples.push(await page.evaluate(() => (window as unknown as { __marks: Required<Marks> }).__marks));
    }
    return {
      formPageReadyMs: median(samples.map((s) => s.ready)),
      formPagePaintMs: median(samples.map((s) => s.painted - s.show)),
      samples: samples.length,
    };
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
