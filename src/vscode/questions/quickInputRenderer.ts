/**
 * Draws a short form with VS Code's own quick input: InputBox for text and
 * numbers (password mode for secrets), QuickPick for choices and yes/no,
 * multi-select QuickPick for multi choice; several fields become steps with
 * Back. Decline is an explicit button; Escape answers cancel. When something
 * else takes the quick input's place (the Command Palette, say), the question
 * is put off instead, and waits in Pending Questions (see quickInputEscape.ts).
 */
import * as vscode from 'vscode';
import { formatCountdown } from '../../core/time/countdown';
import { LATER, type Question, type RenderOutcome } from '../../core/broker/broker';
import { inertText, oneLine, questionTitle } from '../../core/display';
import { joinSignals } from '../../core/joinSignals';
import type { BooleanField, ChoiceField, Field, FileField, MultiChoiceField, NumberField, TextField } from '../../core/form/fields';
import { fileRule, fileValueText } from '../../core/form/fileFields';
import { chooseFiles } from './chooseFiles';
import { asksOnBehalf, CANCELLED, DECLINED, type Asker, type AnswerValue, type ElicitContent } from '../../core/request';
import { checkField, multiChoiceRule, parseTextInput } from '../../core/form/fieldRules';
import { listedOptions, otherTextField, questionFields } from '../../core/form/otherAnswer';
import { numberScale, starsText, type Scale } from '../../core/form/numberScale';
import { stepDraft, stepsFromDraft } from '../../core/form/stepDraft';
import type { DraftKeeper } from './formPanel';
import { setPickPrompt } from '../pickPrompt';
import { LaterDrafts } from './laterDrafts';
import type { QuickInputEscape } from './quickInputEscape';
import { rememberButtons, nextRememberChoice, type RememberChoice } from './rememberButton';
import { arrivalHold } from '../../core/time/arrivalGuard';
import { arrivalNotice } from '../arrivalNotice';

/** `other`: the text of a question's "Other…" answer, when that was chosen (otherAnswer.ts). */
type StepOutcome =
  | { kind: 'value'; value: AnswerValue | undefined; other?: string }
  | { kind: 'back' }
  | { kind: 'decline' }
  /** `partial`: what the step held when it was put off (typed text, ticked options), never a secret's. */
  | { kind: 'later'; partial?: AnswerValue }
  | { kind: 'cancel' };

/** Where a put-off question was left: the answers of the steps before, the step, and what that step held. */
interface QuickDraft {
  content: ElicitContent;
  step: number;
  partial?: AnswerValue;
}

/** Secrets saved from earlier answers, offered as "Use saved value". */
export interface SavedSecrets {
  has(asker: Asker, field: string): boolean;
  get(asker: Asker, field: string): Promise<string | undefined>;
}

interface StepContext {
  asker: Asker;
  saved?: SavedSecrets;
  title: string;
  message: string;
  step: number;
  totalSteps: number;
  current: AnswerValue | undefined;
  /** The text given before for the question's "Other…" answer (after Back). */
  currentOther?: string;
  signal: AbortSignal;
  /** Without it, every hide counts as Escape. */
  escape?: QuickInputEscape;
  /** Elicit asks for the person (a tool's arguments): no Later or Decline, and being hidden cancels. */
  onBehalf?: boolean;
  /** The prompt line (made inert when shown) when the step is not one field's own (the "Other…" text). */
  promptOverride?: string;
  /** Back returns to the options even on the first step (the "Other…" text). */
  backToOptions?: boolean;
  /** The asker's own timer (codex's autoResolutionMs): shown after the title, counting down. */
  autoResolvesAt?: number;
  /** Told what the step holds as the person types or ticks (a kept round's draft). */
  onPartial?: (partial: AnswerValue | undefined) => void;
  /** The question can no longer be answered (its turn ended): Dismiss and Later only, no Decline. */
  dismissOnly?: boolean;
  /** "Remember this answer", shared by every step of the question; absent when it is never remembered. */
  remember?: RememberChoice;
  /**
   * The question has just appeared (its first step shown, not one the person moved to): its first
   * moments take no answer (core/time/arrivalGuard). Used up by the first quick input shown.
   */
  arrived?: boolean;
}

