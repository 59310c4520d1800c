/**
 * The agent panel webview. Speaks agentPanelProtocol.ts with the host: says
 * `ready`, draws the transcript it is sent (`reset`, then changed `items`),
 * and posts `prompt`, `stop`, `restart` and `showLog`. Every string from the
 * agent is inserted as text, never as HTML; line breaks are kept by CSS
 * (white-space: pre-wrap). The prompt draft survives the panel being hidden,
 * and the session survives a window reload (setState: VS Code hands it to the
 * host's panel serializer, which resumes the session).
 */
import type {
  AgentPanelState,
  SavedAgentPanel,
  AgentPanelToHost,
  AnswerEntry,
  HostToAgentPanel,
  ToolContentView,
  TranscriptItem,
} from '../../src/core/protocols/agentPanelProtocol';
import { cleanText } from '../../src/core/display';
import { adoptStyles, el } from '../shared/dom';
import { CountdownLine } from '../shared/countdown';
import buttons from '../shared/buttons.css';
import theme from '../shared/theme.css';
import visuallyHidden from '../shared/visuallyHidden.css';
import { connectToHost } from '../shared/host';
import styles from './styles.css';
import { CommandMenu } from './commandMenu';
import { ModePicker } from './modePicker';
import { ConfigOptions } from './configOptions';

const vscode = connectToHost<AgentPanelToHost, HostToAgentPanel>(onHostMessage);
// VS Code's buttons, the panel's own rules, then the base shared with the form, which wins where both
// set something (the order the panel's linked stylesheet and the adopted base had before both were bundled).
adoptStyles(buttons);
adoptStyles(styles);
adoptStyles(theme);
adoptStyles(visuallyHidden);
const app = document.getElementById('app') ?? document.body.appendChild(el('main', { attrs: { id: 'app' } }));

const STATUS_WORDS: Record<AgentPanelState['status'], string> = {
  starting: 'Starting…',
  idle: 'Ready',
  working: 'Working…',
  cancelling: 'Stopping…',
  exited: 'Not running',
};

const TOOL_GLYPHS: Record<string, string> = { pending: '○', in_progress: '◐', completed: '✓', failed: '✗' };
const PLAN_GLYPHS: Record<string, string> = { pending: '○', in_progress: '◐', completed: '✓' };
const STOP_WORDS: Record<string, string> = {
  end_turn: 'Done',
  cancelled: 'Stopped',
  max_tokens: 'Stopped: the agent reached its token limit',
  max_turn_requests: 'Stopped: the agent reached its request limit',
  refusal: 'The agent refused to continue',
};

function t(text: string): string {
  return cleanText(text);
}

class AgentPage {
  private readonly agentName = el('span', { className: 'agent-name' });
  private readonly status = el('span', { className: 'status', attrs: { role: 'status' } });
  private readonly cwd = el('span', { className: 'cwd' });
  /** Which of the person's MCP servers the session has. */
  private readonly servers = el('span', { className: 'servers' });
  private readonly chooseServers = button('Servers…', 'choose-servers link-button', () => post({ type: 'chooseServers' }));
  private readonly error = el('div', { className: 'error-banner', attrs: { role: 'alert' } });
  private readonly log = el('section', {
    className: 'transcript',
    // Focusable, so a keyboard user can scroll a transcript that has nothing focusable in it.
    attrs: { role: 'log', 'aria-label': 'Transcript', 'aria-live': 'polite', tabindex: '0' },
  });
  private readonly empty = el('div', { className: 'empty', text: 'Type a prompt below to start.' });
  private readonly input = el('textarea', { className: 'prompt', attrs: { rows: '3', 'aria-label': 'Prompt' } });
  private readonly send = button('Send', 'send', () => this.submit());
  private readonly stop = button('Stop', 'stop secondary', () => post({ type: 'stop' }));
  private readonly restart = button('Restart', 'restart', () => post({ type: 'restart' }));
  private readonly signOut = button('Sign Out', 'sign-out link-button', () => post({ type: 'signOut' }));
  private readonly signIn = button('Sign In…', 'sign-in secondary', () => post({ type: 'signIn' }));
  private readonly modes = new ModePicker((modeId) => post({ type: 'setMode', modeId }));
  private readonly configOptions = new ConfigOptions((configId, value) => post({ type: 'setConfigOption', configId, value }));
  private readonly commands = new CommandMenu(this.input, () => save({ draft: this.input.value }));
  private readonly nodes = new Map<number, HTMLElement>();
  private state: AgentPanelState | undefined;

