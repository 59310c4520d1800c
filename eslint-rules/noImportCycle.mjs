// A lint rule: no file in a folder (src/core) takes part in a circle of imports inside it.
// The file being linted is read from its own text (so a planted import is seen); the other
// files of the folder from disk, with TypeScript's pre-processor, once per lint run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** Per folder: each file's imports inside the folder, as absolute paths without extension. */
const graphs = new Map();

function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return undefined;
}

function folderGraph(folder) {
  let graph = graphs.get(folder);
  if (graph) return graph;
  graph = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const refs = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.map((r) => r.fileName);
        graph.set(file, inside(folder, file, refs));
      }
    }
  };
  walk(folder);
  graphs.set(folder, graph);
  return graph;
}

function inside(folder, file, specifiers) {
  const targets = specifiers.map((s) => resolveImport(file, s)).filter((t) => t !== undefined && t.startsWith(folder + path.sep));
  return [...new Set(targets)];
}

/** A path of imports from `start` back to `goal`, or undefined. */
function pathBack(graph, start, goal) {
  const seen = new Set();
  const walk = (file, trail) => {
    if (file === goal) return trail;
    if (seen.has(file)) return undefined;
    seen.add(file);
    for (const next of graph.get(file) ?? []) {
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No circle of imports inside the folder' },
    schema: [{ type: 'object', properties: { folder: { type: 'string' } }, required: ['folder'], additionalProperties: false }],
    messages: { cycle: 'A circle of imports: {{cycle}}. Move what both sides need to a file both import.' },
  },
  create(context) {
    const folder = path.resolve(context.cwd, context.options[0].folder);
    const file = context.filename;
    if (!file.startsWith(folder + path.sep)) return {};
    const specifiers = [];
    const take = (node) => {
      if (node.source && typeof node.source.value === 'string') specifiers.push([node, node.source.value]);
    };
    return {
      ImportDeclaration: take,
      ExportNamedDeclaration: take,
      ExportAllDeclaration: take,
      ImportExpression: take,
      'Program:exit'() {
        const graph = new Map(folderGraph(folder));
        graph.set(file, []);
        for (const [node, specifier] of specifiers) {
          const target = resolveImport(file, specifier);
          if (!target || !target.startsWith(folder + path.sep)) continue;
          const back = target === file ? [file] : pathBack(graph, target, file);
          if (!back) continue;
          const cycle = [file, ...back].map((f) => path.relative(context.cwd, f)).join(' → ');
          context.report({ node, messageId: 'cycle', data: { cycle } });
        }
      },
    };
  },
};
