/**
 * CONTRIBUTING.md draws the source tree, a folder a line, indented two spaces a level. A folder
 * added without a line there, or one named there that is gone, fails here: a guide that says where
 * things are must not go wrong quietly.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(import.meta.dirname, '..', '..');
const TOPS = ['src', 'webview'];

/** Every folder under `src/` and `webview/`, as `src/core/form`. */
function foldersOnDisk(): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    found.push(relative);
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${relative}/${entry.name}`);
    }
  };
  for (const top of TOPS) walk(top);
  return found.sort();
}

/**
 * The folders the tree names: a line is one or more `name/` at its indentation (two spaces a level),
 * then what they hold; a deeper line belongs to the last folder above it.
 */
function foldersInTree(markdown: string): string[] {
  const blocks: string[] = [];
  let open: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      if (open) blocks.push(open.join('\n'));
      open = open ? undefined : [];
    } else open?.push(line);
  }
  const tree = blocks.find((block) => TOPS.every((top) => new RegExp(`^${top}/`, 'm').test(block)));
  if (!tree) throw new Error('CONTRIBUTING.md has no tree with src/ and webview/ at its top level');
  const named = new Set<string>();
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^( *)((?:[\w.-]+\/ *)+)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 2;
    if (!Number.isInteger(depth) || depth > parents.length) continue;
    parents.length = depth;
    const names = match[2]!
      .split('/')
      .map((name) => name.trim())
      .filter(Boolean);
    if (depth === 0 && !names.every((name) => TOPS.includes(name))) continue;
    for (const name of names) named.add([...parents, name].join('/'));
    // Only a line naming one folder can hold deeper lines.
    if (names.length === 1) parents.push(names[0]!);
    else parents.push('\0');
  }
  return [...named].sort();
}

describe("CONTRIBUTING's source tree", () => {
  const markdown = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');

  it('names every folder of src/ and webview/, and no folder that is gone', () => {
    const inTree = foldersInTree(markdown);
    const onDisk = foldersOnDisk();
    assert.deepEqual(
      { missing: onDisk.filter((f) => !inTree.includes(f)), gone: inTree.filter((f) => !onDisk.includes(f)) },
      { missing: [], gone: [] },
    );
  });

  it('fails on a folder added without its line, and on a line of a folder that is gone', () => {
    const tree = '```\nsrc/\n  core/\n    form/         the field model\n  mcp/ acp/     the clients\nwebview/\n```\n';
    assert.deepEqual(foldersInTree(tree), ['src', 'src/acp', 'src/core', 'src/core/form', 'src/mcp', 'webview']);
    // A folder written under the wrong parent is not that folder.
    assert.ok(!foldersInTree('```\nsrc/\n  form/\nwebview/\n```\n').includes('src/core/form'));
  });
});