  constructor() {
    const showLog = button('Show Log', 'show-log link-button', () => post({ type: 'showLog' }));
    this.stop.title = 'Cancel the running turn (session/cancel)';
    this.signOut.title = 'Sign out of the agent and forget the key Elicit saved for it';
    this.chooseServers.title = 'Choose which of your MCP servers the next sessions of this agent get';
    const header = el(
      'header',
      { className: 'bar' },
      this.agentName,
      this.status,
      this.cwd,
      this.servers,
      this.chooseServers,
      el('span', { className: 'spacer' }),
      this.modes.element,
      this.stop,
      this.restart,
      this.signIn,
      this.signOut,
      showLog,
    );
    this.error.hidden = true;
    const draft = readDraft();
    this.input.value = draft;
    this.input.addEventListener('input', () => save({ draft: this.input.value }));
    this.input.addEventListener('keydown', (event) => {
      if (this.commands.onKey(event)) {
        event.preventDefault();
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    const hint = el('span', { className: 'hint', text: 'Enter to send · Shift+Enter for a new line' });
    const composer = el(
      'footer',
      { className: 'composer' },
      this.commands.element,
      this.input,
      el('div', { className: 'composer-actions' }, hint, this.send),
    );
    this.log.append(this.empty);
    app.replaceChildren(header, this.configOptions.element, this.error, this.log, composer);
    app.removeAttribute('aria-busy');
  }

  reset(state: AgentPanelState, items: TranscriptItem[]): void {
    this.nodes.clear();
    this.log.replaceChildren(this.empty);
    this.setState(state);
    this.upsert(items);
    this.scrollToEnd();
    // The page is drawn again whenever its tab comes back into view (VS Code reloads a hidden webview).
    // Take the keyboard only where the person is: a page drawn behind a quick pick or the Command
    // Palette that took it would close them.
    if (document.hasFocus()) this.input.focus();
  }

  setState(state: AgentPanelState): void {
    this.state = state;
    if (state.sessionId !== undefined) save({ agent: state.agent, cwd: state.cwd, sessionId: state.sessionId });
    this.agentName.textContent = t(state.agent);
    this.status.textContent = STATUS_WORDS[state.status];
    this.status.dataset.status = state.status;
    this.cwd.textContent = t(state.cwd);
    this.cwd.title = t(state.cwd);
    this.showServers(state);
    this.error.textContent = state.error ? t(state.error) : '';
    this.error.hidden = !state.error;
    this.send.disabled = state.status !== 'idle';
    this.stop.disabled = state.status !== 'working';
    this.restart.hidden = !state.canRestart;
    this.signOut.hidden = state.canSignOut !== true;
    this.signIn.hidden = state.canSignIn !== true;
    this.modes.show(state);
    this.configOptions.show(state);
    this.commands.setCommands(state.commands ?? []);
    const slash = state.commands?.length ? ' (/ for commands)' : '';
    this.input.placeholder = state.status === 'exited' ? `${t(state.agent)} is not running` : `Ask ${t(state.agent)}…${slash}`;
  }

  private showServers(state: AgentPanelState): void {
    const servers = state.servers;
    this.servers.hidden = servers === undefined;
    if (!servers) return;
    const names = servers.names.map(t);
    const missing = servers.missing?.length ? ` (not configured: ${servers.missing.map(t).join(', ')})` : '';
    this.servers.textContent = names.length === 0 ? `No MCP servers${missing}` : `MCP servers: ${names.join(', ')}${missing}`;
    this.servers.title =
      names.length === 0
        ? 'This session has none of your MCP servers (elicit.agentServers).'
        : `This session has these servers of yours, served by Elicit on this machine${servers.via === 'stdio' ? ' through its bridge command' : ''}: calls go through Elicit, and their questions come to you.`;
  }

  upsert(items: TranscriptItem[]): void {
    const stick = this.nearEnd();
    for (const item of items) {
      const node = render(item);
      node.dataset.id = String(item.id);
      const old = this.nodes.get(item.id);
      if (old) old.replaceWith(node);
      else this.log.append(node);
      this.nodes.set(item.id, node);
    }
    this.empty.hidden = this.nodes.size > 0;
    if (stick) this.scrollToEnd();
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '' || this.state?.status !== 'idle') return;
    post({ type: 'prompt', text });
    this.input.value = '';
    save({ draft: '' });
  }

  private nearEnd(): boolean {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 48;
  }

  private scrollToEnd(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}

function render(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case 'user':
      return block('user', 'You', text(item.text));
    case 'agent':
      return el('div', { className: 'item agent' }, text(item.text));
    case 'thought':
      return block('thought', 'Thinking', text(item.text));
    case 'tool':
      return renderTool(item);
    case 'plan': {
      const list = el('ol', { className: 'plan-entries' });
      for (const entry of item.entries) {
        list.append(
          el(
            'li',
            { attrs: { 'data-status': entry.status } },
            el('span', { className: 'glyph', text: PLAN_GLYPHS[entry.status] ?? '○', attrs: { 'aria-label': entry.status } }),
            document.createTextNode(` ${t(entry.content)}`),
          ),
        );
      }
      return block('plan', 'Plan', list);
    }
    case 'permission': {
      const outcome =
        item.outcome === undefined
          ? el('div', { className: 'pending', text: 'Waiting for your choice in the permission prompt…' })
          : el('div', { className: 'outcome', text: item.outcome === 'cancelled' ? 'Cancelled' : `Chosen: ${t(item.outcome)}` });
      const options =
        item.options.length > 0 ? el('div', { className: 'options', text: `Options: ${item.options.map(t).join(' · ')}` }) : undefined;
      // The command as the agent will run it, and what "allow always" covers in the agent's own words.
      const details: HTMLElement[] = [];
      if (item.command !== undefined && item.command !== item.title)
        details.push(el('div', { className: 'permission-command', text: `$ ${t(item.command)}` }));
      for (const always of item.always ?? [])
        details.push(
          el('div', { className: 'permission-detail', text: `“Allow always” covers, as ${t(item.agent)} puts it: ${t(always)}` }),
        );
      return block(
        'permission',
        `${t(item.agent)} asks permission`,
        el('div', { className: 'subject', text: t(item.title) }),
        ...details,
        ...(options ? [options] : []),
        outcome,
      );
    }
    case 'question':
      return renderQuestion(item);
    case 'file':
      return el(
        'div',
        { className: `item file${item.error ? ' failed' : ''}` },
        document.createTextNode(`${item.action === 'read' ? 'Read' : 'Wrote'} ${t(item.path)}`),
        ...(item.error ? [el('div', { className: 'file-error', text: t(item.error) })] : []),
      );
    case 'notice':
      return el(
        'div',
        { className: `item notice ${item.severity}`, attrs: item.severity === 'error' ? { role: 'alert' } : {} },
        text(item.text),
      );
    case 'turn':
      return el('div', { className: 'item turn', text: STOP_WORDS[item.stopReason] ?? `Turn ended (${t(item.stopReason)})` });
  }
}

function renderTool(item: Extract<TranscriptItem, { kind: 'tool' }>): HTMLElement {
  const head = el(
    'div',
    { className: 'tool-head' },
    el('span', { className: 'glyph', text: TOOL_GLYPHS[item.status] ?? '○', attrs: { 'aria-label': item.status.replace('_', ' ') } }),
    el('span', { className: 'tool-title', text: item.mcp ? `${t(item.mcp.server)} · ${t(item.mcp.tool)}` : t(item.title) }),
    ...(item.mcp
      ? [
          el('span', {
            className: 'badge mcp',
            text: 'MCP server',
            attrs: { title: `${t(item.title)}: your MCP server, called through Elicit` },
          }),
        ]
      : []),
    ...(item.toolKind ? [el('span', { className: 'badge', text: t(item.toolKind) })] : []),
    el('span', { className: 'tool-status', text: item.status.replace('_', ' ') }),
  );
  const parts: HTMLElement[] = [head];
  if (item.locations.length > 0) parts.push(el('div', { className: 'locations', text: item.locations.map(t).join(', ') }));
  for (const content of item.content) parts.push(renderToolContent(content));
  const node = el('div', { className: 'item tool' }, ...parts);
  node.dataset.status = item.status;
  return node;
}

function renderToolContent(content: ToolContentView): HTMLElement {
  switch (content.kind) {
    case 'text':
      return el('div', { className: 'tool-text' }, text(content.text));
    case 'terminal': {
      const head = `$ ${t(content.command ?? content.terminalId)}`;
      const state = content.exit ? t(content.exit) : content.command ? 'running…' : 'waiting to start';
      const output = el('pre', { className: 'terminal-output', text: `${content.truncated ? '…\n' : ''}${t(content.output)}` });
      output.hidden = content.output === '' && !content.truncated;
      const node = el('div', { className: 'terminal' }, el('div', { className: 'terminal-head', text: `${head}  · ${state}` }), output);
      if (content.exit) node.dataset.exit = content.exit;
      return node;
    }
    case 'diff': {
      const lines = el('div', { className: 'diff-lines' });
      for (const line of content.lines) {
        const cls = line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'ctx';
        lines.append(el('div', { className: `diff-line ${cls}`, text: `${line.op} ${t(line.text)}` }));
      }
      if (content.omitted > 0) lines.append(el('div', { className: 'diff-line more', text: `… ${content.omitted} more lines` }));
      return el(
        'div',
        { className: 'diff' },
        el('div', { className: 'diff-path', text: `${t(content.path)}${content.isNew ? ' (new file)' : ''}` }),
        lines,
      );
    }
  }
}

function renderQuestion(item: Extract<TranscriptItem, { kind: 'question' }>): HTMLElement {
  const label = item.mode === 'url' ? 'Link' : 'Question';
  const parts: HTMLElement[] = [];
  if (item.title) parts.push(el('div', { className: 'subject', text: t(item.title) }));
  // The question itself first; the agent's own note on it (codex's "keeps working while you answer…") under it.
  if (item.question) parts.push(el('div', { className: 'question-text', text: t(item.question) }));
  if (item.message) parts.push(el('div', { className: item.question ? 'message secondary' : 'message' }, text(item.message)));
  if (item.host) parts.push(el('div', { className: 'host', text: `Opens ${t(item.host)}` }));
  if (item.outcome === undefined && !item.turnEnded && typeof item.autoResolvesAt === 'number')
    parts.push(...countdown(item.autoResolvesAt));
  parts.push(questionOutcome(item));
  return block(`question ${item.mode}`, label, ...parts);
}

/** Host clock minus this page's, as of the last items received: an agent's timer is counted by this page's clock. */
let hostAhead = 0;

/** The agent's own timer, counting down while the question waits (the quick input and the form show it too). */
function countdown(autoResolvesAt: number): HTMLElement[] {
  return new CountdownLine('The agent', autoResolvesAt - hostAhead - Date.now()).nodes;
}

function questionOutcome(item: Extract<TranscriptItem, { kind: 'question' }>): HTMLElement {
  switch (item.outcome) {
    case undefined:
      if (item.turnEnded)
        return el('div', {
          className: 'pending turn-ended',
          text: 'Turn ended: the agent no longer takes an answer. Dismiss it where it is shown, or in Pending Questions.',
        });
      return el('div', {
        className: 'pending',
        text: item.nonBlocking ? 'Waiting for your answer; the agent keeps working meanwhile…' : 'Waiting for your answer…',
      });
    case 'accept':
      if (item.mode === 'url') return el('div', { className: 'outcome', text: 'Opened; waiting for the agent to finish' });
      return answerList(item.answer ?? []);
    case 'completed':
      return el('div', { className: 'outcome', text: 'Completed' });
    case 'decline':
      return el('div', { className: 'outcome', text: 'Declined' });
    case 'cancel':
      return el('div', { className: 'outcome', text: item.turnEnded ? 'Dismissed (turn ended)' : 'Cancelled' });
    case 'refused':
      return el('div', { className: 'outcome refused', text: `Refused: ${t(item.error ?? 'the request could not be shown')}` });
  }
}

function answerList(entries: AnswerEntry[]): HTMLElement {
  const list = el('dl', { className: 'answer' });
  for (const entry of entries) {
    const value = entry.secret
      ? el('dd', { className: 'secret', text: '•••••• (secret, not shown)' })
      : el('dd', { text: t(entry.value ?? '') });
    list.append(el('dt', { text: t(entry.label) }), value);
  }
  return el('div', { className: 'outcome' }, el('div', { text: 'Answered' }), list);
}

function block(kind: string, label: string, ...children: Node[]): HTMLElement {
  return el('div', { className: `item ${kind}` }, el('div', { className: 'label', text: label }), ...children);
}

/** A text node; CSS keeps its line breaks. */
function text(value: string): HTMLElement {
  return el('div', { className: 'text', text: t(value) });
}

function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', { className, text: label, attrs: { type: 'button' } });
  b.addEventListener('click', onClick);
  return b;
}

function saved(): SavedAgentPanel {
  const state = vscode.getState();
  return typeof state === 'object' && state !== null ? (state as SavedAgentPanel) : {};
}

function save(change: SavedAgentPanel): void {
  vscode.setState({ ...saved(), ...change });
}

function readDraft(): string {
  const { draft } = saved();
  return typeof draft === 'string' ? draft : '';
}

function post(message: AgentPanelToHost): void {
  vscode.post(message);
}

const page = new AgentPage();

function onHostMessage(message: HostToAgentPanel): void {
  switch (message.type) {
    case 'reset':
      if (typeof message.sentAt === 'number') hostAhead = message.sentAt - Date.now();
      if (Array.isArray(message.items) && typeof message.state === 'object') page.reset(message.state, message.items);
      return;
    case 'state':
      if (typeof message.state === 'object' && message.state !== null) page.setState(message.state);
      return;
    case 'items':
      if (typeof message.sentAt === 'number') hostAhead = message.sentAt - Date.now();
      if (Array.isArray(message.items)) page.upsert(message.items);
      return;
  }
}

post({ type: 'ready' });
