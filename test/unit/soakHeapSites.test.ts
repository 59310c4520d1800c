import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveOwners, liveSites, type HeapSamplingNode } from '../soak/heapSites';

const node = (functionName: string, url: string, selfSize: number, children: HeapSamplingNode[] = []): HeapSamplingNode => ({
  callFrame: { functionName, url, lineNumber: 9 },
  selfSize,
  children,
});

const elicit = '/srv/data/extensions/elicit-dev.elicit-0.1.0/dist/extension.js';
const builtIn = '/srv/lib/vscode/extensions/markdown-language-features/dist/extension.js';

describe('the soak heap sites', () => {
  const profile = {
    head: node('(root)', '', 0, [
      node('ask', elicit, 3_000, [node('JSON.parse', '', 5_000), node('push', '', 1_000)]),
      node('activate', builtIn, 2_000),
      node('(V8 API)', '', 700),
      node('other', elicit, 0, [node('ask', elicit, 4_000)]),
    ]),
  };

  it('adds up what each site allocated and still holds, and names the extension nearest on the stack', () => {
    assert.deepEqual(liveSites(profile), [
      { site: 'ask (extension.js:10)', owner: 'elicit-dev.elicit', bytes: 7_000 },
      { site: 'JSON.parse', owner: 'elicit-dev.elicit', bytes: 5_000 },
      { site: 'activate (extension.js:10)', owner: 'built-in markdown-language-features', bytes: 2_000 },
      { site: 'push', owner: 'elicit-dev.elicit', bytes: 1_000 },
      { site: '(V8 API)', owner: 'VS Code', bytes: 700 },
    ]);
  });

  it('adds up each owner', () => {
    assert.deepEqual(liveOwners(liveSites(profile)), [
      { owner: 'elicit-dev.elicit', bytes: 13_000 },
      { owner: 'built-in markdown-language-features', bytes: 2_000 },
      { owner: 'VS Code', bytes: 700 },
    ]);
  });
});
