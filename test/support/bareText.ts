/**
 * Finds text that reaches a VS Code surface without being made inert: the
 * message, detail and buttons of a notification or dialog, a progress title,
 * a quick input's title, placeholder, prompt, validation message and its
 * items' label, description and detail, a tree item's label, description and
 * tooltip, a status bar item's text and tooltip. Such a value is safe only when
 * it is built from literals, from `vscode.l10n.t` of safe arguments, or passes
 * through one of SAFE_CALLS; a local constant or a function of the same file is
 * followed to what it holds or returns. Anything else (a parameter, a property
 * of what an agent sent, a call of another module) is reported: wrap it in
 * inertText, which costs nothing on text that is already inert.
 */
import ts from 'typescript';

/** The functions whose result is inert (src/core/display.ts), and the document door. */
const SAFE_CALLS = new Set([
  'inertText',
  'askerTitle',
  'questionTitle',
  'inertMarkdown',
  // src/vscode/mcp/serversView.ts: an untrusted MarkdownString without HTML, of inert text added with appendText (escaped).
  'serverTooltip',
]);
/** Option and field names that VS Code shows as text. */
const SHOWN_OPTIONS = new Set(['title', 'placeHolder', 'placeholder', 'prompt', 'detail']);
const SHOWN_FIELDS = new Set(['title', 'placeholder', 'prompt', 'validationMessage', 'text', 'tooltip', 'description', 'label', 'detail']);
const ITEM_FIELDS = new Set(['label', 'description', 'detail', 'tooltip']);
const NOTIFICATIONS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);

export interface BareText {
  line: number;
  text: string;
}

export function bareTextIn(fileName: string, source: string): BareText[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: BareText[] = [];
  const report = (node: ts.Node): void => {
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.getText(file) });
  };
  const check = (node: ts.Expression | undefined): void => {
    if (node && !isSafe(node, file, new Set())) report(node);
  };
  const checkOptions = (node: ts.Expression | undefined, names: Set<string>): void => {
    if (!node || !ts.isObjectLiteralExpression(node)) return;
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property) && names.has(propertyName(property.name))) check(property.initializer);
      if (ts.isShorthandPropertyAssignment(property) && names.has(property.name.text)) check(property.name);
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calledName(node.expression);
      if (NOTIFICATIONS.has(name)) {
        for (const arg of node.arguments) {
          if (ts.isObjectLiteralExpression(arg)) checkOptions(arg, new Set(['detail']));
          else if (ts.isSpreadElement(arg)) check(arg.expression);
          else check(arg);
        }
      } else if (name === 'withProgress' || name === 'showInputBox') {
        checkOptions(node.arguments[0], SHOWN_OPTIONS);
      } else if (name === 'showQuickPick') {
        checkOptions(node.arguments[1], SHOWN_OPTIONS);
      }
    }
    if (ts.isNewExpression(node) && calledName(node.expression) === 'TreeItem') check(node.arguments?.[0]);
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      SHOWN_FIELDS.has(node.left.name.text) &&
      !isWebviewField(node.left)
    ) {
      // An input box's validation message may be `{ message, severity }`.
      if (ts.isObjectLiteralExpression(node.right)) checkOptions(node.right, new Set(['message']));
      else check(node.right);
    }
    // A quick pick or tree item written as an object: anything with a label.
    if (ts.isObjectLiteralExpression(node) && node.properties.some((p) => p.name && propertyName(p.name) === 'label')) {
      checkOptions(node, ITEM_FIELDS);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A webview panel's title is the editor tab's name (plain text); its `webview.html` is not a field here. */
function isWebviewField(access: ts.PropertyAccessExpression): boolean {
  return access.name.text === 'title' && /panel/i.test(access.expression.getText());
}

function calledName(callee: ts.Expression): string {
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  if (ts.isIdentifier(callee)) return callee.text;
  return '';
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

function isSafe(node: ts.Expression, file: ts.SourceFile, following: Set<string>): boolean {
  const safe = (e: ts.Expression): boolean => isSafe(e, file, following);
  if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) return true;
  if (node.kind === ts.SyntaxKind.UndefinedKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isIdentifier(node) && node.text === 'undefined') return true;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return safe(node.expression);
  if (ts.isTemplateExpression(node)) return node.templateSpans.every((span) => safe(span.expression));
  if (ts.isConditionalExpression(node)) return safe(node.whenTrue) && safe(node.whenFalse);
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      return safe(node.left) && safe(node.right);
    }
    return false;
  }
  // A count is a number: `items.length`.
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'length') return true;
  if (ts.isArrayLiteralExpression(node)) return node.elements.every((e) => safe(e));
  if (ts.isSpreadElement(node)) return safe(node.expression);
  // An entry of a constant table of this file: `KIND_ICONS[kind]`.
  if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression)) return holdsSafe(node.expression.text, file, following);
  if (ts.isObjectLiteralExpression(node)) return node.properties.every((p) => ts.isPropertyAssignment(p) && safe(p.initializer));
  if (ts.isCallExpression(node)) {
    const name = calledName(node.expression);
    if (SAFE_CALLS.has(name)) return true;
    if (ts.isPropertyAccessExpression(node.expression) && node.expression.getText(file) === 'vscode.l10n.t') {
      return node.arguments.every((arg) =>
        ts.isObjectLiteralExpression(arg) ? arg.properties.every((p) => ts.isPropertyAssignment(p) && safe(p.initializer)) : safe(arg),
      );
    }
    // `[...].join(' · ')` of safe parts.
    if (name === 'join' && ts.isPropertyAccessExpression(node.expression)) return safe(node.expression.expression);
    if (ts.isIdentifier(node.expression)) return returnsSafe(node.expression.text, file, following);
    return false;
  }
  if (ts.isIdentifier(node)) return holdsSafe(node.text, file, following);
  return false;
}

/** A constant of this file whose every declaration holds safe text. */
function holdsSafe(name: string, file: ts.SourceFile, following: Set<string>): boolean {
  if (following.has(`const ${name}`)) return true;
  following.add(`const ${name}`);
  const declarations: ts.VariableDeclaration[] = [];
  const find = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) declarations.push(node);
    ts.forEachChild(node, find);
  };
  find(file);
  return declarations.length > 0 && declarations.every((d) => d.initializer !== undefined && isSafe(d.initializer, file, following));
}

/** A function of this file whose every return gives safe text. */
function returnsSafe(name: string, file: ts.SourceFile, following: Set<string>): boolean {
  if (following.has(`function ${name}`)) return true;
  following.add(`function ${name}`);
  const declaration = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
  if (!declaration?.body) return false;
  const returned: ts.Expression[] = [];
  let bare = false;
  const find = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node !== declaration) return;
    if (ts.isReturnStatement(node)) {
      if (node.expression) returned.push(node.expression);
      else bare = true;
    }
    ts.forEachChild(node, find);
  };
  find(declaration.body);
  return !bare && returned.length > 0 && returned.every((e) => isSafe(e, file, following));
}
