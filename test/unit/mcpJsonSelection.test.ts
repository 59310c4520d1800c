/** elicit.mcpJsonServers: which servers of .vscode/mcp.json Elicit connects, the rest left to VS Code's own MCP. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SELECTION, readSelection, selectsServer } from '../../src/mcp/mcpJsonSelection';

const names = ['github', 'docs', 'weather'];
const picked = (rules: readonly string[]): string[] => names.filter((name) => selectsServer(rules, name));

describe('elicit.mcpJsonServers', () => {
  it('"*" takes every server, and is the default', () => {
    assert.deepEqual(picked(DEFAULT_SELECTION), names);
    assert.deepEqual(picked(['*']), names);
  });

  it('"!name" leaves a server out, whatever else the list says', () => {
    assert.deepEqual(picked(['*', '!github']), ['docs', 'weather']);
    assert.deepEqual(picked(['github', '!github', 'docs']), ['docs']);
    assert.deepEqual(picked([' !github ', '*']), ['docs', 'weather']);
  });

  it('names take only those servers; an empty list takes none', () => {
    assert.deepEqual(picked(['docs', 'weather', 'not-there']), ['docs', 'weather']);
    assert.deepEqual(picked([]), []);
    // A name is matched whole: no patterns beyond "*".
    assert.deepEqual(picked(['git*', 'Docs']), []);
  });

  it('reads only a list of strings; anything else is the default', () => {
    assert.deepEqual(readSelection(['a', '!b']), ['a', '!b']);
    assert.deepEqual(readSelection([]), []);
    for (const odd of [undefined, null, '*', { github: true }, [1, 'a']])
      assert.deepEqual(readSelection(odd), DEFAULT_SELECTION, JSON.stringify(odd));
  });
});
