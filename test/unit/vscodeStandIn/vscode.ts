/**
 * A stand-in for the `vscode` module, for unit tests of the VS Code layer's own
 * logic (which servers the registry reads, what the vault keeps). It has only
 * the pieces those modules use, kept as simple as they can be, and `standIn`
 * to set up a window (folders, files, settings, trust) and to see what the
 * code asked VS Code to do. It is no substitute for the end-to-end tests,
 * which run the real thing.
 */
import * as path from 'node:path';

type Listener<T> = (event: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => void) {}
  static from(...disposables: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = '',
  ) {}
  static file(fsPath: string): Uri {
    return new Uri('file', path.posix.normalize(fsPath));
  }
  static from(parts: { scheme: string; path: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.path, parts.query);
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, path.posix.join(base.path, ...segments));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class RelativePattern {
  constructor(
    readonly baseUri: Uri,
    readonly pattern: string,
  ) {}
}

/** A file watcher the code made: its glob as a regular expression over paths; `standIn.touch` fires it. */
interface StandInWatcher {
  matches: RegExp;
  changes: EventEmitter<Uri>;
  disposed: boolean;
}

/** `**` any folders, `*` any name part: enough for the globs the code under test watches with. */
function globToRegExp(glob: string): RegExp {
  const source = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export interface WorkspaceFolder {
  uri: Uri;
  name: string;
  index: number;
}

class LogChannel {
  readonly lines: string[] = [];
  constructor(readonly name: string) {}
  info(line: string): void {
    this.lines.push(`info ${line}`);
  }
  warn(line: string): void {
    this.lines.push(`warn ${line}`);
  }
  error(line: string): void {
    this.lines.push(`error ${line}`);
  }
  show(): void {}
  dispose(): void {}
}

const configurationChanges = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
const folderChanges = new EventEmitter<void>();
const trustGranted = new EventEmitter<void>();

/** A terminal `window.createTerminal` opened; `close(code)` ends it as its process exiting would. */
export class StandInTerminal {
  exitStatus: { code: number | undefined } | undefined;
  shown = false;
  disposed = false;
  constructor(readonly creationOptions: Record<string, unknown>) {}
  show(): void {
    this.shown = true;
  }
  dispose(): void {
    this.disposed = true;
  }
  close(code: number | undefined): void {
    this.exitStatus = { code };
    terminalCloses.fire(this);
  }
}
const terminalCloses = new EventEmitter<StandInTerminal>();

export class ThemeIcon {
  constructor(readonly id: string) {}
}
const documentCloses = new EventEmitter<{ uri: Uri }>();

/** The window the code under test sees, and what it did; `reset()` between tests. */
export const standIn = {
  folders: [] as WorkspaceFolder[],
  files: new Map<string, string>(),
  /** Full setting ids (`elicit.servers`) and their values: the user's settings. */
  settings: new Map<string, unknown>(),
  /** The workspace's settings (.vscode/settings.json or the .code-workspace file), by full id. */
  workspaceSettings: new Map<string, unknown>(),
  /** The .code-workspace file of a multi-root workspace. */
  workspaceFile: undefined as Uri | undefined,
  trusted: true,
  errorMessages: [] as string[],
  infoMessages: [] as string[],
  /** Handlers `commands.registerCommand` left, by command id. */
  registeredCommands: new Map<string, (...args: unknown[]) => unknown>(),
  /** Warning messages with their detail, as [message, detail]; `warningAnswer` picks the button. */
  warnings: [] as Array<[string, string | undefined]>,
  warningAnswer: undefined as string | undefined,
  commands: [] as unknown[][],
  channels: [] as LogChannel[],
  /** Content providers by scheme, as `workspace.registerTextDocumentContentProvider` left them. */
  contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
  /** The documents `window.showTextDocument` opened, in order. */
  shownDocuments: [] as Array<{ uri: Uri; getText(): string }>,
  /** The terminals `window.createTerminal` opened, in order. */
  terminals: [] as StandInTerminal[],
  /** What the editor's tabs show, by their document (`window.tabGroups`). */
  openTabs: [] as Uri[],
  /** `env.remoteName`: set for a remote window. */
  remoteName: undefined as string | undefined,
  watchers: [] as StandInWatcher[],
  /** A file was written: every live watcher whose glob matches it fires, as VS Code's would. */
  touch(fsPath: string): number {
    const live = this.watchers.filter((w) => !w.disposed && w.matches.test(fsPath));
    for (const watcher of live) watcher.changes.fire(Uri.file(fsPath));
    return live.length;
  },
  reset(): void {
    this.openTabs = [];
    this.remoteName = undefined;
    this.watchers = [];
    this.shownDocuments = [];
    this.terminals = [];
    this.folders = [];
    this.files.clear();
    this.settings.clear();
    this.workspaceSettings.clear();
    this.workspaceFile = undefined;
    this.trusted = true;
    this.errorMessages = [];
    this.infoMessages = [];
    this.registeredCommands.clear();
    this.warnings = [];
    this.warningAnswer = undefined;
    this.commands = [];
    this.channels = [];
  },
  setFolders(...paths: string[]): void {
    this.folders = paths.map((p, index) => ({ uri: Uri.file(p), name: path.posix.basename(p), index }));
    folderChanges.fire();
  },
  changeSetting(id: string, value: unknown): void {
    this.settings.set(id, value);
    configurationChanges.fire({ affectsConfiguration: (section) => id === section || id.startsWith(`${section}.`) });
  },
  logChannel(name: string): LogChannel {
    const channel = new LogChannel(name);
    this.channels.push(channel);
    return channel;
  },
};

export const version = '1.101.0';

export const workspace = {
  get workspaceFolders(): WorkspaceFolder[] | undefined {
    return standIn.folders.length > 0 ? standIn.folders : undefined;
  },
  get isTrusted(): boolean {
    return standIn.trusted;
  },
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      const text = standIn.files.get(uri.fsPath);
      if (text === undefined) throw new Error(`ENOENT: ${uri.fsPath}`);
      return new TextEncoder().encode(text);
    },
  },
  asRelativePath(uri: Uri, includeWorkspaceFolder: boolean): string {
    const folder = standIn.folders.find((f) => uri.fsPath.startsWith(`${f.uri.fsPath}/`));
    if (!folder) return uri.fsPath;
    const relative = path.posix.relative(folder.uri.fsPath, uri.fsPath);
    return includeWorkspaceFolder && standIn.folders.length > 1 ? `${folder.name}/${relative}` : relative;
  },
  get workspaceFile(): Uri | undefined {
    return standIn.workspaceFile;
  },
  /** As VS Code: `get` merges the workspace's value over the user's, objects deeply; `inspect` gives each apart. */
  getConfiguration(section?: string) {
    const id = (key: string): string => (section ? `${section}.${key}` : key);
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const user = standIn.settings.get(id(key));
        const workspace = standIn.workspaceSettings.get(id(key));
        const merged = workspace === undefined ? user : user === undefined ? workspace : deepMerge(user, workspace);
        return merged === undefined ? fallback : (merged as T);
      },
      inspect<T>(key: string): { key: string; globalValue?: T; workspaceValue?: T } {
        return {
          key: id(key),
          globalValue: standIn.settings.get(id(key)) as T | undefined,
          workspaceValue: standIn.workspaceSettings.get(id(key)) as T | undefined,
        };
      },
    };
  },
  createFileSystemWatcher(pattern: string | RelativePattern) {
    const matches =
      typeof pattern === 'string'
        ? globToRegExp(pattern.startsWith('**/') ? pattern : `**/${pattern}`)
        : globToRegExp(`${pattern.baseUri.fsPath.replace(/\/$/, '')}/${pattern.pattern}`);
    const watcher: StandInWatcher = { matches, changes: new EventEmitter<Uri>(), disposed: false };
    standIn.watchers.push(watcher);
    const never = (): Disposable => new Disposable(() => undefined);
    return {
      onDidCreate: never,
      onDidChange: watcher.changes.event,
      onDidDelete: never,
      dispose: () => {
        watcher.disposed = true;
      },
    };
  },
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }): Disposable {
    standIn.contentProviders.set(scheme, provider);
    return new Disposable(() => standIn.contentProviders.delete(scheme));
  },
  async openTextDocument(uri: Uri): Promise<{ uri: Uri; getText(): string }> {
    const provider = standIn.contentProviders.get(uri.scheme);
    if (!provider) throw new Error(`no content provider for ${uri.scheme}`);
    const text = provider.provideTextDocumentContent(uri);
    return { uri, getText: () => text };
  },
  onDidCloseTextDocument: documentCloses.event,
  onDidChangeConfiguration: configurationChanges.event,
  onDidChangeWorkspaceFolders: folderChanges.event,
  onDidGrantWorkspaceTrust: trustGranted.event,
};

