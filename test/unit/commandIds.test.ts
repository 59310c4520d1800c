/**
 * The command ids registered in code and those package.json contributes are
 * the same set: a command contributed but never registered fails when run
 * ("command not found"), and one registered but not contributed has no title
 * in the Command Palette or a menu.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readRawManifest, repoRoot } from '../support/manifest';
import { typeScriptFiles } from '../support/sourceFiles';

/** `registerCommand('elicit.x', …)`, also split over lines, and `registerCommand(NAME, …)` with `const NAME = 'elicit.x'` in the same file. */
function registeredInCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of typeScriptFiles(path.join(repoRoot, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(repoRoot, file);
    for (const [, id] of text.matchAll(/registerCommand\(\s*'(elicit\.[^']+)'/g)) found.set(id!, where);
    for (const [, name] of text.matchAll(/registerCommand\(\s*([A-Z][A-Z0-9_]*)\s*,/g)) {
      const value = new RegExp(`const ${name} = '([^']+)'`).exec(text)?.[1];
      assert.ok(value, `${where}: registerCommand(${name}) with no const ${name} = '…' in the file`);
      found.set(value, where);
    }
    assert.doesNotMatch(text, /registerCommand\(\s*`/, `${where}: a command id built at run time cannot be checked`);
  }
  return found;
}

const manifest = readRawManifest() as {
  contributes: { commands: Array<{ command: string }> };
};

describe('command ids', () => {
  const inCode = registeredInCode();
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));

  it('finds the commands registered in code', () => {
    assert.ok(inCode.size >= 25, `only ${inCode.size} found: the pattern no longer matches the code`);
  });

  it('registers every command package.json contributes', () => {
    const missing = [...contributed].filter((id) => !inCode.has(id));
    assert.deepEqual(missing, [], `contributed but never registered: ${missing.join(', ')}`);
  });

  it('contributes every command registered in code', () => {
    const missing = [...inCode].filter(([id]) => !contributed.has(id)).map(([id, file]) => `${id} (${file})`);
    assert.deepEqual(missing, [], `registered but not in package.json: ${missing.join(', ')}`);
  });
});
