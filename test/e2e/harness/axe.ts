/**
 * axe-core (WCAG 2.1 A and AA) run inside a webview's own document, as a screen reader user would meet
 * it: the script is evaluated in the frame through the debugging protocol, which the webview's CSP
 * does not govern, and nothing of the page is excluded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { pickQuickPickItem, runCommandShowing } from './workbench';

const axeSource = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

async function frameOf(locator: FrameLocator): Promise<Frame> {
  const frame = await (await locator.owner().elementHandle())?.contentFrame();
  if (!frame) throw new Error('the webview has no document yet');
  return frame;
}

/** Every violation of the WCAG 2.1 A/AA rules in the webview's document, each with the elements it names. */
export async function axeViolations(webview: FrameLocator): Promise<AxeViolation[]> {
  return axeViolationsIn(await frameOf(webview));
}

/** The same for a document of its own: a page, or a frame already found. */
export async function axeViolationsIn(frame: Frame): Promise<AxeViolation[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  return frame.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: unknown[]; failureSummary?: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  }, WCAG_TAGS);
}

export const THEMES = [
  { name: 'Dark Modern', workbenchClass: 'vs-dark' },
  { name: 'Light Modern', workbenchClass: 'vs' },
  { name: 'Dark High Contrast', workbenchClass: 'hc-black' },
] as const;

/** Switches the color theme the way a person does (Preferences: Color Theme, then the theme's row), and waits until it applies. */
export async function setColorTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  // The picker closes when focus moves (an editor closing just before, on a loaded machine): open it again then.
  for (let attempt = 1; ; attempt++) {
    try {
      // Only the rows in view are drawn: pickQuickPickItem filters for a theme further down.
      await runCommandShowing(page, 'Preferences: Color Theme', (q) => q.placeholder?.startsWith('Select Color Theme') === true);
      await pickQuickPickItem(page, theme.name, 10_000);
      await page.waitForFunction(
        (cls) => document.querySelector('.monaco-workbench')?.classList.contains(cls) === true,
        theme.workbenchClass,
        {
          timeout: 10_000,
        },
      );
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