/** Decline and Later, made once (a clicked button is told apart by identity), when first drawn: translated by then. */
let answerButtons: { decline: vscode.QuickInputButton; later: vscode.QuickInputButton } | undefined;

function buttons(): { decline: vscode.QuickInputButton; later: vscode.QuickInputButton } {
  answerButtons ??= {
    decline: {
      iconPath: new vscode.ThemeIcon('circle-slash'),
      tooltip: vscode.l10n.t('Decline: tell the asker you will not answer'),
    },
    later: {
      iconPath: new vscode.ThemeIcon('clock'),
      tooltip: vscode.l10n.t('Later: put this question off; the asker keeps waiting until you answer it from Pending Questions'),
    },
  };
  return answerButtons;
}

export class QuickInputRenderer {
  /** Secret fields are never in one. */
  private readonly drafts = new LaterDrafts<QuickDraft>();

  constructor(
    private readonly saved?: SavedSecrets,
    private readonly escape?: QuickInputEscape,
    /** Keeps the draft of a round kept across a window reload, as the form's does. */
    private readonly keptDrafts?: DraftKeeper,
  ) {}

  async render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    const form = question.form;
    if (!form) return CANCELLED;
    const title = questionTitle(question.request);
    const message = oneLine(question.request.message, 500);
    const onBehalf = asksOnBehalf(question.request);
    const turnEnded = question.request.mode === 'form' ? question.request.nonBlocking?.turnEnded : undefined;
    if (turnEnded?.aborted) return dismissOnly(question, signal, this.escape);
    if (form.fields.length === 0) {
      const submit = question.request.mode === 'form' ? question.request.submitLabel : undefined;
      return confirmOnly(question.request.asker, title, message, signal, this.escape, submit);
    }

    // Back from Later: where the person left it, with what they had typed or ticked.
    const draft = this.drafts.take(question.id);
    const content: ElicitContent = { ...draft?.content };
    // A round kept across a reload comes back with what its steps held (never a secret).
    const request = question.request;
    const keptRound = request.mode === 'group' && this.keptDrafts ? request.keptRound : undefined;
    const fromReload = draft || request.mode !== 'group' ? new Map<string, AnswerValue>() : stepsFromDraft(form, request.draft);
    const saveDraft = (open?: { name: string; partial?: AnswerValue }): void => {
      if (keptRound !== undefined) this.keptDrafts!.save(keptRound, stepDraft(form, content, open));
    };
    const remember: RememberChoice | undefined = question.rememberOffer ? { offer: question.rememberOffer } : undefined;
    // An agent's "Other…" text is asked inside its question's step, not as a step of its own.
    const steps = questionFields(form);
    let arrived = true;
    for (let i = draft?.step ?? 0; i < steps.length;) {
      const field = steps[i]!;
      const partial = draft && i === draft.step ? draft.partial : undefined;
      // A remembered answer that was not sent as it is starts the step (core/memory).
      const remembered = question.prefill && Object.hasOwn(question.prefill, field.name) ? question.prefill[field.name] : undefined;
      const current =
        partial ?? (Object.hasOwn(content, field.name) ? content[field.name] : (fromReload.get(field.name) ?? remembered ?? field.default));
      const otherText = otherTextField(form, field);
      const otherBefore = otherText && (Object.hasOwn(content, otherText.name) ? content[otherText.name] : fromReload.get(otherText.name));
      const currentOther = typeof otherBefore === 'string' ? otherBefore : undefined;
      // In a group each field belongs to one of the asker's questions: its message is the prompt.
      const section = field.section === undefined ? undefined : form.sections?.[field.section];
      // Its turn ending closes the step on screen: an answer would be dropped, so it turns into Dismiss.
      const stepEnds = joinSignals([signal, turnEnded]);
      const outcome = await askField(
        field,
        {
          asker: question.request.asker,
          saved: this.saved,
          title,
          message: section ? oneLine(section.message, 500) : message,
          step: i + 1,
          totalSteps: steps.length,
          current,
          currentOther,
          signal: stepEnds.signal,
          escape: this.escape,
          onBehalf,
          autoResolvesAt: question.request.autoResolvesAt,
          onPartial: keptRound === undefined ? undefined : (held) => saveDraft({ name: field.name, partial: held }),
          remember,
          arrived,
        },
        otherText,
      ).finally(stepEnds.dispose);
      arrived = false;
      if (outcome.kind === 'cancel' && turnEnded?.aborted && !signal.aborted) return dismissOnly(question, signal, this.escape);
      if (outcome.kind === 'cancel') return CANCELLED;
      if (outcome.kind === 'decline') return DECLINED;
      if (outcome.kind === 'later') {
        this.keepDraft(question.id, form.fields, steps[i]!, content, i, outcome.partial);
        return LATER;
      }
      if (outcome.kind === 'back') {
        i = Math.max(0, i - 1);
        continue;
      }
      if (outcome.value === undefined) delete content[field.name];
      else content[field.name] = outcome.value;
      if (otherText) {
        if (outcome.other === undefined) delete content[otherText.name];
        else content[otherText.name] = outcome.other;
      }
      saveDraft();
      i++;
    }
    if (remember?.choice) question.remember = remember.choice;
    return { action: 'accept', content };
  }

  private keepDraft(
    id: number,
    fields: readonly Field[],
    asked: Field,
    content: ElicitContent,
    step: number,
    partial: AnswerValue | undefined,
  ): void {
    const secret = new Set(fields.filter((f) => f.kind === 'text' && f.secret).map((f) => f.name));
    const kept = Object.fromEntries(Object.entries(content).filter(([name]) => !secret.has(name)));
    const onSecret = secret.has(asked.name);
    this.drafts.keep(id, { content: kept, step, partial: onSecret ? undefined : partial });
  }
}

