/**
 * Whose JavaScript ran during a long block of the extension host, from the driver's CPU profile
 * (`npm run soak -- --profile`): each sample goes to the extension whose code is nearest the top of
 * its stack, or to VS Code's host itself, garbage collection or the host's own native work.
 */
import * as fs from 'node:fs';

/** The parts of a V8 CPU profile (Profiler.stop) that are read here. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  /** Microseconds, on the profiler's clock. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A profile and the wall-clock time (epoch ms) its profiler started at. */
export interface TimedProfile {
  profile: CpuProfile;
  startedAt: number;
}

export interface Share {
  /** "elicit-dev.elicit", "VS Code's host", "garbage collection", "native (program)". */
  owner: string;
  ms: number;
  /** The owner's function that was on top most often ("start extension.js:2:1234"). */
  top: string;
}

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'native (program)',
  '(idle)': 'idle',
  '(root)': 'idle',
};

/**
 * The extension a script belongs to, from its folder under an extensions folder: an installed one's
 * ("publisher.name-1.2.3") by its id, one built into VS Code (no version) as "built-in name".
 */
export function extensionOf(url: string): string | undefined {
  const folder = /\/extensions\/([^/]+)\//.exec(url)?.[1];
  if (!folder) return undefined;
  const installed = /^(.+?)-\d+\.\d+\.\d+/.exec(folder);
  return installed ? installed[1] : `built-in ${folder}`;
}

export function readProfile(file: string, startedAt: number): TimedProfile {
  return { profile: JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, startedAt };
}

/** Who ran between `from` and `to` (epoch ms), most first. */
export function whoRan(timed: TimedProfile, from: number, to: number): Share[] {
  const { profile, startedAt } = timed;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owners = new Map<string, { ms: number; tops: Map<string, number> }>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const next = at + (profile.timeDeltas[i + 1] ?? 0);
    const wall = startedAt + (at - profile.startTime) / 1000;
    if (wall < from || wall >= to) continue;
    const { owner, top } = ownerOf(profile.samples[i]!, byId, parent);
    if (owner === 'idle') continue;
    const entry = owners.get(owner) ?? { ms: 0, tops: new Map<string, number>() };
    const ms = (next - at) / 1000;
    entry.ms += ms;
    entry.tops.set(top, (entry.tops.get(top) ?? 0) + ms);
    owners.set(owner, entry);
  }
  return [...owners.entries()]
    .map(([owner, { ms, tops }]) => ({ owner, ms, top: [...tops.entries()].sort((a, b) => b[1] - a[1])[0]![0] }))
    .sort((a, b) => b.ms - a.ms);
}

function ownerOf(
  leaf: number,
  byId: Map<number, CpuProfile['nodes'][number]>,
  parent: Map<number, number>,
): { owner: string; top: string } {
  const leafFrame = byId.get(leaf)?.callFrame;
  if (leafFrame && SPECIAL[leafFrame.functionName] && !leafFrame.url) return { owner: SPECIAL[leafFrame.functionName]!, top: '' };
  for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
    const frame = byId.get(id)?.callFrame;
    const extension = frame && extensionOf(frame.url);
    if (frame && extension) return { owner: extension, top: describeFrame(frame) };
  }
  return { owner: "VS Code's host", top: leafFrame ? describeFrame(leafFrame) : '' };
}

function describeFrame(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url.split('/').at(-1) || '(native)';
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
}

/** "elicit-dev.elicit 80 ms (start extension.js:2:1234), VS Code's host 20 ms (…)": the shares of 5 ms or more. */
export function formatShares(shares: Share[]): string {
  const shown = shares.filter((share) => share.ms >= 5);
  return shown.length === 0
    ? 'nothing sampled'
    : shown.map((share) => `${share.owner} ${Math.round(share.ms)} ms${share.top ? ` (${share.top})` : ''}`).join(', ');
}
