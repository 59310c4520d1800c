/**
 * The Remembered Answers view: each asker, and under it its rules (always
 * decline, never open links) and each answer with its
 * question, value, scope, when it was remembered and last used, and how
 * often; forget one, all of an asker, or everything. Forgetting answers never
 * touches saved secrets (Manage Saved Secrets), and the other way round.
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import type { AnswerMemory, RememberedAnswer } from '../../core/memory/answerMemory';
import type { AskerRule } from '../../core/memory/askerRules';

export const REMEMBERED_VIEW = 'elicit.rememberedAnswers';

type AskerNode = { kind: 'asker'; key: string; name: string; askerKind: string; answers: RememberedAnswer[]; rules: AskerRule[] };
type AnswerNode = { kind: 'answer'; answer: RememberedAnswer };
type RuleNode = { kind: 'rule'; rule: AskerRule };
type Node = AskerNode | AnswerNode | RuleNode;

export class RememberedAnswersView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly memory: AnswerMemory) {
    const view = vscode.window.createTreeView(REMEMBERED_VIEW, { treeDataProvider: this });
    this.disposables.push(
      this.changes,
      view,
      memory.onDidChange(() => this.changes.fire(undefined)),
      vscode.commands.registerCommand('elicit.showRememberedAnswers', () => vscode.commands.executeCommand(`${REMEMBERED_VIEW}.focus`)),
      vscode.commands.registerCommand('elicit.forgetRememberedAnswer', (target?: Node | string[]) => this.forget(target)),
      vscode.commands.registerCommand(
        'elicit.forgetAskerAnswers',
        (node?: Node) => node?.kind === 'asker' && this.memory.forgetAsker(node.key),
      ),
      vscode.commands.registerCommand('elicit.forgetAllRememberedAnswers', () => this.forgetAll()),
      vscode.commands.registerCommand('elicit.forgetAskerRule', (target?: Node | string) => {
        const id = typeof target === 'string' ? target : target?.kind === 'rule' ? target.rule.id : undefined;
        return id && this.memory.rules.forget(id);
      }),
    );
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'asker')
      return [
        ...node.rules.map((rule): Node => ({ kind: 'rule', rule })),
        ...node.answers.map((answer): Node => ({ kind: 'answer', answer })),
      ];
    if (node) return [];
    const askers = new Map<string, AskerNode>();
    const askerOf = (asker: RememberedAnswer['asker']): AskerNode => {
      let found = askers.get(asker.key);
      if (!found) {
        found = { kind: 'asker', key: asker.key, name: asker.name, askerKind: asker.kind, answers: [], rules: [] };
        askers.set(asker.key, found);
      }
      return found;
    };
    for (const rule of this.memory.rules.list()) askerOf(rule.asker).rules.push(rule);
    for (const answer of this.memory.list()) askerOf(answer.asker).answers.push(answer);
    return [...askers.values()];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'asker') {
      const item = new vscode.TreeItem(inertText(oneLine(node.name, 60)), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `asker:${node.key}`;
      // Two askers may share a name: the start of their origin digest tells them apart.
      const origin = node.key.slice(node.key.indexOf(':') + 1, node.key.indexOf(':') + 7);
      item.description = inertText(
        `${node.askerKind}${origin ? ` · ${origin}` : ''} · ${vscode.l10n.t('{0} answers', node.answers.length)}${node.rules.length ? ` · ${vscode.l10n.t('{0} rules', node.rules.length)}` : ''}`,
      );
      item.contextValue = 'rememberedAsker';
      item.iconPath = new vscode.ThemeIcon('account');
      return item;
    }
    if (node.kind === 'rule') return ruleItem(node.rule);
    const { answer } = node;
    const values = answer.shown.map((field) => `${field.label} = ${field.value}`).join(', ');
    const item = new vscode.TreeItem(inertText(oneLine(answer.message, 80)));
    item.id = `answer:${answer.id}`;
    const scope = answer.scope === 'always' ? vscode.l10n.t('always') : vscode.l10n.t('this session');
    item.description = inertText(`${oneLine(values, 60)} · ${scope} · ${vscode.l10n.t('used {0}×', answer.count)}`);
    const lastUsed = answer.lastUsed === undefined ? vscode.l10n.t('never') : new Date(answer.lastUsed).toLocaleString();
    item.tooltip = inertText(
      [
        ...(answer.detail ? [vscode.l10n.t('Asked during: {0}', oneLine(answer.detail, 120))] : []),
        oneLine(answer.message, 600),
        '',
        ...answer.shown.map((field) => `${field.label} = ${field.value}`),
        '',
        vscode.l10n.t('Remembered: {0} ({1})', new Date(answer.created).toLocaleString(), scope),
        vscode.l10n.t('Last used: {0} · {1} times', lastUsed, answer.count),
      ].join('\n'),
    );
    item.contextValue = 'rememberedAnswer';
    item.iconPath = new vscode.ThemeIcon(answer.scope === 'always' ? 'pinned' : 'history');
    return item;
  }

  private async forget(target: Node | string[] | undefined): Promise<void> {
    if (Array.isArray(target)) {
      for (const id of target) if (typeof id === 'string') await this.memory.forget(id);
      vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Forgotten: the question will be asked again')}`, 5_000);
    } else if (target?.kind === 'answer') await this.memory.forget(target.answer.id);
    else if (target?.kind === 'rule') await this.memory.rules.forget(target.rule.id);
    else if (target?.kind === 'asker') await this.memory.forgetAsker(target.key);
  }

  private async forgetAll(): Promise<void> {
    const forget = vscode.l10n.t('Forget All');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Forget every remembered answer?'),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} answers and {1} rules. Each question will be asked again. Saved secrets stay.',
          this.memory.list().length,
          this.memory.rules.list().length,
        ),
      },
      forget,
    );
    if (choice === forget) await this.memory.forgetAll();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function ruleItem(rule: AskerRule): vscode.TreeItem {
  const label =
    rule.kind === 'noLinks'
      ? vscode.l10n.t('Never open links')
      : vscode.l10n.t('Always decline: {0}', oneLine(rule.question?.message ?? '', 60));
  const item = new vscode.TreeItem(inertText(label));
  item.id = `rule:${rule.id}`;
  item.description = inertText(vscode.l10n.t('rule · used {0}×', rule.count));
  const lastUsed = rule.lastUsed === undefined ? vscode.l10n.t('never') : new Date(rule.lastUsed).toLocaleString();
  item.tooltip = inertText(
    [
      rule.question ? oneLine(rule.question.message, 600) : vscode.l10n.t('Every page this asker asks you to open is declined.'),
      '',
      vscode.l10n.t('Set: {0}', new Date(rule.created).toLocaleString()),
      vscode.l10n.t('Last used: {0} · {1} times', lastUsed, rule.count),
    ].join('\n'),
  );
  item.contextValue = 'askerRule';
  item.iconPath = new vscode.ThemeIcon('circle-slash');
  return item;
}