function askField(field: Field, ctx: StepContext, otherText?: TextField): Promise<StepOutcome> {
  if (otherText && (field.kind === 'choice' || field.kind === 'multiChoice')) return askWithOther(field, otherText, ctx);
  switch (field.kind) {
    case 'text':
      return field.secret && ctx.saved?.has(ctx.asker, field.property ?? field.name) ? askSavedSecret(field, ctx) : askText(field, ctx);
    case 'number': {
      const scale = numberScale(field);
      return scale ? askScale(field, scale, ctx) : askText(field, ctx);
    }
    case 'boolean':
      return askBoolean(field, ctx);
    case 'choice':
      return askChoice(field, ctx);
    case 'multiChoice':
      return askMany(field, ctx);
    case 'file':
      return askFile(field, ctx);
  }
}

/** The value the "Choose File…" item stands for inside askOne; never sent. */
const CHOOSE_FILE = '\u0000choose-file';

/**
 * A file field: a pick whose item opens VS Code's file dialog (the pick makes way for
 * it), then the step ends with the file; a file too large or of another type brings the
 * step back saying so. Decline, Later and Back stay where every step has them.
 */
async function askFile(field: FileField, ctx: StepContext): Promise<StepOutcome> {
  let current = ctx.current;
  let problem: string | undefined;
  for (;;) {
    const choose: ValueItem = {
      label: `$(folder-opened) ${field.multiple ? vscode.l10n.t('Choose Files…') : vscode.l10n.t('Choose File…')}`,
      description: inertText(fileRule(field)),
      value: CHOOSE_FILE,
    };
    const chosen: ValueItem[] =
      current === undefined
        ? []
        : [{ label: `$(file) ${inertText(fileValueText(current))}`, description: vscode.l10n.t('chosen'), value: current }];
    const prompt = problem === undefined ? undefined : `${fieldPrompt(field, ctx)} · ⚠ ${problem}`;
    const step = await askOne(
      field,
      prompt === undefined ? ctx : { ...ctx, promptOverride: prompt },
      [...chosen, choose],
      current ?? CHOOSE_FILE,
    );
    if (step.kind !== 'value' || step.value !== CHOOSE_FILE) return step;
    const picked = await chooseFiles(field, inertText(`${ctx.title} — ${oneLine(field.label, 80)}`));
    if (ctx.signal.aborted) return { kind: 'cancel' };
    if (picked === undefined) continue; // the dialog closed without a file: the step again
    if ('problem' in picked) {
      problem = picked.problem;
      continue;
    }
    const values = picked.files.map((file) => file.value);
    current = field.multiple ? values : values[0];
    return { kind: 'value', value: current };
  }
}

