/** API newer than the engines floor (QuickPick.prompt, 1.108) is used only where VS Code has it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { versionAtLeast } from '../../src/core/vscodeVersion';

describe('versionAtLeast', () => {
  it('compares major and minor, whatever follows', () => {
    assert.equal(versionAtLeast('1.101.0', 1, 108), false);
    assert.equal(versionAtLeast('1.107.3', 1, 108), false);
    assert.equal(versionAtLeast('1.108.0', 1, 108), true);
    assert.equal(versionAtLeast('1.108.0-insider', 1, 108), true);
    assert.equal(versionAtLeast('1.139.1', 1, 108), true);
    assert.equal(versionAtLeast('2.0.0', 1, 108), true);
    assert.equal(versionAtLeast('', 1, 108), false);
  });
});
