/**
 * The soak's phone: a browser context of its own (a phone's screen, touch and user agent, Elicit's
 * certificate not trusted by name), paired as a person pairs one (the link and code from Elicit's
 * pairing tab, the phone's name, the person's yes in the editor's dialog), then answering through
 * the device API a phone page uses: GET /api/questions, POST /api/questions/<id>. Each question of
 * a soak server carries its token in its message; the phone answers with that token and values
 * made from it, or declines, and writes a `gave` line for each answer Elicit took.
 */
import { createHash } from 'node:crypto';
import { devices, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { runCommand, webviewFrame } from '../e2e/harness/workbench';
import type { LedgerEvent } from './ledger';

const PAIRING_TAB = 'Pair a Device';
/** The share of answers during which the phone goes away before Elicit's reply comes. */
const GOES_AWAY = 0.06;

export interface SoakPhone {
  context: BrowserContext;
  page: Page;
  origin: string;
}

/** Pairs a new phone with the editor on `editor`. */
export async function pairPhone(browser: Browser, editor: Page, name: string): Promise<SoakPhone> {
  await runCommand(editor, 'Elicit: Answer on Another Device…');
  const pairing = await webviewFrame(editor, PAIRING_TAB);
  const urlText = pairing.locator('#pairing-url');
  await urlText.waitFor({ timeout: 30_000 });
  const link = ((await urlText.textContent()) ?? '').trim();
  const origin = new URL(link).origin;
  const context = await browser.newContext({ ...devices['Pixel 7'], ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Name of this phone' }).fill(name);
  await page.getByRole('button', { name: 'Pair' }).tap();
  const dialog = editor.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Pair', exact: true }).click();
  await page.getByRole('heading', { name: /^(No questions waiting|\d+ waiting)$/ }).waitFor({ timeout: 20_000 });
  return { context, page, origin };
}

interface PhoneQuestionView {
  id: number;
  kind: string;
  message?: string;
  /** A form's fields; questions that arrived together are one form, a section each, fields named "<section>:<name>". */
  form?: { fields: Array<{ name: string; section?: number }>; sections?: Array<{ message: string }> };
}

/** Whether the phone's list shows the question of `token` (alone, or a section of a form): the person can see it. */
export async function phoneLists(phone: SoakPhone, token: string): Promise<boolean> {
  const listed = await phone.page.request
    .get(`${phone.origin}/api/questions`, { failOnStatusCode: false, timeout: 10_000 })
    .catch(() => undefined);
  if (!listed?.ok()) return false;
  const { questions } = (await listed.json()) as { questions: PhoneQuestionView[] };
  return questions.some((q) => [q.message, ...(q.form?.sections ?? []).map((s) => s.message)].some((m) => tokenIn(m) === token));
}

/** The token a soak question carries in its message. */
export function tokenIn(message: string | undefined): string | undefined {
  return /soak token (\S+)/.exec(message ?? '')?.[1];
}

/** What the phone answers for a token: the same every time, different from one token to the next. */
export function contentFor(token: string): Record<string, unknown> {
  const digest = createHash('sha256').update(token).digest();
  return { token, pick: ['a', 'b', 'c'][digest[1]! % 3]!, n: 1 + (digest[2]! % 9) };
}

/** Whether the phone declines the question of this token: about one in ten. */
export function declines(token: string): boolean {
  return createHash('sha256').update(token).digest()[0]! < 26;
}

/**
 * The phone's answer to a listed form: one soak question, or several that arrived together (one
 * form, a section each). A group is declined or answered as a whole, as its first question says.
 */
function answerForm(question: PhoneQuestionView): { body: Record<string, unknown>; gave: LedgerEvent[]; tokens: string[] } | undefined {
  const sections = question.form?.sections ?? [];
  // A round's questions, and questions that came together, are sections ("<section>:<name>"), even one alone.
  const sectioned = sections.length > 0;
  const tokens = sectioned ? sections.map((section) => tokenIn(section.message)) : [tokenIn(question.message)];
  if (tokens.length === 0 || tokens.some((token) => token === undefined)) return undefined;
  const known = tokens as string[];
  const at = Date.now();
  if (declines(known[0]!)) {
    return {
      body: { action: 'decline' },
      gave: known.map((token) => ({ event: 'gave', question: token, via: 'phone', action: 'decline', at })),
      tokens: known,
    };
  }
  const contents = known.map(contentFor);
  const content: Record<string, unknown> = {};
  for (const field of question.form?.fields ?? []) {
    const [section, name] = sectioned ? [field.section ?? 0, field.name.slice(field.name.indexOf(':') + 1)] : [0, field.name];
    content[field.name] = contents[section]?.[name];
  }
  return {
    body: { action: 'accept', content },
    gave: known.map((token, i) => ({ event: 'gave', question: token, via: 'phone', action: 'accept', content: contents[i], at })),
    tokens: known,
  };
}

/**
 * Answers every soak question the phone lists, each a few seconds after it showed (the asker may
 * give up or die meanwhile), until `stop` is aborted; each answer Elicit took is
 * handed to `log`. Returns the answers Elicit refused, and why (a question gone meanwhile is not one),
 * and what kept the phone from answering: its list not read, and answers to questions already gone.
 */
export async function answerOnPhone(
  phone: SoakPhone,
  log: (event: LedgerEvent) => void,
  stop: AbortSignal,
  /** The questions the phone leaves to the editor, by their tokens; `alone`: one question, not a form of several. */
  leave: (tokens: readonly string[], alone: boolean) => boolean = () => false,
): Promise<PhoneOutcome> {
  // Keyed by id and message: a question id of one window's life may come again after a reload.
  const keyOf = (question: PhoneQuestionView): string => `${question.id} ${question.message ?? ''}`;
  const answered = new Set<string>();
  /** When the person gets to each question seen: a person reads before answering, 0.3 to 4 s. */
  const due = new Map<string, number>();
  const refused: string[] = [];
  /** Why the list could not be read, and how often. */
  const unlisted = new Map<string, number>();
  /** Answers Elicit said came too late (404): a question still listed afterwards is tapped again, as a person would. */
  let gone = 0;
  while (!stop.aborted) {
    let questions: PhoneQuestionView[] = [];
    try {
      const listed = await phone.page.request.get(`${phone.origin}/api/questions`, { failOnStatusCode: false, timeout: 10_000 });
      if (listed.ok()) questions = ((await listed.json()) as { questions: PhoneQuestionView[] }).questions;
      else unlisted.set(`HTTP ${listed.status()}`, (unlisted.get(`HTTP ${listed.status()}`) ?? 0) + 1);
    } catch (error) {
      // The editor is busy or reloading: ask again.
      const why = String((error as Error).message ?? error)
        .split('\n')[0]!
        .slice(0, 80);
      unlisted.set(why, (unlisted.get(why) ?? 0) + 1);
    }
    if (process.env.SOAK_PHONE_TRACE) console.log(`phone: ${questions.length} listed; failures so far ${JSON.stringify([...unlisted])}`);
    for (const question of questions) {
      const key = keyOf(question);
      if (question.kind !== 'form' || answered.has(key)) continue;
      if (!due.has(key)) due.set(key, Date.now() + 300 + Math.random() * 3700);
      if (due.get(key)! > Date.now()) continue;
      const answer = answerForm(question);
      if (!answer) continue;
      if (leave(answer.tokens, !question.form?.sections?.length)) continue;
      answered.add(key);
      // Now and then the phone goes away (a tunnel, a lock screen) while its answer is on the way.
      const goesAway = Math.random() < GOES_AWAY;
      const sent = await phone.page.request
        .post(`${phone.origin}/api/questions/${question.id}`, {
          // As the phone's page sends it: a POST carries its page's origin.
          headers: { origin: phone.origin },
          data: answer.body,
          failOnStatusCode: false,
          timeout: goesAway ? 2 + Math.random() * 30 : 10_000,
        })
        .catch(() => undefined);
      if (!sent) {
        // Whether Elicit took it is not known; back on the list, the question is answered again.
        if (goesAway) {
          log({ event: 'fault', kind: 'phone went away mid-answer', at: Date.now() });
          for (const gave of answer.gave) if (gave.event === 'gave') log({ ...gave, uncertain: true });
        }
        answered.delete(key);
        due.set(key, Date.now() + 1_000 + Math.random() * 3_000);
        continue;
      }
      const body = (await sent.json().catch(() => ({}))) as { ok?: boolean; errors?: Record<string, string> };
      if (sent.ok() && body.ok) for (const gave of answer.gave) log(gave);
      else if (sent.status() !== 404) refused.push(`${sent.status()} ${JSON.stringify(body.errors ?? body)}`);
      else {
        gone++;
        answered.delete(key);
        due.set(key, Date.now() + 2_000);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { refused, unlisted: [...unlisted].map(([why, times]) => `${times} × ${why}`), gone };
}

export interface PhoneOutcome {
  /** Answers Elicit refused, and why: each is a problem. */
  refused: string[];
  /** Why the phone's list could not be read, with how often: for the report. */
  unlisted: string[];
  /** Answers Elicit took no more (the question was gone): for the report. */
  gone: number;
}