function fieldPrompt(field: Field, ctx: StepContext): string {
  if (ctx.promptOverride !== undefined) return inertText(ctx.promptOverride);
  // With one field the message says it all; with steps each field needs its own name. An agent
  // may put its question in the field's title under a notice of its own (codex's non-blocking
  // questions): the title is the question then, and stays on the line.
  const titledByAgent = ctx.asker.kind === 'acp' && field.label !== field.name;
  if (ctx.totalSteps === 1 && !field.description && !titledByAgent) return inertText(ctx.message);
  const label = field.required ? oneLine(field.label, 120) : vscode.l10n.t('{0} (optional)', oneLine(field.label, 120));
  const description = field.description ? `: ${oneLine(field.description, 300)}` : '';
  return inertText(`${ctx.message} — ${label}${description}`);
}

function askText(field: TextField | NumberField, ctx: StepContext): Promise<StepOutcome> {
  const box = vscode.window.createInputBox();
  box.title = inertText(ctx.title);
  box.prompt = fieldPrompt(field, ctx);
  // An empty box sends the default, as an empty form field does (completeAnswer); the placeholder says so.
  const fallback = field.default === undefined || field.default === '' ? undefined : field.default;
  const label = field.required ? oneLine(field.label, 120) : vscode.l10n.t('{0} (optional)', oneLine(field.label, 120));
  const sends = fallback !== undefined && !(field.kind === 'text' && field.secret);
  box.placeholder = inertText(sends ? vscode.l10n.t('{0} — empty sends {1}', label, oneLine(String(fallback), 60)) : label);
  box.password = field.kind === 'text' && field.secret;
  box.value = ctx.current === undefined ? '' : String(ctx.current);
  box.valueSelection = [0, box.value.length];
  box.ignoreFocusOut = true;
  setSteps(box, ctx);
  const validate = (text: string): { value?: AnswerValue; error?: string } => {
    const parsed = parseTextInput(field, text);
    if (parsed.error) return parsed;
    const value = parsed.value ?? fallback;
    const error = checkField(field, value);
    return error ? { error } : { value };
  };
  // VS Code shows a validation message in place of the prompt: the question stays on the line with it.
  const showError = (error: string | undefined): void => {
    if (error === undefined) box.validationMessage = undefined;
    else box.validationMessage = inertText(box.prompt ? `${box.prompt} · ⚠ ${error}` : error);
  };
  return runStep(
    box,
    ctx,
    (settle) => [
      box.onDidChangeValue((text) => {
        // Do not scold an empty box before the person has typed anything.
        showError(text === '' ? undefined : validate(text).error);
      }),
      box.onDidAccept(() => {
        const result = validate(box.value);
        if (result.error) showError(result.error);
        else settle({ kind: 'value', value: result.value });
      }),
    ],
    () => (box.password ? undefined : box.value),
  );
}

/** A secret answered before: reuse it without showing it, or type a new one. */
async function askSavedSecret(field: TextField, ctx: StepContext): Promise<StepOutcome> {
  const choice = await askOne(
    field,
    ctx,
    [
      { label: `$(key) ${vscode.l10n.t('Use saved value')}`, description: vscode.l10n.t('saved in VS Code SecretStorage'), value: 'saved' },
      { label: `$(edit) ${vscode.l10n.t('Enter a new value')}`, value: 'new' },
    ],
    'saved',
    false,
  );
  if (choice.kind !== 'value') return choice;
  if (choice.value === 'saved') {
    const value = await ctx.saved!.get(ctx.asker, field.property ?? field.name);
    if (value !== undefined && checkField(field, value) === undefined) return { kind: 'value', value };
  }
  return askText(field, ctx);
}

interface ValueItem extends vscode.QuickPickItem {
  value?: AnswerValue;
  decline?: boolean;
  skip?: boolean;
  /** The "Other…" answer of a question with a free-text companion. */
  other?: boolean;
}

