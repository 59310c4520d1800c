/**
 * The runtime strings of the VS Code layer are localizable: each goes through
 * `vscode.l10n.t`, and `l10n/bundle.l10n.json` (the English bundle VS Code
 * reads, `npm run l10n`) holds exactly what the source asks for. A string
 * added without regenerating the bundle, or shown without `l10n.t`, fails here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { readRawManifest, repoRoot as root } from '../support/manifest';
import { typeScriptFiles } from '../support/sourceFiles';

const cli = join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The files of the VS Code layer: src/vscode/** and src/extension.ts. */
function vscodeLayerFiles(): string[] {
  return [join(root, 'src', 'extension.ts'), ...typeScriptFiles(join(root, 'src', 'vscode'))].sort();
}

/** Notification and dialog methods whose string arguments a person reads. */
const SHOW_MESSAGE = /^show(Information|Warning|Error)Message$/;
/** Properties a person reads in quick inputs, tree items, status bar items and commands. */
const SHOWN_PROPERTIES = new Set([
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'tooltip',
  'label',
  'description',
  'detail',
  'validationMessage',
]);

interface Finding {
  where: string;
  text: string;
}

/** Words in written text; `$(key)` is an icon, not a word. */
function hasWords(text: string): boolean {
  return /[A-Za-z]{2}/.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** A string written in the source that has words in it: `'Open'`, `` `Forget ${n} secrets?` ``; not `''` or `` `$(key) ${x}` ``. */
function wordyLiteral(node: ts.Node): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text);
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].some(hasWords);
  if (ts.isParenthesizedExpression(node)) return wordyLiteral(node.expression);
  if (ts.isConditionalExpression(node)) return wordyLiteral(node.whenTrue) || wordyLiteral(node.whenFalse);
  // inertText('…') is still a bare literal.
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'inertText' && node.arguments[0]) {
    return wordyLiteral(node.arguments[0]);
  }
  return false;
}

/**
 * `{ kind: 'mcp', name, detail: 'arguments for …' }`: who asks. Like the names and details askers give
 * themselves, it is kept, listed and shown as it is (English, as the core's "… asks" around it).
 */
function askerIdentity(node: ts.PropertyAssignment, source: ts.SourceFile): boolean {
  return (
    node.name.getText(source) === 'detail' &&
    ts.isObjectLiteralExpression(node.parent) &&
    node.parent.properties.some((p) => p.name?.getText(source) === 'kind')
  );
}

function isL10nCall(node: ts.Node): boolean {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 't' &&
    ts.isPropertyAccessExpression(node.expression.expression) &&
    node.expression.expression.name.text === 'l10n'
  );
}

/** Bare user-facing literals and `l10n.t` calls in one file's text. */
export function scan(fileName: string, text: string): { bare: Finding[]; l10nCalls: number } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const bare: Finding[] = [];
  let l10nCalls = 0;
  const report = (node: ts.Node): void => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    bare.push({ where: `${fileName}:${line + 1}`, text: node.getText(source).slice(0, 100) });
  };
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) l10nCalls++;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SHOW_MESSAGE.test(node.expression.name.text)) {
      // The message and the button labels; the options object ({ modal, detail }) is checked as properties below.
      for (const arg of node.arguments) if (wordyLiteral(arg)) report(arg);
    }
    if (
      ts.isPropertyAssignment(node) &&
      SHOWN_PROPERTIES.has(node.name.getText(source)) &&
      wordyLiteral(node.initializer) &&
      !askerIdentity(node, source)
    ) {
      report(node.initializer);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      SHOWN_PROPERTIES.has(node.left.name.text) &&
      wordyLiteral(node.right)
    ) {
      report(node.right);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { bare, l10nCalls };
}

