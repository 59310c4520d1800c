/**
 * The typed messages between the extension host and the agent panel webview
 * (one ACP session), imported by both sides so they cannot drift. The webview
 * speaks first (`ready`); the host answers with `reset` (the whole transcript
 * and state) and then sends `state` and `items` as things change. A webview
 * that is hidden and shown again is reloaded, says `ready` again and gets a
 * fresh `reset`. Every string is plain text: the webview inserts it as text.
 */

/** The agent panel's webview type (package.json's `onWebviewPanel:elicit.agent`). */
export const AGENT_VIEW_TYPE = 'elicit.agent';

/** starting: spawning and initializing · idle: ready for a prompt · working: a prompt turn runs · exited: the process is gone. */
export type AgentStatus = 'starting' | 'idle' | 'working' | 'cancelling' | 'exited';

export interface AgentPanelState {
  agent: string;
  /** The session's working directory, as shown. */
  cwd: string;
  status: AgentStatus;
  /** Why the agent is not running (exit code, the last lines it wrote to stderr). */
  error?: string;
  /** Offered after a crash or a failed start. */
  canRestart: boolean;
  /** The ACP session once it is open: kept with the panel, so a reloaded window can resume it. */
  sessionId?: string;
  /** The session's modes, switched with `session/set_mode`; absent when the agent has none, or offers config options instead. */
  modes?: ModesView;
  /** The session's config options (model, reasoning effort…), changed with `session/set_config_option`. */
  configOptions?: ConfigOptionView[];
  /** The agent's slash commands, offered as completions when the prompt starts with "/". */
  commands?: CommandView[];
  /** Sign Out is offered: the agent can log out, or a key for it is saved. */
  canSignOut?: boolean;
  /** Sign In is offered after a failed start: the agent has ways to sign in, though it did not ask. */
  canSignIn?: boolean;
  /** The person's MCP servers this session has, once it is open. */
  servers?: SessionServersView;
}

/** Which of the person's MCP servers a session has, and how the agent reaches them, for the panel's header. */
export interface SessionServersView {
  /** Elicit's names of the servers; empty: none. */
  names: string[];
  /** http: endpoints of Elicit's; stdio: Elicit's bridge command; none: the session has no server. */
  via: 'http' | 'stdio' | 'none';
  /** Names elicit.agentServers lists that no configured server has. */
  missing?: string[];
}

export interface ModesView {
  current: string;
  available: Array<{ id: string; name: string; description?: string }>;
}

/** A drop-down (`select`) or an on/off toggle (`boolean`, offered because Elicit advertises it). */
export type ConfigOptionView = SelectConfigOptionView | BooleanConfigOptionView;

interface ConfigOptionBase {
  id: string;
  name: string;
  description?: string;
  /** The agent's hint of what it is ("mode", "model", "thought_level"…); for the eye only. */
  category?: string;
  /** The agent refused the last change: its words, shown beside the option. */
  error?: string;
}

export interface SelectConfigOptionView extends ConfigOptionBase {
  type: 'select';
  /** The value in force, as the agent last said. */
  current: string;
  values: ConfigValueView[];
}

export interface BooleanConfigOptionView extends ConfigOptionBase {
  type: 'boolean';
  /** Whether it is on, as the agent last said. */
  current: boolean;
}

export interface ConfigValueView {
  value: string;
  name: string;
  description?: string;
  /** The agent's group for this value, when it grouped them. */
  group?: string;
}

export interface CommandView {
  /** Without the leading "/". */
  name: string;
  description: string;
  /** What to type after the command, when it takes input. */
  hint?: string;
}

/** What the panel's webview keeps across reloads (its setState): the unsent draft and the session. */
export interface SavedAgentPanel {
  draft?: string;
  agent?: string;
  cwd?: string;
  sessionId?: string;
}

/** The session a restored panel belongs to, read from untrusted webview state. */
export function savedSession(saved: unknown): { agent: string; cwd: string; sessionId?: string } | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const { agent, cwd, sessionId } = saved as Record<string, unknown>;
  if (typeof agent !== 'string' || agent === '' || typeof cwd !== 'string' || cwd === '') return undefined;
  return typeof sessionId === 'string' && sessionId !== '' ? { agent, cwd, sessionId } : { agent, cwd };
}

export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';
export type PlanStatus = 'pending' | 'in_progress' | 'completed';

export interface DiffLine {
  op: '+' | '-' | ' ';
  text: string;
}

export type ToolContentView =
  | { kind: 'text'; text: string }
  | { kind: 'diff'; path: string; isNew: boolean; lines: DiffLine[]; omitted: number }
  | {
      kind: 'terminal';
      terminalId: string;
      /** The command line, once Elicit runs it. */
      command?: string;
      /** The end of its output (the panel shows the last TERMINAL_TAIL_CHARS characters). */
      output: string;
      /** Older output was dropped, by the agent's byte limit or for the panel. */
      truncated: boolean;
      /** "exit code 0", "ended by SIGTERM"; absent while it runs. */
      exit?: string;
    };

