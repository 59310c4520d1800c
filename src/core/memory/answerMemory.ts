/**
 * Answers the person chose to have remembered, per asker and question: kept
 * for this session in memory, or always in the vault (SecretStorage, never a
 * state or workspace file). A remembered question is answered without any UI,
 * at most AUTOMATIC_ANSWERS_PER_MINUTE times a minute per asker; an answer
 * that no longer passes the question's own check is not sent: the question is
 * asked, with the old answer filled in.
 */
import { createHash } from 'node:crypto';
import { ajvChecks } from '../form/loadAjvChecks';
import { completeAnswer } from '../form/fieldRules';
import type { FormModel } from '../form/fields';
import { clip } from '../display';
import { Emitter } from '../events';
import type { Asker, AskerKind, ElicitContent, ElicitRequest } from '../request';
import { memoryAsker, narrower, type MemoryScope } from './askerIdentity';
import { AskerRules, ruleFor, type AskerRule, type RuleKind, type RuleVault } from './askerRules';
import { AutomaticAnswerLimit } from './rateLimit';
import { questionUnits, requestContent, unitContent, type QuestionUnit } from './questionUnits';

/** `elicit.rememberAnswers`: the longest anything may be remembered, or not at all. */
export type RememberSetting = 'off' | MemoryScope;

export interface RememberedAnswer {
  id: string;
  asker: { kind: AskerKind; name: string; key: string };
  fingerprint: string;
  /** What the asker was doing, as the question's title said ("tool get_forecast"), for the list and the notice. */
  detail?: string;
  /** The question's message, clipped, for the list. */
  message: string;
  /** The answer, under the question's own property names. */
  content: ElicitContent;
  /** Field label → value, for the list and the notice. */
  shown: Array<{ label: string; value: string }>;
  scope: MemoryScope;
  created: number;
  lastUsed?: number;
  count: number;
}

/** Where "always" answers are kept: one text in SecretStorage. */
export interface MemoryVault {
  read(): Promise<string | undefined>;
  write(text: string | undefined): Promise<void>;
}

/** What memory gives a question: the whole answer to send, or values to fill in before asking. */
export type Recall = { kind: 'answer'; content: ElicitContent; used: RememberedAnswer[] } | { kind: 'prefill'; content: ElicitContent };

/** More are not remembered "always" (the oldest use goes first). */
export const MAX_REMEMBERED = 500;

export class AnswerMemory {
  private readonly session = new Map<string, RememberedAnswer>();
  private readonly always = new Map<string, RememberedAnswer>();
  private readonly limit: AutomaticAnswerLimit;
  private readonly changes = new Emitter<void>();
  private writes: Promise<void> = Promise.resolve();
  readonly onDidChange = this.changes.event;
  /** Always decline / never open links, per asker: within the same automatic-answer limit. */
  readonly rules: AskerRules;

  constructor(
    private readonly vault: MemoryVault,
    private readonly setting: () => RememberSetting,
    private readonly now: () => number = Date.now,
    ruleVault: RuleVault = inMemoryVault(),
  ) {
    this.limit = new AutomaticAnswerLimit(now);
    this.rules = new AskerRules(ruleVault, () => this.changes.fire(), now);
  }

  /** The rule the person may set on this question: none when memory is turned off or the asker is not known. */
  ruleOffer(request: ElicitRequest, form?: FormModel): RuleKind | undefined {
    return this.setting() === 'off' ? undefined : ruleFor(request, form);
  }

  /** The rule that declines this question without UI, unless memory is turned off. */
  declineRule(request: ElicitRequest, form?: FormModel): AskerRule | undefined {
    return this.setting() === 'off' ? undefined : this.rules.apply(request, form);
  }

  /** Reads the "always" answers; anything unreadable is dropped, not trusted. */
  async load(): Promise<void> {
    const text = await this.vault.read();
    this.always.clear();
    if (text === undefined) return;
    try {
      const entries: unknown = JSON.parse(text);
      if (Array.isArray(entries)) for (const entry of entries) if (isRemembered(entry)) this.always.set(entry.id, entry);
    } catch {
      // A damaged store remembers nothing.
    }
    this.changes.fire();
  }

  /** The longest scope the person may choose for this question, or undefined when it is never remembered. */
  offer(request: ElicitRequest, form?: FormModel): MemoryScope | undefined {
    const setting = this.setting();
    const asker = memoryAsker(request.asker);
    if (setting === 'off' || !asker) return undefined;
    const units = questionUnits(request, form);
    if (!units.some((unit) => unit.rememberable)) return undefined;
    return narrower(setting, asker.maxScope);
  }

  /** The remembered answer of a question, when each of its parts is remembered and still valid; else what to fill in. */
  recall(request: ElicitRequest, form?: FormModel): Recall | undefined {
    if (this.setting() === 'off') return undefined;
    const asker = memoryAsker(request.asker);
    if (!asker) return undefined;
    const units = questionUnits(request, form);
    if (!units.some((unit) => unit.rememberable)) return undefined;
    const content: ElicitContent = {};
    const used: RememberedAnswer[] = [];
    let whole = true;
    for (const unit of units) {
      const entry = unit.rememberable ? this.find(asker.key, unit.fingerprint) : undefined;
      if (!entry) {
        whole = false;
        continue;
      }
      Object.assign(content, requestContent(unit, entry.content));
      if (!stillValid(unit, entry.content)) whole = false;
      used.push(entry);
    }
    if (used.length === 0) return undefined;
    if (!whole || !this.limit.take(asker.key)) return { kind: 'prefill', content };
    const at = this.now();
    for (const entry of used) {
      entry.count++;
      entry.lastUsed = at;
    }
    if (used.some((entry) => entry.scope === 'always')) void this.persist();
    this.changes.fire();
    return { kind: 'answer', content, used };
  }

