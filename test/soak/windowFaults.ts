/**
 * The soak's faults of the editor itself (issue #37): Reload Window while questions are open (and,
 * once a run, while a round of a tool the person ran is kept), and a second window opened and closed
 * while the first one works.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { isAlive } from '../support/mcpServers';
import { waitUntil } from '../support/waitUntil';
import { openKeptRound } from './editor';
import type { LedgerEvent } from './ledger';
import { readSoakLog } from './soakLog';

export interface WindowFaultContext {
  page: Page;
  workbenchUrl: string;
  /** The file the driver extension watches to reload its window. */
  reloadFile: string;
  driverRecord: string;
  /** The askers Elicit started (stdio): a reload ends their processes. */
  stdioAskers: string[];
  pidOf(name: string): number | undefined;
  log(event: LedgerEvent): void;
  /** The askers' log, to see a question asked. */
  serverLog: string;
  /** The file the driver extension watches for a command to run ({command, args}). */
  driverDo: string;
  /** Whether the person can see the question of a token (the phone lists it). */
  shows(token: string): Promise<boolean>;
}

/**
 * Reload Window, through the driver extension: the old host stops every server (stdio ones end, an
 * HTTP session is ended), the new one starts them again. Each stdio asker is logged as dead once its
 * old process is gone (what it still waited for went with it).
 */
export async function reloadWindow(context: WindowFaultContext): Promise<void> {
  const { page } = context;
  const oldPids = context.stdioAskers.flatMap((name) => {
    const pid = context.pidOf(name);
    return pid === undefined ? [] : [{ name, pid }];
  });
  const startsBefore = countLines(context.driverRecord, '"started"');
  context.log({ event: 'fault', kind: 'Reload Window', at: Date.now() });
  const loaded = page.waitForEvent('load', { timeout: 90_000 });
  fs.writeFileSync(context.reloadFile, '');
  await waitUntil(() => oldPids.every(({ pid }) => !isAlive(pid)), "the old window's servers to end", 30_000, 200);
  const at = Date.now();
  for (const { name } of oldPids) context.log({ event: 'died', asker: name, at });
  await loaded;
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await waitUntil(
    () => countLines(context.driverRecord, '"started"') > startsBefore,
    'the servers to start again after the reload',
    120_000,
    200,
  );
}

/**
 * Reload Window while a round of a tool the person ran waits (the issue's "Reload Window while rounds
 * are kept"): the person runs `server`'s soak_round with Run MCP Tool (through the driver, as a
 * keybinding with arguments does), sees its question, and reloads. After the reload the person opens
 * the kept round from Pending Questions; answerInEditor answers it once it is in `kept`. Returns what
 * went wrong, if anything (the ledger then finds the round without a fate).
 */
export async function reloadWithKeptRound(
  context: WindowFaultContext,
  server: string,
  call: string,
  kept: Set<string>,
): Promise<string | undefined> {
  const question = `${server}-${call}`;
  fs.writeFileSync(context.driverDo, JSON.stringify({ command: 'elicit.runTool', args: [server, 'soak_round', { call }] }));
  const asked = (): boolean => readSoakLog<LedgerEvent>(context.serverLog).some((e) => e.event === 'asked' && e.question === question);
  let trouble: string | undefined;
  try {
    await waitUntil(asked, `${question} to be asked`, 20_000, 200);
    context.log({ event: 'kept round', question, at: Date.now() });
    await waitUntil(() => context.shows(question), `${question} to show`, 20_000, 200);
    // The person reads it, and reloads instead of answering.
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
  } catch (error) {
    trouble = `the person's run of ${server}'s tool: ${String(error)}`;
  }
  await reloadWindow(context);
  if (trouble) return trouble;
  kept.add(question);
  fs.writeFileSync(context.driverDo, JSON.stringify({ command: 'elicit.showPendingQuestions' }));
  try {
    await openKeptRound(context.page, question);
  } catch (error) {
    return `opening ${question} from Pending Questions after the reload: ${String(error).slice(0, 1000)}`;
  }
  return undefined;
}

/** Opens a second window on a folder of its own for `stayMs`, then closes it, as a person closes a window. */
export async function secondWindow(context: WindowFaultContext, stayMs: number): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-soak-window-'));
  // The driver extension only looks on in this window.
  fs.writeFileSync(path.join(folder, '.soak-second-window'), '');
  context.log({ event: 'fault', kind: 'second window', at: Date.now() });
  // Of the same browser profile as the first window, sharing its storage, as a person's windows do.
  const page = await context.page.context().newPage();
  try {
    const url = new URL(context.workbenchUrl);
    url.searchParams.set('folder', folder);
    await page.goto(url.toString());
    await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    await new Promise((resolve) => setTimeout(resolve, stayMs));
  } finally {
    await page.close({ runBeforeUnload: true }).catch(() => undefined);
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

function countLines(file: string, containing: string): number {
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.includes(containing)).length
    : 0;
}
