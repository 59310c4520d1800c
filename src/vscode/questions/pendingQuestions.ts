/**
 * What is waiting for the person: a Pending Questions view (asker, message,
 * age; Answer, Decline, Later), a status bar item while anything is pending,
 * and a notification with Answer when a question arrives while the window is
 * not focused. Nothing is ever queued out of sight. After a window reload it
 * also lists, first, the MCP 2026-07-28 questions kept across it (Answer retries the
 * original request) and the questions the reload ended (Dismiss).
 */
import * as vscode from 'vscode';
import type { Broker, Question } from '../../core/broker/broker';
import { askerTitle, inertText, oneLine, questionTitle } from '../../core/display';
import { asksOnBehalf, turnHasEnded } from '../../core/request';
import { formSummary } from '../../core/form/questionSummary';
import { formatCountdown } from '../../core/time/countdown';
import { treeRedraw } from '../treeRedraw';
import { RenewedTreeView } from '../renewedTreeView';
import type { KeptRounds, KeptRoundSummary } from './keptRounds';
import type { LostQuestion, LostQuestions } from './lostQuestions';
import type { RemoteQuestion } from '../../core/windows/protocol';

export const PENDING_VIEW = 'elicit.pendingQuestions';

/** Brings a question's UI to the front; the form renderer knows its panels. */
export type Revealer = (question: Question) => boolean;

/** A question kept across a reload, or one the reload ended. */
type FromBefore = { kind: 'kept'; round: KeptRoundSummary } | { kind: 'lost'; question: LostQuestion };
/** A question waiting in another Elicit window. */
type Remote = { kind: 'remote'; remote: RemoteQuestion };
type PendingItem = Question | FromBefore | Remote;

/** The questions of other windows (OtherWindows in ../windows). */
export interface OtherWindowsQueue {
  remote(): RemoteQuestion[];
  readonly onDidChange: vscode.Event<void>;
  answer(remote: RemoteQuestion): Promise<void>;
}

export interface FromBeforeReload {
  kept: KeptRounds;
  lost: LostQuestions;
  /** Answers a kept round: asks it now, retries its request, shows the result. */
  answer(round: KeptRoundSummary): Promise<void>;
}

/** How long after a resume a second Answer of the same question is the same gesture (a double-click), not a new one. */
const RESUME_GRACE_MS = 1_500;

