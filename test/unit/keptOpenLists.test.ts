/**
 * Every quick input Elicit shows stays open when the keyboard leaves it (`ignoreFocusOut`, KEPT_OPEN):
 * a webview tab whose page loads late (a tool's result, an agent panel) takes the keyboard and would
 * close a list or question under the person's mouse. Read from the source, so a new list that forgets
 * it fails here rather than in a run where a page happened to load late.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot as root } from '../support/manifest';
import { typeScriptFiles } from '../support/sourceFiles';

/** The option's argument of each call that shows a quick input at once. */
const SHOW_CALLS: Record<string, number> = { showQuickPick: 1, showInputBox: 0 };
const CREATE_CALLS = new Set(['createQuickPick', 'createInputBox']);

/** Whether an options object literal keeps the input open: `ignoreFocusOut: true` or `...KEPT_OPEN`. */
function keepsOpen(options: ts.Expression | undefined): boolean {
  if (!options || !ts.isObjectLiteralExpression(options)) return false;
  return options.properties.some(
    (p) =>
      (ts.isSpreadAssignment(p) && ts.isIdentifier(p.expression) && p.expression.text === 'KEPT_OPEN') ||
      (ts.isPropertyAssignment(p) && p.name.getText() === 'ignoreFocusOut' && p.initializer.kind === ts.SyntaxKind.TrueKeyword),
  );
}

/** `x.ignoreFocusOut = true` or `x.ignoreFocusOut = KEPT_OPEN.ignoreFocusOut`. */
function setsKeptOpen(node: ts.Node, name: string): boolean {
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  const left = node.left;
  if (!ts.isPropertyAccessExpression(left) || left.name.text !== 'ignoreFocusOut' || left.expression.getText() !== name) return false;
  return node.right.kind === ts.SyntaxKind.TrueKeyword || node.right.getText() === 'KEPT_OPEN.ignoreFocusOut';
}

/** Each place in `file` that shows a quick input without keeping it open, as "path:line what". */
export function listsClosingOnFocusOut(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node): string =>
    `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const found: string[] = [];
  const created: Array<{ name: string; node: ts.Node }> = [];
  const assignments: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (Object.hasOwn(SHOW_CALLS, method) && !keepsOpen(node.arguments[SHOW_CALLS[method]!])) found.push(`${where(node)} ${method}`);
      if (CREATE_CALLS.has(method)) {
        const declaration = node.parent;
        if (ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name)) created.push({ name: declaration.name.text, node });
        else found.push(`${where(node)} ${method} (not kept in a variable, so its ignoreFocusOut cannot be checked)`);
      }
    }
    if (ts.isBinaryExpression(node)) assignments.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const { name, node } of created) {
    if (!assignments.some((a) => setsKeptOpen(a, name))) found.push(`${where(node)} ${name} never sets ignoreFocusOut`);
  }
  return found;
}

describe('quick inputs stay open when the keyboard leaves them', () => {
  it('every list, box and question in the VS Code layer sets ignoreFocusOut', () => {
    const files = [join(root, 'src', 'extension.ts'), ...typeScriptFiles(join(root, 'src', 'vscode'))];
    const found = files.flatMap((file) => listsClosingOnFocusOut(file, readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('finds a list without it, a created pick that never sets it, and accepts both ways of setting it', () => {
    const file = join(root, 'src', 'vscode', 'example.ts');
    const text = [
      "vscode.window.showQuickPick(items, { title: 'a' });",
      "vscode.window.showQuickPick(items, { title: 'b', ...KEPT_OPEN });",
      "vscode.window.showInputBox({ prompt: 'c', ignoreFocusOut: false });",
      "vscode.window.showInputBox({ prompt: 'd', ignoreFocusOut: true });",
      'const open = vscode.window.createQuickPick();',
      'open.ignoreFocusOut = KEPT_OPEN.ignoreFocusOut;',
      'const shut = vscode.window.createInputBox();',
      'shut.title = "e";',
    ].join('\n');
    assert.deepEqual(listsClosingOnFocusOut(file, text), [
      'src/vscode/example.ts:1 showQuickPick',
      'src/vscode/example.ts:3 showInputBox',
      'src/vscode/example.ts:7 shut never sets ignoreFocusOut',
    ]);
  });
});