  /** Remembers the answer of each rememberable question of the request, for `scope` at most. */
  async remember(request: ElicitRequest, content: ElicitContent, scope: MemoryScope, form?: FormModel): Promise<RememberedAnswer[]> {
    const allowed = this.offer(request, form);
    if (!allowed) return [];
    const asker = memoryAsker(request.asker)!;
    const kept = narrower(scope, allowed);
    const at = this.now();
    const saved: RememberedAnswer[] = [];
    for (const unit of questionUnits(request, form)) {
      if (!unit.rememberable) continue;
      const own = unitContent(unit, content);
      const id = answerId(asker.key, unit.fingerprint);
      const entry: RememberedAnswer = {
        id,
        asker: { kind: request.asker.kind, name: clip(request.asker.name, 120), key: asker.key },
        fingerprint: unit.fingerprint,
        ...(request.asker.detail ? { detail: clip(request.asker.detail, 120) } : {}),
        message: clip(unit.message, 300),
        content: own,
        shown: shownValues(unit, own),
        scope: kept,
        created: at,
        count: 0,
      };
      this.session.delete(id);
      this.always.delete(id);
      (kept === 'always' ? this.always : this.session).set(id, entry);
      saved.push(entry);
    }
    if (kept === 'always') this.trim();
    this.changes.fire();
    if (kept === 'always') await this.persist();
    return saved;
  }

  list(): RememberedAnswer[] {
    return [...this.session.values(), ...this.always.values()].sort((a, b) => b.created - a.created);
  }

  async forget(id: string): Promise<void> {
    this.session.delete(id);
    await this.dropAlways((entry) => entry.id === id);
  }

  /**
   * "This session" ends when the asker's process stops or restarts: its
   * session answers go (its "always" answers and rules stay).
   */
  endSession(asker: Asker): void {
    const key = memoryAsker(asker)?.key;
    if (key === undefined) return;
    let dropped = false;
    for (const [id, entry] of this.session)
      if (entry.asker.key === key) {
        this.session.delete(id);
        dropped = true;
      }
    if (dropped) this.changes.fire();
  }

  /** Forgets an asker's answers and its rules. */
  async forgetAsker(askerKey: string): Promise<void> {
    for (const [id, entry] of this.session) if (entry.asker.key === askerKey) this.session.delete(id);
    await this.dropAlways((entry) => entry.asker.key === askerKey);
    await this.rules.forgetAsker(askerKey);
  }

  /** Forgets every answer and rule. */
  async forgetAll(): Promise<void> {
    this.session.clear();
    await this.dropAlways(() => true);
    await this.rules.forgetAll();
  }

  /** Written one after another, so the last write wins. */
  persist(): Promise<void> {
    const text = this.always.size === 0 ? undefined : JSON.stringify([...this.always.values()]);
    this.writes = this.writes.then(() => this.vault.write(text)).catch(() => undefined);
    return this.writes;
  }

  private async dropAlways(drop: (entry: RememberedAnswer) => boolean): Promise<void> {
    for (const [id, entry] of this.always) if (drop(entry)) this.always.delete(id);
    this.changes.fire();
    await this.persist();
  }

  private find(askerKey: string, fingerprint: string): RememberedAnswer | undefined {
    const id = answerId(askerKey, fingerprint);
    const kept = this.session.get(id);
    if (kept) return kept;
    // A setting lowered to "session" stops using what was kept always (and keeps it for when it is raised again).
    return this.setting() === 'always' ? this.always.get(id) : undefined;
  }

  private trim(): void {
    if (this.always.size <= MAX_REMEMBERED) return;
    const oldest = [...this.always.values()].sort((a, b) => (a.lastUsed ?? a.created) - (b.lastUsed ?? b.created));
    for (const entry of oldest.slice(0, this.always.size - MAX_REMEMBERED)) this.always.delete(entry.id);
  }
}

function inMemoryVault(): RuleVault {
  let text: string | undefined;
  return { read: () => Promise.resolve(text), write: (next) => Promise.resolve(void (text = next)) };
}

function answerId(askerKey: string, fingerprint: string): string {
  return createHash('sha256')
    .update(JSON.stringify([askerKey, fingerprint]))
    .digest('hex')
    .slice(0, 32);
}

/** The question's own check, as on Submit: a remembered answer is sent only if it would be accepted now. */
function stillValid(unit: QuestionUnit, own: ElicitContent): boolean {
  return Object.keys(ajvChecks().validateAnswer(unit.form, completeAnswer(unit.form, own))).length === 0;
}

function shownValues(unit: QuestionUnit, own: ElicitContent): RememberedAnswer['shown'] {
  return unit.form.fields
    .filter((field) => Object.hasOwn(own, field.name))
    .map((field) => {
      const value = own[field.name]!;
      return { label: clip(field.label, 120), value: clip(Array.isArray(value) ? value.join(', ') : String(value), 200) };
    });
}

function isRemembered(value: unknown): value is RememberedAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<RememberedAnswer>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.fingerprint === 'string' &&
    typeof entry.message === 'string' &&
    typeof entry.content === 'object' &&
    entry.content !== null &&
    Array.isArray(entry.shown) &&
    entry.scope === 'always' &&
    typeof entry.created === 'number' &&
    typeof entry.count === 'number' &&
    typeof entry.asker?.key === 'string' &&
    typeof entry.asker.name === 'string'
  );
}