function askBoolean(field: BooleanField, ctx: StepContext): Promise<StepOutcome> {
  const items: ValueItem[] = [
    { label: vscode.l10n.t('Yes'), value: true },
    { label: vscode.l10n.t('No'), value: false },
  ];
  return askOne(field, ctx, items, ctx.current);
}

function choiceItems(field: ChoiceField | MultiChoiceField): ValueItem[] {
  return listedOptions(field).map((o) => {
    // The value is shown beside a title that differs from it; compared as shown, so a value whose
    // label is only its invisible characters removed does not repeat itself. Then the option's own
    // description; its preview (claude's AskUserQuestion) is the line under it.
    const differs = oneLine(o.label, Infinity) !== oneLine(o.value, Infinity);
    const beside = [differs ? oneLine(o.value, 80) : undefined, o.description ? oneLine(o.description, 200) : undefined].filter(Boolean);
    return {
      label: inertText(oneLine(o.label, 200)),
      description: beside.length > 0 ? inertText(beside.join(' — ')) : undefined,
      detail: o.preview ? inertText(oneLine(o.preview, 300)) : undefined,
      value: o.value,
    };
  });
}

/** A small whole-number range as a pick of its values: "★★★☆☆" for a rating. */
function askScale(field: NumberField, scale: Scale, ctx: StepContext): Promise<StepOutcome> {
  const items: ValueItem[] = scale.values.map((n) =>
    scale.stars
      ? { label: inertText(starsText(n, scale)), description: inertText(vscode.l10n.t('{0} of {1}', n, scale.values.at(-1)!)), value: n }
      : { label: inertText(String(n)), value: n },
  );
  return askOne(field, ctx, items, ctx.current);
}

function askChoice(field: ChoiceField, ctx: StepContext): Promise<StepOutcome> {
  return askOne(field, ctx, choiceItems(field), ctx.current);
}

function otherItem(): ValueItem {
  return { label: `$(edit) ${vscode.l10n.t('Other…')}`, description: vscode.l10n.t('type your own answer'), other: true };
}

/**
 * A choice question with its agent's free-text companion: the options and
 * "Other…", which asks for the text next (Back returns to the options).
 */
async function askWithOther(field: ChoiceField | MultiChoiceField, text: TextField, ctx: StepContext): Promise<StepOutcome> {
  let current = ctx.current;
  let otherChosen = ctx.currentOther !== undefined;
  for (;;) {
    const choice =
      field.kind === 'choice'
        ? await askOne(field, { ...ctx, current }, [...choiceItems(field), otherItem()], otherChosen ? OTHER_PICKED : current)
        : await askMany(field, { ...ctx, current }, otherChosen);
    if (choice.kind !== 'value') return choice;
    const picked = field.kind === 'choice' ? choice.value === OTHER_PICKED : choice.other !== undefined;
    if (!picked) return { kind: 'value', value: choice.value };
    current = field.kind === 'choice' ? current : choice.value;
    otherChosen = true;
    // The question stays on the prompt line: "<message> — your own answer to “<question>”".
    const typed = await askText(
      { ...text, label: vscode.l10n.t('Your answer'), required: true, description: undefined },
      {
        ...ctx,
        current: ctx.currentOther,
        backToOptions: true,
        // The draft keeps the choice; the text counts once it is entered.
        onPartial: undefined,
        promptOverride: `${ctx.message} — ${vscode.l10n.t('your own answer to “{0}”', oneLine(field.label, 120))}`,
      },
    );
    if (typed.kind === 'back') continue;
    if (typed.kind !== 'value') return typed;
    const value = field.kind === 'choice' ? field.other?.option : current;
    return { kind: 'value', value, other: typeof typed.value === 'string' ? typed.value : undefined };
  }
}

/** The value an "Other…" item stands for inside askOne; never sent. */
const OTHER_PICKED = '\u0000other-picked';