describe('runtime strings (vscode.l10n.t)', () => {
  it('l10n/bundle.l10n.json is what `npm run l10n` exports from the source now', () => {
    const out = mkdtempSync(join(tmpdir(), 'elicit-l10n-'));
    try {
      execFileSync(process.execPath, [cli, 'export', '--outDir', out, 'src'], { cwd: root, stdio: 'pipe' });
      const exported = readJson(join(out, 'bundle.l10n.json'));
      const committed = readJson(join(root, 'l10n', 'bundle.l10n.json'));
      const missing = Object.keys(exported).filter((key) => !(key in committed));
      const stale = Object.keys(committed).filter((key) => !(key in exported));
      assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'run `npm run l10n` and commit l10n/bundle.l10n.json');
      assert.deepEqual(committed, exported);
      assert.ok(Object.keys(exported).length > 150, `${Object.keys(exported).length} strings`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('the English bundle says in English exactly what the source does', () => {
    const bundle = readJson(join(root, 'l10n', 'bundle.l10n.json'));
    for (const [key, value] of Object.entries(bundle)) assert.equal(value, key);
    // Texts the end-to-end tests look for, word for word.
    for (const text of [
      'Allow',
      'Refuse',
      'Forget',
      'Use saved value',
      'Decline: tell the asker you will not answer',
      'Elicit: {0}',
      'Run MCP Tool · {0} · {1}',
    ]) {
      assert.ok(text in bundle, text);
    }
  });

  it('package.json points VS Code at the bundle, and the VSIX ships it', () => {
    const manifest = readRawManifest() as { l10n?: string; scripts: Record<string, string> };
    assert.equal(manifest.l10n, './l10n');
    assert.match(manifest.scripts.l10n!, /^vscode-l10n-dev export --outDir l10n src$/);
    assert.match(readFileSync(join(root, '.vscodeignore'), 'utf8'), /^!l10n\/\*\*$/m);
  });

  it('the scan finds bare strings where there are some', () => {
    const sample = [
      "vscode.window.showInformationMessage('Elicit has no saved secrets.');",
      'vscode.window.showErrorMessage(inertText(`Elicit: ${name} failed`), vscode.l10n.t("Show Log"));',
      "vscode.window.showWarningMessage(vscode.l10n.t('Forget?'), { modal: true }, 'Forget');",
      "pick.placeholder = 'Pick a tool';",
      "const item = { label: 'Yes', value: true, description: `as typed` };",
      // Not findings: translated, no words, or a log line.
      "vscode.window.showInformationMessage(vscode.l10n.t('Elicit forgot {0} saved secrets.', count));",
      "const extras = [{ label: '', kind: 1 }, { label: `$(key) ${vscode.l10n.t('Use saved value')}` }];",
      "log.info('activated');",
      "const asker = { kind: 'mcp', name: server.name, detail: `arguments for ${tool.name}` };",
    ].join('\n');
    const { bare, l10nCalls } = scan('sample.ts', sample);
    assert.deepEqual(
      bare.map((f) => f.text),
      ["'Elicit has no saved secrets.'", 'inertText(`Elicit: ${name} failed`)', "'Forget'", "'Pick a tool'", "'Yes'", '`as typed`'],
    );
    assert.equal(l10nCalls, 4);
  });

  it('src/vscode shows no notification, dialog, quick input or tree text outside vscode.l10n.t', () => {
    let calls = 0;
    const bare: Finding[] = [];
    const withCalls: string[] = [];
    for (const file of vscodeLayerFiles()) {
      const name = relative(root, file);
      const result = scan(name, readFileSync(file, 'utf8'));
      calls += result.l10nCalls;
      bare.push(...result.bare);
      if (result.l10nCalls > 0) withCalls.push(name);
    }
    assert.deepEqual(bare, [], 'user-facing text not passed through vscode.l10n.t');
    // It did look: the calls it knows of are there, in the files that show things.
    assert.ok(calls >= 200, `${calls} vscode.l10n.t calls`);
    for (const file of [
      'src/vscode/questions/quickInputRenderer.ts',
      'src/vscode/questions/pendingQuestions.ts',
      'src/vscode/mcp/serversView.ts',
      'src/vscode/acp/agentPanel.ts',
    ]) {
      assert.ok(withCalls.includes(file), file);
    }
  });
});