/** One field of an accepted answer as the transcript shows it; secrets never carry their value. */
export interface AnswerEntry {
  label: string;
  /** Absent for secret fields. */
  value?: string;
  secret: boolean;
}

interface ItemBase {
  /** Stable for the life of the panel: a changed item is sent again with the same id. */
  id: number;
}

export type TranscriptItem = ItemBase &
  (
    | { kind: 'user'; text: string }
    | { kind: 'agent'; text: string }
    | { kind: 'thought'; text: string }
    | {
        kind: 'tool';
        toolCallId: string;
        title: string;
        toolKind?: string;
        status: ToolStatus;
        content: ToolContentView[];
        locations: string[];
        /** A tool of one of the person's MCP servers that Elicit gave the session: the server (Elicit's name) and tool. */
        mcp?: { server: string; tool: string };
      }
    | { kind: 'plan'; entries: Array<{ content: string; status: PlanStatus; priority: string }> }
    | {
        kind: 'permission';
        /** The agent asking. */
        agent: string;
        title: string;
        /** The command it wants to run, when the request says. */
        command?: string;
        /** What "allow always" covers, in the agent's own words (its allow_always options' names). */
        always?: string[];
        options: string[];
        /** undefined while the person decides; the chosen option's name, or "cancelled". */
        outcome?: string;
      }
    | {
        kind: 'question';
        mode: 'form' | 'url';
        title: string;
        /** The question itself: the first question's text, with how many more there are. */
        question?: string;
        /** The agent's own note on the form (codex's "Codex keeps working while you answer…"). */
        message: string;
        /** The agent keeps working while the person answers. */
        nonBlocking?: boolean;
        /** A non-blocking question still open when its turn ended: it can only be dismissed. */
        turnEnded?: boolean;
        /** URL mode: the host the person is asked to open. */
        host?: string;
        /** The agent's own timer: when it goes on without the answer, epoch ms by the host's clock (see `sentAt`). */
        autoResolvesAt?: number;
        /** undefined while open; then accept / decline / cancel / refused / completed. */
        outcome?: 'accept' | 'decline' | 'cancel' | 'refused' | 'completed';
        answer?: AnswerEntry[];
        error?: string;
      }
    | { kind: 'file'; action: 'read' | 'write'; path: string; error?: string }
    | { kind: 'notice'; severity: 'info' | 'warning' | 'error'; text: string }
    | { kind: 'turn'; stopReason: string }
  );

/**
 * `sentAt`: the host's clock when items were sent, so the panel counts an agent's timer down by its
 * own clock (in code-server the panel runs on another machine than the host).
 */
export type HostToAgentPanel =
  | { type: 'reset'; state: AgentPanelState; items: TranscriptItem[]; sentAt: number }
  | { type: 'state'; state: AgentPanelState }
  /** New or changed items, in transcript order. */
  | { type: 'items'; items: TranscriptItem[]; sentAt: number };

export type AgentPanelToHost =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  /** The Stop button: `session/cancel` for the running turn. */
  | { type: 'stop' }
  | { type: 'restart' }
  | { type: 'showLog' }
  /** A mode picked in the panel: `session/set_mode`. */
  | { type: 'setMode'; modeId: string }
  /** A config option's value picked (a select's value id) or toggled (a boolean's state) in the panel: `session/set_config_option`. */
  | { type: 'setConfigOption'; configId: string; value: string | boolean }
  | { type: 'signOut' }
  /** After a failed start: start again and sign in first. */
  | { type: 'signIn' }
  /** The header's Change… of the session's MCP servers: pick them for the next session. */
  | { type: 'chooseServers' };

/** The longest prompt the host accepts from the webview. */
export const MAX_PROMPT_LENGTH = 100_000;

/** Structural check of a message from the webview: anything else is ignored by the host. */
export function isAgentPanelToHost(value: unknown): value is AgentPanelToHost {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as { type?: unknown; text?: unknown };
  switch (message.type) {
    case 'ready':
    case 'stop':
    case 'restart':
    case 'showLog':
    case 'signOut':
    case 'signIn':
    case 'chooseServers':
      return true;
    case 'setMode':
      return typeof (value as { modeId?: unknown }).modeId === 'string' && (value as { modeId: string }).modeId.length <= 200;
    case 'setConfigOption': {
      const { configId, value: chosen } = value as { configId?: unknown; value?: unknown };
      return isShortId(configId) && (isShortId(chosen) || typeof chosen === 'boolean');
    }
    case 'prompt':
      return typeof message.text === 'string' && message.text.trim() !== '' && message.text.length <= MAX_PROMPT_LENGTH;
    default:
      return false;
  }
}

/** The longest config option or value id kept from an agent, and so accepted back from the webview. */
export const MAX_CONFIG_ID_LENGTH = 200;

function isShortId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_CONFIG_ID_LENGTH;
}