function askOne(
  field: Field,
  ctx: StepContext,
  options: ValueItem[],
  current: AnswerValue | undefined,
  // A field with a default is never sent empty (completeAnswer fills it in), so it offers no "Leave empty".
  allowSkip = !field.required && (field.default === undefined || field.default === ''),
): Promise<StepOutcome> {
  const pick = vscode.window.createQuickPick<ValueItem>();
  pick.title = inertText(ctx.title);
  pick.placeholder = fieldPrompt(field, ctx);
  keepInView(pick, fieldPrompt(field, ctx), ctx);
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  setSteps(pick, ctx);
  const extras: ValueItem[] = [{ label: '', kind: vscode.QuickPickItemKind.Separator }];
  if (allowSkip) extras.push({ label: `$(dash) ${vscode.l10n.t('Leave empty')}`, skip: true });
  if (!ctx.onBehalf && !ctx.dismissOnly) {
    extras.push({
      label: `$(circle-slash) ${vscode.l10n.t('Decline')}`,
      description: vscode.l10n.t('tell the asker you will not answer'),
      decline: true,
    });
  }
  pick.items = [...options, ...(extras.length > 1 ? extras : [])];
  const active = options.find((o) => (o.other ? current === OTHER_PICKED : o.value === current));
  if (active) pick.activeItems = [active];
  return runStep(pick, ctx, (settle) => [
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!chosen) return;
      if (chosen.decline) settle({ kind: 'decline' });
      else if (chosen.other) settle({ kind: 'value', value: OTHER_PICKED });
      else settle({ kind: 'value', value: chosen.skip ? undefined : chosen.value });
    }),
  ]);
}

/** `withOther`: the question has an "Other…" answer (ticked when `otherTicked`); choosing it asks for the text next. */
function askMany(field: MultiChoiceField, ctx: StepContext, otherTicked?: boolean): Promise<StepOutcome> {
  const withOther = otherTicked !== undefined;
  const pick = vscode.window.createQuickPick<ValueItem>();
  pick.title = inertText(ctx.title);
  // The rule shows before the person errs: in the placeholder, and on the prompt line where VS Code has one.
  // The rule and the refusals are the core's (validate.ts), in English.
  const rule = multiChoiceRule(field);
  const prompt = rule ? `${fieldPrompt(field, ctx)} · ${rule}` : fieldPrompt(field, ctx);
  pick.placeholder = inertText(prompt);
  pick.canSelectMany = true;
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  setSteps(pick, ctx);
  const items: ValueItem[] = withOther ? [...choiceItems(field), otherItem()] : choiceItems(field);
  pick.items = items;
  const chosen = new Set(Array.isArray(ctx.current) ? ctx.current : []);
  pick.selectedItems = items.filter((i) => (i.other ? otherTicked === true : chosen.has(i.value as string)));
  const selection = (): string[] => pick.selectedItems.filter((i) => !i.other).map((i) => i.value as string);
  const otherOn = (): boolean => pick.selectedItems.some((i) => i.other);
  /** The refusal on the prompt line, which shows it whole; the placeholder (cut off, gone once typing starts) where there is none. */
  const show = (error: string | undefined): void => {
    const count = vscode.l10n.t('{0} chosen', selection().length);
    // The question stays on the line too: the placeholder is gone once the person types.
    const line = error ? `${prompt} · ⚠ ${error} (${count})` : rule ? `${prompt} · ${count}` : prompt;
    const shown = setPickPrompt(pick, line);
    pick.placeholder = inertText(error && !shown ? `⚠ ${error} — ${prompt}` : prompt);
    if (!shown) pick.title = inertText(`${ctx.title} — ${oneLine(prompt, 200)}`);
  };
  show(undefined);
  return runStep(
    pick,
    ctx,
    (settle) => [
      pick.onDidChangeSelection(() => {
        // Not before the person has chosen anything: an empty start is no mistake yet.
        show(selection().length > 0 ? checkField(field, selection()) : undefined);
        // A box ticked with the mouse keeps the focus, and Enter on a focused box unticks it
        // instead of submitting (VS Code's checkbox takes Enter as Space). Back in the filter
        // box, Enter submits as the person expects; the list keeps its place for the arrows.
        void vscode.commands.executeCommand('workbench.action.focusQuickOpen');
      }),
      pick.onDidAccept(() => {
        const values = selection();
        // With "Other…" ticked the typed answer counts too: no list at all is then a fine answer.
        const error =
          otherOn() && values.length === 0 && !field.required ? undefined : checkField(field, values.length === 0 ? undefined : values);
        if (error) show(error);
        else settle({ kind: 'value', value: values.length === 0 ? undefined : values, ...(otherOn() ? { other: '' } : {}) });
      }),
    ],
    selection,
  );
}

