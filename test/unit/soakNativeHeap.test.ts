import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameFrames, readPerfMap } from '../soak/nativeHeap/frames';

describe('the soak native heap trace: JavaScript frames named from the perf map', () => {
  const map = readPerfMap(
    [
      '7f0000001000 100 JS:*old file.js:1:1',
      'not a map line',
      '7f0000002000 80 JS:*update ext.js:2:3',
      '7f0000001000 40 JS:+newer file.js:9:9',
    ].join('\n'),
  );

  it('names a frame by the last line that covers its address, and leaves others as they are', () => {
    const output = [
      '6.51M consumed over 557 calls from:',
      '    0x7f0000001010',
      '      in ??',
      '    0x7f0000001060',
      '      in ??',
      '    0x7f0000002050',
      '      in ??',
      '    0x7f0000009000',
      '      in ??',
      '    node::Start(int, char**)',
      '      in /usr/bin/node',
    ].join('\n');
    assert.equal(
      nameFrames(output, map),
      [
        '6.51M consumed over 557 calls from:',
        '    JS:+newer file.js:9:9',
        '    JS:*old file.js:1:1',
        '    JS:*update ext.js:2:3',
        '    0x7f0000009000',
        '    node::Start(int, char**)',
        '      in /usr/bin/node',
      ].join('\n'),
    );
  });
});
