/**
 * Where the last host's growing heap was allocated: with `--heap`, the driver runs V8's sampling heap
 * profiler from the servers' start to the end, and takes its profile after a full collection, so it
 * holds only what is still alive then: what the run allocated and kept. Each site is the function
 * that allocated it, and the extension whose code was nearest on the stack.
 */
import * as fs from 'node:fs';
import { extensionOf } from './blockProfile';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface HeapSamplingNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapSamplingNode[];
}

export interface HeapSamplingProfile {
  head: HeapSamplingNode;
}

export interface LiveSite {
  /** "function (file:line)", or V8's own name for what it allocated outside JavaScript. */
  site: string;
  /** The extension with code nearest the allocation on the stack, "built-in <folder>" for VS Code's, or "VS Code" for none. */
  owner: string;
  bytes: number;
}

export function readHeapProfile(file: string): HeapSamplingProfile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HeapSamplingProfile;
}

/** What is still alive, by the site that allocated it, most first. */
export function liveSites(profile: HeapSamplingProfile): LiveSite[] {
  const sites = new Map<string, LiveSite>();
  const walk = (node: HeapSamplingNode, owner: string | undefined): void => {
    const own = extensionOf(node.callFrame.url) ?? owner;
    if (node.selfSize > 0) {
      const site = siteName(node.callFrame);
      const key = `${own ?? 'VS Code'}\n${site}`;
      const entry = sites.get(key) ?? { site, owner: own ?? 'VS Code', bytes: 0 };
      entry.bytes += node.selfSize;
      sites.set(key, entry);
    }
    for (const child of node.children) walk(child, own);
  };
  walk(profile.head, undefined);
  return [...sites.values()].sort((a, b) => b.bytes - a.bytes);
}

/** The live bytes of each owner, most first. */
export function liveOwners(sites: readonly LiveSite[]): Array<{ owner: string; bytes: number }> {
  const owners = new Map<string, number>();
  for (const site of sites) owners.set(site.owner, (owners.get(site.owner) ?? 0) + site.bytes);
  return [...owners].map(([owner, bytes]) => ({ owner, bytes })).sort((a, b) => b.bytes - a.bytes);
}

function siteName(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name} (${frame.url.split('/').pop()}:${frame.lineNumber + 1})`;
}
