/**
 * Rules the person sets for an asker, besides single answers:
 * always decline a question kind from it, or never open its links. A rule
 * answers `decline` only: an asker writes its own defaults, so there is no
 * rule that accepts anything. Kept by asker origin like answers, in the
 * person's SecretStorage (a rule holds no value), never from a workspace;
 * never for an asker whose identity cannot be established.
 */
import { createHash } from 'node:crypto';
import { clip } from '../display';
import type { AskerKind, ElicitRequest } from '../request';
import type { FormModel } from '../form/fields';
import { memoryAsker } from './askerIdentity';
import { questionUnits } from './questionUnits';

export type RuleKind = 'decline' | 'noLinks';

export interface AskerRule {
  id: string;
  kind: RuleKind;
  asker: { kind: AskerKind; name: string; key: string };
  /** decline: the question kind (its questions' fingerprints) and its message, for the list. */
  question?: { fingerprint: string; message: string };
  created: number;
  lastUsed?: number;
  count: number;
}

/** Where rules are kept: one text (SecretStorage in VS Code). */
export interface RuleVault {
  read(): Promise<string | undefined>;
  write(text: string | undefined): Promise<void>;
}

/** The question kind a decline rule names: every question of the request, as the person saw it. */
export function questionKind(request: ElicitRequest, form?: FormModel): string | undefined {
  const units = questionUnits(request, form);
  if (units.length === 0) return undefined;
  return hash(units.map((unit) => unit.fingerprint));
}

/** Which rule the person may set on this question, if any. */
export function ruleFor(request: ElicitRequest, form?: FormModel): RuleKind | undefined {
  if (!memoryAsker(request.asker)) return undefined;
  if (request.mode === 'url') return 'noLinks';
  return questionKind(request, form) === undefined ? undefined : 'decline';
}

/** How long the counts of rules applied wait before they are written, together. */
const COUNTS_WRITE_MS = 1_000;

export class AskerRules {
  private readonly rules = new Map<string, AskerRule>();
  private writes: Promise<void> = Promise.resolve();
  /** A write of the counts is due (apply() coalesces them: a flood of declines is one write a second). */
  private countsDue: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly vault: RuleVault,
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<void> {
    const text = await this.vault.read();
    this.rules.clear();
    if (text !== undefined)
      try {
        const entries: unknown = JSON.parse(text);
        if (Array.isArray(entries)) for (const entry of entries) if (isRule(entry)) this.rules.set(entry.id, entry);
      } catch {
        // A damaged store holds no rule.
      }
    this.changed();
  }

  /** Sets the rule this question allows (decline its kind, or never open links); undefined when none may be set. */
  async add(request: ElicitRequest, form?: FormModel): Promise<AskerRule | undefined> {
    const kind = ruleFor(request, form);
    const asker = memoryAsker(request.asker);
    if (!kind || !asker) return undefined;
    const fingerprint = kind === 'decline' ? questionKind(request, form)! : undefined;
    const id = hash([kind, asker.key, fingerprint ?? '']);
    const rule: AskerRule = {
      id,
      kind,
      asker: { kind: request.asker.kind, name: clip(request.asker.name, 120), key: asker.key },
      created: this.now(),
      count: 0,
    };
    if (fingerprint) rule.question = { fingerprint, message: clip(request.message, 300) };
    this.rules.set(id, rule);
    this.changed();
    await this.persist();
    return rule;
  }

  /**
   * The rule that declines this question, if one does. Never rate-limited: a decline is the answer
   * the person chose for this asker, and past a limit the consent dialogs would come back for
   * whoever repeats the question fastest.
   */
  apply(request: ElicitRequest, form?: FormModel): AskerRule | undefined {
    const asker = memoryAsker(request.asker);
    const kind = ruleFor(request, form);
    if (!asker || !kind) return undefined;
    const fingerprint = kind === 'decline' ? questionKind(request, form) : undefined;
    const rule = this.rules.get(hash([kind, asker.key, fingerprint ?? '']));
    if (!rule) return undefined;
    rule.count++;
    rule.lastUsed = this.now();
    this.countsDue ??= setTimeout(() => {
      this.countsDue = undefined;
      void this.persist();
    }, COUNTS_WRITE_MS);
    this.changed();
    return rule;
  }

  list(): AskerRule[] {
    return [...this.rules.values()].sort((a, b) => b.created - a.created);
  }

  forget(id: string): Promise<void> {
    return this.drop((rule) => rule.id === id);
  }

  forgetAsker(askerKey: string): Promise<void> {
    return this.drop((rule) => rule.asker.key === askerKey);
  }

  forgetAll(): Promise<void> {
    return this.drop(() => true);
  }

  private async drop(drop: (rule: AskerRule) => boolean): Promise<void> {
    for (const [id, rule] of this.rules) if (drop(rule)) this.rules.delete(id);
    this.changed();
    await this.persist();
  }

  private persist(): Promise<void> {
    const text = this.rules.size === 0 ? undefined : JSON.stringify([...this.rules.values()]);
    this.writes = this.writes.then(() => this.vault.write(text)).catch(() => undefined);
    return this.writes;
  }
}

function hash(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

function isRule(value: unknown): value is AskerRule {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Partial<AskerRule>;
  return (
    typeof rule.id === 'string' &&
    (rule.kind === 'decline' || (rule.kind === 'noLinks' && rule.question === undefined)) &&
    (rule.kind !== 'decline' || typeof rule.question?.fingerprint === 'string') &&
    typeof rule.created === 'number' &&
    typeof rule.count === 'number' &&
    typeof rule.asker?.key === 'string' &&
    typeof rule.asker.name === 'string'
  );
}