function deepMerge(under: unknown, over: unknown): unknown {
  const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isTable(under) || !isTable(over)) return over;
  const out: Record<string, unknown> = { ...under };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out;
}

export const window = {
  tabGroups: {
    get all(): Array<{ tabs: Array<{ input: { uri: Uri } }> }> {
      return [{ tabs: standIn.openTabs.map((uri) => ({ input: { uri } })) }];
    },
  },
  async showWarningMessage(message: string, ...rest: unknown[]): Promise<string | undefined> {
    const options = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as { detail?: string }) : undefined;
    standIn.warnings.push([message, options?.detail]);
    return standIn.warningAnswer;
  },
  async showErrorMessage(message: string): Promise<string | undefined> {
    standIn.errorMessages.push(message);
    return undefined;
  },
  async showInformationMessage(message: string): Promise<string | undefined> {
    standIn.infoMessages.push(message);
    return undefined;
  },
  createOutputChannel(name: string): LogChannel {
    return standIn.logChannel(name);
  },
  createTerminal(options: Record<string, unknown>): StandInTerminal {
    const terminal = new StandInTerminal(options);
    standIn.terminals.push(terminal);
    return terminal;
  },
  onDidCloseTerminal: terminalCloses.event,
  async showTextDocument(document?: { uri: Uri; getText(): string }): Promise<{ document?: { uri: Uri; getText(): string } }> {
    if (document) standIn.shownDocuments.push(document);
    return { document };
  },
};

export const commands = {
  async executeCommand(...args: unknown[]): Promise<undefined> {
    standIn.commands.push(args);
    return undefined;
  },
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable {
    standIn.registeredCommands.set(id, handler);
    return new Disposable(() => standIn.registeredCommands.delete(id));
  },
};

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export enum UIKind {
  Desktop = 1,
  Web = 2,
}

export const env = {
  get remoteName(): string | undefined {
    return standIn.remoteName;
  },
  appName: 'Visual Studio Code',
  language: 'en',
  uiKind: UIKind.Desktop,
};

export const extensions = {
  getExtension(): undefined {
    return undefined;
  },
};

/** The English bundle is the source text: placeholders `{0}` or `{name}` filled in, as VS Code does without a translation. */
export const l10n = {
  t(message: string, ...args: unknown[]): string {
    const named = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? (args[0] as Record<string, unknown>) : undefined;
    return message.replace(/\{(\w+)\}/g, (whole, key: string) => {
      const value = named ? named[key] : args[Number(key)];
      return value === undefined ? whole : String(value);
    });
  },
};