/**
 * A question's text is never only in a placeholder (presentation.ts): the pick's
 * prompt line keeps it in view while the person types; where VS Code has no such
 * line (before 1.108), the title carries it.
 */
function keepInView(pick: vscode.QuickPick<ValueItem>, prompt: string, ctx: StepContext): void {
  if (!setPickPrompt(pick, prompt)) pick.title = inertText(`${ctx.title} — ${oneLine(prompt, 200)}`);
}

function setSteps(input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, ctx: StepContext): void {
  if (ctx.totalSteps > 1) {
    input.step = ctx.step;
    input.totalSteps = ctx.totalSteps;
  }
  const remember = ctx.remember && !ctx.dismissOnly ? [rememberButtons()[ctx.remember.choice ?? 'no']] : [];
  const answers = ctx.onBehalf ? [] : ctx.dismissOnly ? [buttons().later] : [...remember, buttons().later, buttons().decline];
  input.buttons = ctx.step > 1 || ctx.backToOptions ? [vscode.QuickInputButtons.Back, ...answers] : answers;
}

/**
 * Shows one quick input until it settles: an accepted value, Back, Decline,
 * Later, cancel (Escape, or the asker aborting), or Later again when something
 * else hid it. Always disposes it.
 */
function runStep(
  input: vscode.InputBox | vscode.QuickPick<ValueItem>,
  ctx: StepContext,
  wire: (settle: (outcome: StepOutcome) => void) => vscode.Disposable[],
  partial: () => AnswerValue | undefined = () => undefined,
): Promise<StepOutcome> {
  return new Promise<StepOutcome>((resolve) => {
    let settled = false;
    const disposables: vscode.Disposable[] = [];
    const settle = (outcome: StepOutcome): void => {
      if (settled) return;
      settled = true;
      hold?.dispose();
      ctx.escape?.end(escaped);
      ctx.signal.removeEventListener('abort', cancel);
      for (const d of disposables) d.dispose();
      input.dispose();
      resolve(outcome);
    };
    /** The asker aborting, or Escape once the question has been on screen a moment. */
    const cancel = (): void => settle({ kind: 'cancel' });
    // The person's own choices, Escape among them (not a hide or the asker's abort), wait out a new
    // question's first moments: an Escape meant for the editor (closing its find box) would cancel it unread.
    // One refused says so on the question's line until answers count.
    const hold = ctx.arrived ? arrivalHold(arrivalNotice(input)) : undefined;
    ctx.arrived = false;
    const choose = (outcome: StepOutcome): void => {
      if (!hold?.tooSoon()) settle(outcome);
    };
    /** Escape, through QuickInputEscape: the question stays on screen when it comes too soon. */
    const escaped = (): void => choose({ kind: 'cancel' });
    disposables.push(
      ...wire(choose),
      ...(ctx.onPartial ? [partialChanges(input, () => ctx.onPartial!(partial()))] : []),
      input.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) choose({ kind: 'back' });
        else if (button === buttons().decline) choose({ kind: 'decline' });
        else if (button === buttons().later) choose({ kind: 'later', partial: partial() });
        else if (ctx.remember && Object.values(rememberButtons()).includes(button)) {
          ctx.remember.choice = nextRememberChoice(ctx.remember);
          setSteps(input, ctx);
        }
      }),
      input.onDidHide(() => {
        // Arguments Elicit asks for cannot wait in Pending Questions: nobody is waiting for them.
        if (!ctx.escape || ctx.onBehalf) return settle({ kind: 'cancel' });
        // Not Escape (that settles first): another quick input took this one's place.
        vscode.window.setStatusBarMessage(
          `$(clock) ${vscode.l10n.t('Put off: {0} — answer it from Pending Questions', inertText(oneLine(ctx.message, 60)))}`,
          8000,
        );
        settle({ kind: 'later', partial: partial() });
      }),
    );
    if (ctx.signal.aborted) return settle({ kind: 'cancel' });
    ctx.signal.addEventListener('abort', cancel, { once: true });
    ctx.escape?.begin(escaped);
    if (ctx.autoResolvesAt !== undefined) disposables.push(showCountdown(input, ctx.asker.name, ctx.autoResolvesAt));
    input.show();
  });
}

