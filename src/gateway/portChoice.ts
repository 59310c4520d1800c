/**
 * Which port a window's gateway tries, and what it keeps afterwards. Each window serves its own
 * servers' tools, so each workspace keeps an address of its own: a CLI agent set up for one folder
 * reaches that folder's window after a restart or a reload, and a window opened meanwhile on
 * another folder never takes it. No vscode import.
 */

/** The gateway's address at `port`: what clients are given, whichever window serves it. */
export function gatewayUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}

/** Where the port tried first came from. */
export type PortSource = 'setting' | 'workspace' | 'shared' | 'none';

export interface RememberedPorts {
  /** `elicit.gateway.port`; 0 when unset. */
  configured: number;
  /** The port this workspace's gateway ran on last; 0 when none. */
  workspace: number;
  /** The one port every window shared before each workspace kept its own; 0 when none is left. */
  shared: number;
}

export interface PortChoice {
  port: number;
  source: PortSource;
}

/** The port to try first: the setting's, else this workspace's, else the shared one nobody has claimed yet, else any. */
export function choosePort(remembered: RememberedPorts): PortChoice {
  if (remembered.configured) return { port: remembered.configured, source: 'setting' };
  if (remembered.workspace) return { port: remembered.workspace, source: 'workspace' };
  if (remembered.shared) return { port: remembered.shared, source: 'shared' };
  return { port: 0, source: 'none' };
}

/** Who held the port tried first, when the gateway could not bind it (process/portHolder.ts). */
export type Holder = 'elicit' | 'other' | 'free';

export interface AfterStart {
  /** Keep the port the gateway now runs on as this workspace's. */
  keepForWorkspace: boolean;
  /** Forget the shared port: this workspace took it, or a stranger holds it. */
  forgetShared: boolean;
}

/**
 * What to keep once the gateway runs on `port`. `holder` is undefined when the port tried first was bound.
 * Another window on this same workspace serving its address keeps it: that window's clients stay valid.
 */
export function afterStart(choice: PortChoice, port: number, holder: Holder | undefined): AfterStart {
  const twinHoldsOwn = choice.source === 'workspace' && holder === 'elicit';
  return {
    keepForWorkspace: !twinHoldsOwn,
    forgetShared: choice.source === 'shared' && (port === choice.port || holder === 'other'),
  };
}

/** The window that served the configured port last (global state): its workspace's id, and the port. */
export interface ServedBy {
  workspace: string;
  port: number;
}

/**
 * With `elicit.gateway.port` set, a window starting on its own (not by the person's Start Gateway)
 * stands by when another workspace's window served that port last: that window may be reloading, and
 * its agents must find it again when it is back (portWatch.ts takes the port over once it stays free).
 */
export function standsBy(tried: PortChoice, servedBy: ServedBy | undefined, workspace: string): boolean {
  return tried.source === 'setting' && servedBy?.port === tried.port && servedBy.workspace !== workspace;
}
