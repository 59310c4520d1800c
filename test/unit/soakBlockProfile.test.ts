/** The soak's reading of a CPU profile: whose JavaScript ran during a long block (test/soak/blockProfile.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extensionOf, formatShares, whoRan, type CpuProfile } from '../soak/blockProfile';

const ELICIT = '/home/u/.local/share/code-server/extensions/elicit-dev.elicit-0.1.0/dist/extension.js';
const GIT = '/usr/lib/code-server/lib/vscode/extensions/git/dist/main.js';
const OTHER = '/home/u/.local/share/code-server/extensions/someone.linter-2.3.4-universal/out/main.js';
const HOST = '/usr/lib/code-server/lib/vscode/out/vs/workbench/api/node/extensionHostProcess.js';

const frame = (functionName: string, url: string, lineNumber = 0, columnNumber = 0) => ({ functionName, url, lineNumber, columnNumber });

// root → host's dispatch → Elicit's handler → JSON.parse (native, no url)
//                        → linter's check
// root → (garbage collector), (idle)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 6, 7] },
    { id: 2, callFrame: frame('dispatch', HOST, 10, 4), children: [3, 5] },
    { id: 3, callFrame: frame('onMessage', ELICIT, 1, 500), children: [4] },
    { id: 4, callFrame: frame('parse', ''), children: [] },
    { id: 5, callFrame: frame('check', OTHER, 7, 2), children: [] },
    { id: 6, callFrame: frame('(garbage collector)', ''), children: [] },
    { id: 7, callFrame: frame('(idle)', ''), children: [] },
  ],
  startTime: 5_000_000,
  // One sample each 10 ms (10,000 µs): four of Elicit (two in JSON.parse under it), two of the linter, one GC, one of the host alone, idle.
  samples: [3, 4, 4, 3, 5, 5, 6, 2, 7, 3],
  timeDeltas: [0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000],
};
const startedAt = 1_800_000_000_000;

describe('whose JavaScript ran in a long block', () => {
  it('names the extension from its folder, whatever its version and platform', () => {
    assert.equal(extensionOf(ELICIT), 'elicit-dev.elicit');
    assert.equal(extensionOf(OTHER), 'someone.linter');
    assert.equal(extensionOf(HOST), undefined);
    // Built-in extensions have no version in their folder.
    assert.equal(extensionOf(GIT), 'built-in git');
  });

  it('gives native work to the extension that called it, and the rest to the host, GC apart', () => {
    const shares = whoRan({ profile, startedAt }, startedAt, startedAt + 1_000);
    assert.deepEqual(
      shares.map((s) => [s.owner, s.ms]),
      [
        ['elicit-dev.elicit', 40],
        ['someone.linter', 20],
        ['garbage collection', 10],
        ["VS Code's host", 10],
      ],
    );
    assert.equal(shares[0]!.top, 'onMessage extension.js:2:501');
    assert.equal(shares[1]!.top, 'check main.js:8:3');
  });

  it('counts only the samples inside the block', () => {
    // 0–30 ms: the first three samples (at 0, 10, 20 ms), all Elicit's.
    const shares = whoRan({ profile, startedAt }, startedAt, startedAt + 30);
    assert.deepEqual(
      shares.map((s) => [s.owner, s.ms]),
      [['elicit-dev.elicit', 30]],
    );
    assert.equal(formatShares(shares), 'elicit-dev.elicit 30 ms (onMessage extension.js:2:501)');
    assert.equal(formatShares(whoRan({ profile, startedAt }, startedAt + 5_000, startedAt + 6_000)), 'nothing sampled');
  });
});