/**
 * The asker's timer after the title ("… — codex answers for you in 0:45 (its
 * own timer)"), updated every second; the question's own text stays on the
 * prompt line. Whatever else sets the title keeps its words: only the
 * countdown's own end is replaced.
 */
function showCountdown(input: vscode.QuickInput, asker: string, at: number): vscode.Disposable {
  let suffix = '';
  const tick = (): void => {
    const title = input.title ?? '';
    const base = suffix !== '' && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
    const left = at - Date.now();
    const words =
      left > 0
        ? vscode.l10n.t('{0} answers for you in {1} (its own timer)', asker, formatCountdown(left))
        : vscode.l10n.t("{0}'s time for this question is up: it goes on without your answer", asker);
    // The title stays inert: inertText is idempotent, so the part already made so is unchanged.
    input.title = inertText(`${base} — ${words}`);
    suffix = input.title.slice(inertText(base).length);
  };
  tick();
  const timer = setInterval(tick, 1000);
  return { dispose: () => clearInterval(timer) };
}

/** Fires as the person types into a box or ticks options. */
function partialChanges(input: vscode.InputBox | vscode.QuickPick<ValueItem>, changed: () => void): vscode.Disposable {
  return 'canSelectMany' in input ? input.onDidChangeSelection(changed) : input.onDidChangeValue(changed);
}

/**
 * A non-blocking question whose turn has ended: the agent would drop an answer,
 * so the question is shown marked "turn ended" with Dismiss (answered cancel:
 * the person did not refuse, it came too late) and Later.
 */
async function dismissOnly(question: Question, signal: AbortSignal, escape?: QuickInputEscape): Promise<RenderOutcome> {
  const form = question.form;
  const first = form ? questionFields(form)[0] : undefined;
  const asked = first && first.label !== first.name ? first.label : oneLine(question.request.message, 200);
  const ctx: StepContext = {
    asker: question.request.asker,
    title: `${questionTitle(question.request)} · ${vscode.l10n.t('turn ended')}`,
    message: '',
    step: 1,
    totalSteps: 1,
    current: true,
    signal,
    escape,
    dismissOnly: true,
    arrived: true,
    promptOverride: vscode.l10n.t(
      'Turn ended: {0} no longer takes an answer to “{1}”. Dismiss it, or send your answer as a new message.',
      oneLine(question.request.asker.name, 60),
      oneLine(asked, 200),
    ),
  };
  const field: BooleanField = { kind: 'boolean', name: '', label: vscode.l10n.t('Dismiss'), required: true };
  const outcome = await askOne(field, ctx, [{ label: `$(close) ${vscode.l10n.t('Dismiss')}`, value: true }], true);
  return outcome.kind === 'later' ? LATER : CANCELLED;
}

/** A question with no fields: the person can only agree or decline. */
async function confirmOnly(
  asker: Asker,
  title: string,
  message: string,
  signal: AbortSignal,
  escape?: QuickInputEscape,
  submitLabel = vscode.l10n.t('Submit'),
): Promise<RenderOutcome> {
  const field: BooleanField = { kind: 'boolean', name: '', label: vscode.l10n.t('Continue?'), required: true };
  const ctx: StepContext = { asker, title, message, step: 1, totalSteps: 1, current: true, signal, escape, arrived: true };
  const outcome = await askOne(field, ctx, [{ label: `$(check) ${inertText(oneLine(submitLabel, 80))}`, value: true }], true);
  if (outcome.kind === 'value') return { action: 'accept', content: {} };
  if (outcome.kind === 'later') return LATER;
  return outcome.kind === 'decline' ? DECLINED : CANCELLED;
}
