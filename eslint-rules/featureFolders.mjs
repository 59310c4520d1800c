// A lint rule for the VS Code layer (src/vscode): a folder per feature, and files directly in
// src/vscode shared by them. A feature's file imports its own folder and the shared files, never
// another feature's folder; a shared file imports no feature folder. So the layer flows one way, from
// src/extension.ts (the composition root, outside the folder, which wires features together) through
// each feature's register.ts to the shared files.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The feature folder a path lies in, or undefined for a shared file (or a path outside `folder`). */
function featureOf(folder, file) {
  const relative = path.relative(folder, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [first, ...rest] = relative.split(path.sep);
  if (rest.length > 0) return first;
  // `../mcp` names the folder itself (its index).
  return fs.existsSync(file) && fs.statSync(file).isDirectory() ? first : undefined;
}

function insideFolder(folder, file) {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A feature folder of the VS Code layer imports no other feature folder; a shared file imports none' },
    schema: [{ type: 'object', properties: { folder: { type: 'string' } }, required: ['folder'], additionalProperties: false }],
    messages: {
      otherFeature:
        '{{file}} (feature {{feature}}) imports {{target}} of feature {{other}}: a feature reaches another only through a shared file in {{folder}} (an interface it declares, implemented by the feature), or through src/extension.ts.',
      sharedImportsFeature:
        '{{file}} is shared by the features, so it imports none of them ({{target}} is feature {{other}}): declare what it needs here and let the feature implement it.',
    },
  },
  create(context) {
    const folder = path.resolve(context.cwd, context.options[0].folder);
    const file = context.filename;
    if (!insideFolder(folder, file)) return {};
    const feature = featureOf(folder, file);
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), specifier);
      if (!insideFolder(folder, target)) return;
      const other = featureOf(folder, target);
      if (other === undefined || other === feature) return;
      const data = {
        file: path.relative(context.cwd, file),
        target: path.relative(context.cwd, target),
        feature,
        other,
        folder: path.relative(context.cwd, folder),
      };
      context.report({ node, messageId: feature === undefined ? 'sharedImportsFeature' : 'otherFeature', data });
    };
    const fromSource = (node) => node.source && check(node, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: fromSource,
      // typeof import('../x') and import x = require('../x')
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.parameter?.literal?.value),
      TSExternalModuleReference: (node) => check(node, node.expression?.value),
      // require('../x'): a bundle loaded on first use
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal')
          check(node, node.arguments[0].value);
      },
    };
  },
};