export class PendingQuestions implements vscode.TreeDataProvider<PendingItem>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<PendingItem | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  /** Rows in the list as last drawn: a long list is drawn again less often. */
  private rowsDrawn = 0;
  private readonly redraw = treeRedraw(
    () => {
      this.view.renewIfDue();
      this.changes.fire(undefined);
    },
    () => this.rowsDrawn,
  );
  private readonly statusItem = vscode.window.createStatusBarItem('elicit.pending', vscode.StatusBarAlignment.Left, 100);
  private readonly disposables: vscode.Disposable[] = [];
  private readonly announced = new Set<number>();
  private readonly announcedRemote = new Set<string>();
  private ageTimer: NodeJS.Timeout | undefined;
  /** Moves the rows of questions with an asker's own timer every second, while the view shows. */
  private countdownTimer: NodeJS.Timeout | undefined;
  private lastResumed: { id: number; at: number } | undefined;
  /** Watches for the kept round last opened to be asked (sayWhenItWaits). */
  private waitNotice: vscode.Disposable | undefined;
  private readonly view: RenewedTreeView<PendingItem>;
  /** Questions answered from memory in this window: said in the view's header. */
  private automatic = 0;

  constructor(
    private readonly broker: Broker,
    private readonly reveal: Revealer,
    private readonly before: FromBeforeReload,
    private readonly others?: OtherWindowsQueue,
  ) {
    this.statusItem.name = vscode.l10n.t('Elicit: Pending Questions');
    this.statusItem.command = 'elicit.showPendingQuestions';
    this.view = new RenewedTreeView(PENDING_VIEW, { treeDataProvider: this });
    this.disposables.push(
      this.changes,
      this.statusItem,
      this.view,
      broker.onDidAnswer((answered) => (answered.automatic ?? answered.rule) && this.countAutomatic()),
      broker.onDidChange(() => this.update()),
      this.view.onDidChangeVisibility(() => this.keepCountdowns()),
      before.kept.onDidChange(() => this.update()),
      before.lost.onDidChange(() => this.update()),
      ...(others ? [others.onDidChange(() => this.update())] : []),
      vscode.commands.registerCommand('elicit.showPendingQuestions', () => vscode.commands.executeCommand(`${PENDING_VIEW}.focus`)),
      // A row's own click (rowCommand) names no row: the row is the one selected as it was clicked.
      vscode.commands.registerCommand('elicit.answerQuestion', (item?: PendingItem) => {
        const row = item ?? this.view.selection[0];
        if (row) this.answerItem(row);
      }),
      vscode.commands.registerCommand('elicit.declineQuestion', (item?: PendingItem) => item && isLive(item) && broker.decline(item.id)),
      vscode.commands.registerCommand('elicit.laterQuestion', (item?: PendingItem) => item && isLive(item) && broker.later(item.id)),
      vscode.commands.registerCommand('elicit.dismissQuestion', (item?: PendingItem) => {
        if (!item) return;
        // A live question is dismissed only once its turn has ended (answered cancel: an answer would be dropped).
        if (isLive(item)) {
          if (turnHasEnded(item.request)) broker.dismiss(item.id);
        } else if (item.kind !== 'remote') void this.dismiss(item);
      }),
    );
    // Questions from before a reload are there from the start.
    if (this.fromBefore().length > 0) this.update();
  }

  getTreeItem(element: PendingItem): vscode.TreeItem {
    if (isLive(element)) return this.liveItem(element);
    return element.kind === 'remote' ? remoteItem(element) : fromBeforeItem(element);
  }

  private liveItem(question: Question): vscode.TreeItem {
    const item = new vscode.TreeItem(inertText(oneLine(rowText(question), 80)));
    item.id = String(question.id);
    const timer = timerText(question);
    item.description = inertText(
      [askerText(question), stateText(question), ...(timer ? [timer] : []), age(question.receivedAt)].join(' · '),
    );
    item.tooltip = inertText(`${questionTitle(question.request)}\n\n${oneLine(question.request.message, 600)}\n\n${askedText(question)}`);
    item.iconPath = new vscode.ThemeIcon(
      question.state === 'later' ? 'clock' : question.state === 'showing' ? 'comment-discussion' : 'watch',
    );
    // Arguments Elicit asks for the person offer Answer only; a question whose turn ended, Answer and
    // Dismiss (package.json's menus match on this).
    const kind = asksOnBehalf(question.request) ? 'onBehalf' : turnHasEnded(question.request) ? 'turnEnded' : 'question';
    item.contextValue = `${kind}.${question.state}`;
    item.command = rowCommand();
    return item;
  }

  getChildren(element?: PendingItem): PendingItem[] {
    // What came from before the reload first: it waits for the person here only, while the questions
    // being asked now also show on their own (many servers asking would push it out of sight).
    if (element) return [];
    const rows = [...this.fromBefore(), ...this.broker.pending(), ...this.fromOthers()];
    this.rowsDrawn = rows.length;
    this.view.made(rows.length);
    return rows;
  }

  private fromOthers(): Remote[] {
    return (this.others?.remote() ?? []).map((remote): Remote => ({ kind: 'remote', remote }));
  }

  private fromBefore(): FromBefore[] {
    return [
      ...this.before.kept.keptBeforeReload().map((round): FromBefore => ({ kind: 'kept', round })),
      ...this.before.lost.list().map((question): FromBefore => ({ kind: 'lost', question })),
    ];
  }

  private answerItem(item: PendingItem): void {
    if (isLive(item)) return this.answer(item);
    if (item.kind === 'remote') {
      void this.others?.answer(item.remote);
      return;
    }
    if (item.kind === 'kept') {
      this.sayWhenItWaits();
      void this.before.answer(item.round);
      return;
    }
    void vscode.window.showInformationMessage(
      inertText(
        vscode.l10n.t(
          '{0} asked this before the window reloaded, and the reload ended it: run what asked it again.',
          oneLine(item.question.asker.name, 60),
        ),
      ),
    );
  }

  private async dismiss(item: FromBefore): Promise<void> {
    if (item.kind === 'kept') await this.before.kept.dismiss(item.round.id);
    else await this.before.lost.dismiss(item.question.id);
  }

  private answer(question: Question): void {
    if (question.state === 'later') {
      this.broker.resume(question.id);
      this.lastResumed = { id: question.id, at: Date.now() };
    } else if (question.state === 'showing') this.reveal(question);
    // A double-click runs the row's command twice: the second finds the question just resumed, on its way to the screen.
    else if (this.lastResumed?.id !== question.id || Date.now() - this.lastResumed.at > RESUME_GRACE_MS) sayItComesNext();
  }

  /**
   * A kept round the person opened is asked again as a new question, next in line: when another
   * question holds the quick input it waits for that one, and the person is told so, as for a row
   * of a question waiting its turn.
   */
  private sayWhenItWaits(): void {
    this.waitNotice?.dispose();
    const before = new Set(this.broker.pending().map((q) => q.id));
    const done = (): void => {
      clearTimeout(timer);
      subscription.dispose();
    };
    const subscription = this.broker.onDidChange(() => {
      const pending = this.broker.pending();
      const asked = pending.find((q) => !before.has(q.id) && q.request.nextInLine);
      if (!asked) return;
      done();
      const waits = asked.presentation !== 'form' && pending.some((q) => q.state === 'showing' && q.presentation !== 'form');
      if (waits) sayItComesNext();
    });
    // Its server may take a while to start; past this, the question has long been asked or failed.
    const timer = setTimeout(done, 60_000);
    this.waitNotice = { dispose: done };
  }

  private countAutomatic(): void {
    this.automatic++;
    this.view.description = inertText(
      this.automatic === 1 ? vscode.l10n.t('1 answered automatically') : vscode.l10n.t('{0} answered automatically', this.automatic),
    );
  }

  private update(): void {
    const pending = this.broker.pending();
    this.redraw.request();
    const kept = this.before.kept.keptBeforeReload().length;
    const remote = this.others?.remote() ?? [];
    const count = pending.length + kept + remote.length;
    if (count === 0) {
      this.statusItem.hide();
    } else {
      const later = pending.filter((q) => q.state === 'later').length;
      this.statusItem.text = `$(comment-discussion) ${count === 1 ? vscode.l10n.t('1 question') : vscode.l10n.t('{0} questions', count)}`;
      const names = [
        ...pending.map((q) => q.request.asker.name),
        ...this.before.kept.keptBeforeReload().map((r) => r.server),
        ...remote.map((r) => r.question.asker.name),
      ]
        .map((name) => inertText(oneLine(name, 40)))
        .join(', ');
      const elsewhere = remote.length > 0 ? `\n${othersText(remote)}` : '';
      this.statusItem.tooltip = inertText(pendingTooltip(count, later, kept, names) + elsewhere);
      this.statusItem.show();
    }
    for (const question of pending) this.announce(question, count);
    for (const id of this.announced) if (!pending.some((q) => q.id === id)) this.announced.delete(id);
    for (const item of remote) this.announceRemote(item, count);
    const listed = new Set(remote.map(remoteId));
    for (const id of this.announcedRemote) if (!listed.has(id)) this.announcedRemote.delete(id);
    // Ages in the view only move while something is pending.
    if (count > 0 && !this.ageTimer) this.ageTimer = setInterval(() => this.redraw.request(), 30_000);
    if (count === 0 && this.ageTimer) {
      clearInterval(this.ageTimer);
      this.ageTimer = undefined;
    }
    this.keepCountdowns();
  }

  /** Ticks while a shown row has a running timer; stops when none has or the view is hidden. */
  private keepCountdowns(): void {
    const timed = this.view.visible ? this.broker.pending().filter(timerRuns) : [];
    if (timed.length === 0) {
      if (this.countdownTimer) clearInterval(this.countdownTimer);
      this.countdownTimer = undefined;
      return;
    }
    this.countdownTimer ??= setInterval(() => {
      const now = this.broker.pending().filter((q) => timerLeft(q) !== undefined);
      this.view.made(now.length);
      for (const question of now) this.changes.fire(question);
      // A timer that ran out shows "time up" once more, then the tick stops until the next change.
      if (!now.some(timerRuns)) this.keepCountdowns();
    }, 1000);
  }

  /** A question that arrives while the window is in the background gets a notification. */
  private announce(question: Question, count: number): void {
    if (this.announced.has(question.id)) return;
    this.announced.add(question.id);
    if (vscode.window.state.focused) return;
    const text = `${questionTitle(question.request)}: ${inertText(oneLine(question.request.message, 120))}${waitingText(count)}`;
    const answer = vscode.l10n.t('Answer');
    void vscode.window.showInformationMessage(text, answer).then((choice) => {
      const still = this.broker.pending().find((q) => q.id === question.id);
      if (choice === answer && still) this.answer(still);
    });
  }

  /**
   * A question that arrives in another window is told in the window the person
   * is in (that window tells it only when it is not the one in front).
   */
  private announceRemote(remote: RemoteQuestion, count: number): void {
    const id = remoteId(remote);
    if (this.announcedRemote.has(id)) return;
    this.announcedRemote.add(id);
    if (!vscode.window.state.focused) return;
    const { question, window } = remote;
    const text = inertText(
      vscode.l10n.t('{0} asks in {1}: {2}', oneLine(question.asker.name, 60), oneLine(window.folder, 60), oneLine(question.message, 120)) +
        waitingText(count),
    );
    const answer = vscode.l10n.t('Answer');
    void vscode.window.showInformationMessage(text, answer).then((choice) => {
      const still = this.others?.remote().find((r) => remoteId(r) === id);
      if (choice === answer && still) void this.others?.answer(still);
    });
  }

  dispose(): void {
    this.redraw.dispose();
    if (this.ageTimer) clearInterval(this.ageTimer);
    if (this.countdownTimer) clearInterval(this.countdownTimer);
    this.waitNotice?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** A question the person asked for waits for the one on screen: said, so the click does not look lost. */
function sayItComesNext(): void {
  void vscode.window.showInformationMessage(vscode.l10n.t('This question shows as soon as the one on screen is answered or put off.'));
}

function isLive(item: PendingItem): item is Question {
  return 'request' in item;
}

function remoteId(remote: RemoteQuestion): string {
  return `${remote.window.id}:${remote.question.id}`;
}

/** Another window's question: its asker and window; Answer draws it here, unless it is answered only there. */
function remoteItem({ remote }: Remote): vscode.TreeItem {
  const { question, window } = remote;
  const folder = oneLine(window.folder, 40);
  const item = new vscode.TreeItem(inertText(oneLine(question.message, 80)));
  item.id = `remote:${remoteId(remote)}`;
  const where = question.answerable ? vscode.l10n.t('in {0}', folder) : vscode.l10n.t('answer it in {0}', folder);
  item.description = inertText(`${oneLine(question.asker.name, 40)} · ${where} · ${age(question.receivedAt)}`);
  item.tooltip = inertText(
    [
      vscode.l10n.t('{0} asks', oneLine(question.asker.name, 80)),
      oneLine(question.message, 600),
      question.answerable
        ? vscode.l10n.t('Waiting in the window of {0}. Answer it here: that window checks and sends your answer.', folder)
        : vscode.l10n.t(
            'Waiting in the window of {0}, and answered only there (a secret, a link to open, or Elicit’s own prompt).',
            folder,
          ),
    ].join('\n\n'),
  );
  item.iconPath = new vscode.ThemeIcon(question.answerable ? 'multiple-windows' : 'lock');
  item.contextValue = question.answerable ? 'remoteQuestion' : 'remoteQuestion.elsewhere';
  item.command = rowCommand();
  return item;
}

/** " (3 questions waiting in all windows)", when there are others. */
function waitingText(count: number): string {
  return count > 1 ? ` ${vscode.l10n.t('({0} questions waiting in all windows)', count)}` : '';
}

/** "2 in other windows: infra, docs" */
function othersText(remote: RemoteQuestion[]): string {
  const folders = [...new Set(remote.map((r) => oneLine(r.window.folder, 40)))].join(', ');
  return vscode.l10n.t('{0} in other windows: {1}', remote.length, folders);
}

function fromBeforeItem(item: FromBefore): vscode.TreeItem {
  if (item.kind === 'kept') {
    const { round } = item;
    const tree = new vscode.TreeItem(inertText(oneLine(round.title, 80)));
    tree.id = `kept:${round.id}`;
    tree.description = inertText(`${oneLine(round.server, 40)} · ${vscode.l10n.t('kept from before the reload')} · ${age(round.keptAt)}`);
    tree.tooltip = [
      inertText(vscode.l10n.t('{0} asks', oneLine(round.server, 80))),
      inertText(oneLine(round.title, 80)),
      vscode.l10n.t('Asked before the window reloaded. Answer it now: Elicit then sends the original request again with your answers.'),
    ].join('\n\n');
    tree.iconPath = new vscode.ThemeIcon('history');
    tree.contextValue = 'keptRound';
    tree.command = rowCommand();
    return tree;
  }
  const { question } = item;
  const tree = new vscode.TreeItem(inertText(oneLine(question.message, 80)));
  tree.id = `lost:${question.id}`;
  tree.description = inertText(`${oneLine(question.asker.name, 40)} · ${vscode.l10n.t('ended by the reload')} · ${age(question.askedAt)}`);
  tree.tooltip = inertText(
    [
      askerTitle(question.asker),
      question.message,
      vscode.l10n.t(
        'The window reloaded while this question was open, which ended it: its asker was waiting on a connection the reload closed. Run what asked it again.',
      ),
    ].join('\n\n'),
  );
  tree.iconPath = new vscode.ThemeIcon('debug-disconnect');
  tree.contextValue = 'lostQuestion';
  return tree;
}

/**
 * The row's text: the question's message; for a non-blocking question, the
 * question itself, since its message is only the agent's notice about it.
 */
function rowText(question: Question): string {
  const { request } = question;
  const nonBlocking = request.mode === 'form' && request.nonBlocking !== undefined;
  return (nonBlocking && question.form && formSummary(question.form, 200)) || request.message;
}

/** The asker; for a non-blocking question, with its session too (it belongs to no tool call that would say). */
function askerText(question: Question): string {
  const { request } = question;
  const name = oneLine(request.asker.name, 40);
  const nonBlocking = request.mode === 'form' && request.nonBlocking !== undefined;
  return nonBlocking && request.asker.detail ? `${name} · ${oneLine(request.asker.detail, 40)}` : name;
}

/** "1:23 left on its timer": the asker's own timer (codex's autoResolutionMs), while its turn goes on. */
/** Milliseconds left on the asker's own timer (0 or less once it ran out); none once its turn ended. */
function timerLeft(question: Question): number | undefined {
  const at = question.request.autoResolvesAt;
  return at === undefined || turnHasEnded(question.request) ? undefined : at - Date.now();
}

function timerText(question: Question): string | undefined {
  const left = timerLeft(question);
  if (left === undefined) return undefined;
  return left > 0 ? vscode.l10n.t('{0} left on its timer', formatCountdown(left)) : vscode.l10n.t('its time is up');
}

function timerRuns(question: Question): boolean {
  return (timerLeft(question) ?? 0) > 0;
}

function stateText(question: Question): string {
  if (turnHasEnded(question.request)) return vscode.l10n.t('turn ended');
  if (question.state === 'later') return vscode.l10n.t('put off');
  return question.state === 'showing' ? vscode.l10n.t('on screen') : vscode.l10n.t('waiting');
}

/** "waiting, asked 2 min ago" */
function askedText(question: Question): string {
  const when = age(question.receivedAt);
  if (question.state === 'later') return vscode.l10n.t('put off, asked {0}', when);
  return question.state === 'showing' ? vscode.l10n.t('on screen, asked {0}', when) : vscode.l10n.t('waiting, asked {0}', when);
}

/** "3 pending, 1 put off: songs, AI agent" */
function pendingTooltip(count: number, later: number, kept: number, names: string): string {
  if (later && kept) return vscode.l10n.t('{0} pending, {1} put off, {2} kept from before a reload: {3}', count, later, kept, names);
  if (later) return vscode.l10n.t('{0} pending, {1} put off: {2}', count, later, names);
  if (kept) return vscode.l10n.t('{0} pending, {1} kept from before a reload: {2}', count, kept, names);
  return vscode.l10n.t('{0} pending: {1}', count, names);
}

function age(since: number): string {
  const seconds = Math.max(0, Math.round((Date.now() - since) / 1000));
  if (seconds < 60) return vscode.l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  return vscode.l10n.t('{0} h ago', Math.round(minutes / 60));
}

/**
 * What a click on a row (or Enter) runs: Answer, for the row selected. It carries no argument on
 * purpose. VS Code keeps a command's arguments in a cache entry of the row as drawn, and lets go of it
 * as soon as the view is drawn again (every second while questions come and go): a click in the moment
 * before the new rows are on screen found no entry, did nothing and showed "Actual command not found".
 * A command without arguments is sent as it is, and the row clicked is the view's selection by then.
 */
function rowCommand(): vscode.Command {
  return { command: 'elicit.answerQuestion', title: vscode.l10n.t('Answer') };
}
