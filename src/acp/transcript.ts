/**
 * An agent panel's transcript: turns the connection's events (streamed chunks,
 * tool calls, plans, permission prompts, questions, file access) into the
 * plain-text items of agentPanelProtocol.ts. Secret answers never enter it:
 * only their field names do. Pure, so it is unit-tested.
 */
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { AnswerEntry, DiffLine, PlanStatus, ToolContentView, ToolStatus, TranscriptItem } from '../core/protocols/agentPanelProtocol';
import type { Field } from '../core/form/fields';
import { tryNormalize } from '../core/form/normalize';
import { questionSummary } from '../core/form/questionSummary';
import { alwaysCovers } from './permissionDetails';
import type { AnswerValue, ElicitContent } from '../core/request';
import { fileValueText } from '../core/form/fileFields';
import type { AcpEvent, QuestionInfo } from './connection';
import type { TerminalSnapshot } from './terminals';

/** Diffs longer than this many lines are cut (the rest is counted in `omitted`). */
const MAX_DIFF_LINES = 200;
const DIFF_CONTEXT = 2;
/** Keeps a runaway agent from growing one item without bound. */
const MAX_ITEM_TEXT = 200_000;
/** How much of a terminal's output the panel shows: its end, where the news is. */
const TERMINAL_TAIL_CHARS = 20_000;

type Item = TranscriptItem;
type ItemOf<K extends Item['kind']> = Extract<Item, { kind: K }>;

export class Transcript {
  private readonly items: Item[] = [];
  private nextId = 1;
  private readonly dirty = new Set<number>();
  private readonly tools = new Map<string, ItemOf<'tool'>>();
  private readonly terminals = new Map<string, TerminalSnapshot>();
  private readonly permissions = new Map<number, ItemOf<'permission'>>();
  private readonly questions = new Map<number, ItemOf<'question'>>();
  private readonly urlQuestions = new Map<string, ItemOf<'question'>>();
  private plan: ItemOf<'plan'> | undefined;
  private lastMessageId: string | undefined;

  /** The person's MCP servers the session was given: the name the agent sees → Elicit's name. */
  private mcpServers = new Map<string, string>();

  constructor(private readonly cwd: string) {}

  /** The servers Elicit offers the session (a new session may get others): their tool calls are named by server and tool. */
  setMcpServers(offered: ReadonlyArray<{ name: string; server: string }>): void {
    this.mcpServers = new Map(offered.map(({ name, server }) => [name, server]));
  }

  /** Every item, in order. */
  all(): Item[] {
    return this.items.map((item) => ({ ...item }));
  }

  /** Items added or changed since the last call, in transcript order. */
  takeChanges(): Item[] {
    if (this.dirty.size === 0) return [];
    const changed = this.items.filter((item) => this.dirty.has(item.id)).map((item) => ({ ...item }));
    this.dirty.clear();
    return changed;
  }

  user(text: string): void {
    this.plan = undefined;
    this.add({ kind: 'user', text: clipText(text) });
  }

  notice(severity: 'info' | 'warning' | 'error', text: string): void {
    this.add({ kind: 'notice', severity, text: clipText(text) });
  }

  turnEnded(stopReason: string): void {
    this.add({ kind: 'turn', stopReason });
  }

  apply(event: AcpEvent): void {
    switch (event.kind) {
      case 'update':
        return this.update(event.update);
      case 'permission':
        return this.permission(event);
      case 'question':
        return this.question(event);
      case 'questionTurnEnded': {
        const item = this.questions.get(event.id);
        if (item && item.outcome === undefined) this.change(item, { turnEnded: true });
        return;
      }
      case 'completed': {
        const item = this.urlQuestions.get(event.elicitationId);
        if (item) this.change(item, { outcome: 'completed' });
        return;
      }
      case 'file':
        this.add({ kind: 'file', action: event.action, path: this.shown(event.path), ...(event.error ? { error: event.error } : {}) });
        return;
      case 'terminal':
        return this.terminalChanged(event.terminal);
      case 'exit':
        return;
    }
  }

  private update(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('agent', update.content, update.messageId);
      case 'agent_thought_chunk':
        return this.chunk('thought', update.content, update.messageId);
      case 'user_message_chunk':
        return this.chunk('user', update.content, update.messageId);
      case 'tool_call':
      case 'tool_call_update':
        return this.tool(update);
      case 'plan': {
        const entries = update.entries.map((e) => ({ content: clipText(e.content), status: e.status as PlanStatus, priority: e.priority }));
        if (this.plan) this.change(this.plan, { entries });
        else this.plan = this.add({ kind: 'plan', entries });
        return;
      }
      case 'notice':
        this.add({
          kind: 'notice',
          severity: update.severity === 'error' ? 'error' : update.severity === 'warning' ? 'warning' : 'info',
          text: clipText(update.description ? `${update.title}\n${update.description}` : update.title),
        });
        return;
      default:
        // Commands, modes, usage, session info…: not part of the transcript.
        return;
    }
  }

  private chunk(kind: 'agent' | 'thought' | 'user', content: acp.ContentBlock, messageId?: string | null): void {
    const text = blockText(content);
    if (text === '') return;
    const last = this.items.at(-1);
    const sameMessage = messageId == null || this.lastMessageId == null || messageId === this.lastMessageId;
    if (last && (last.kind === 'agent' || last.kind === 'thought' || last.kind === 'user') && last.kind === kind && sameMessage) {
      this.change(last, { text: clipText(last.text + text) });
    } else {
      this.add({ kind, text: clipText(text) } as DistributiveOmit<ItemOf<'agent' | 'thought' | 'user'>, 'id'>);
    }
    this.lastMessageId = messageId ?? undefined;
  }

  private tool(update: acp.ToolCall | acp.ToolCallUpdate): void {
    const fields: Partial<ItemOf<'tool'>> = {};
    if (update.title) {
      fields.title = clipText(update.title, 500);
      const mcp = mcpToolOf(update.title, this.mcpServers);
      if (mcp) fields.mcp = mcp;
    }
    if (update.kind) fields.toolKind = update.kind;
    if (update.status) fields.status = update.status as ToolStatus;
    if (update.content) fields.content = update.content.map((c) => this.toolContent(c));
    if (update.locations) fields.locations = update.locations.map((l) => `${this.shown(l.path)}${l.line != null ? `:${l.line}` : ''}`);
    const existing = this.tools.get(update.toolCallId);
    if (existing) {
      this.change(existing, fields);
      return;
    }
    const item = this.add({
      kind: 'tool',
      toolCallId: update.toolCallId,
      title: fields.title ?? `Tool call ${update.toolCallId}`,
      status: fields.status ?? 'pending',
      content: fields.content ?? [],
      locations: fields.locations ?? [],
      ...(fields.toolKind ? { toolKind: fields.toolKind } : {}),
      ...(fields.mcp ? { mcp: fields.mcp } : {}),
    });
    this.tools.set(update.toolCallId, item);
  }

  private toolContent(content: acp.ToolCallContent): ToolContentView {
    switch (content.type) {
      case 'content':
        return { kind: 'text', text: clipText(blockText(content.content)) };
      case 'diff': {
        const { lines, omitted } = lineDiff(content.oldText ?? '', content.newText);
        return { kind: 'diff', path: this.shown(content.path), isNew: content.oldText == null, lines, omitted };
      }
      case 'terminal':
        return this.terminalView(content.terminalId);
      default:
        return { kind: 'text', text: '' };
    }
  }

  private terminalView(terminalId: string): ToolContentView {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) return { kind: 'terminal', terminalId, output: '', truncated: false };
    const output = withoutEscapes(terminal.output);
    const cut = output.length > TERMINAL_TAIL_CHARS;
    const view: ToolContentView = {
      kind: 'terminal',
      terminalId,
      command: clipText(terminal.commandLine, 500),
      output: cut ? output.slice(-TERMINAL_TAIL_CHARS) : output,
      truncated: terminal.truncated || cut,
    };
    if (terminal.exit) view.exit = terminal.exit.signal ? `ended by ${terminal.exit.signal}` : `exit code ${terminal.exit.exitCode ?? '?'}`;
    return view;
  }

  /** New output or an exit: every tool call that embeds the terminal is drawn again. */
  private terminalChanged(terminal: TerminalSnapshot): void {
    this.terminals.set(terminal.terminalId, terminal);
    for (const item of this.tools.values()) {
      if (!item.content.some((c) => c.kind === 'terminal' && c.terminalId === terminal.terminalId)) continue;
      this.change(item, {
        content: item.content.map((c) =>
          c.kind === 'terminal' && c.terminalId === terminal.terminalId ? this.terminalView(c.terminalId) : c,
        ),
      });
    }
  }

  private permission(event: Extract<AcpEvent, { kind: 'permission' }>): void {
    const existing = this.permissions.get(event.id);
    if (!event.choice) {
      if (existing) return;
      const always = alwaysCovers(event.prompt.options).map((name) => clipText(name, 1000));
      const item = this.add({
        kind: 'permission',
        agent: clipText(event.prompt.agent, 200),
        title: clipText(event.prompt.toolTitle, 500),
        ...(event.prompt.command !== undefined ? { command: clipText(event.prompt.command, 2000) } : {}),
        ...(always.length > 0 ? { always } : {}),
        options: event.prompt.options.map((o) => clipText(o.name, 200)),
      });
      this.permissions.set(event.id, item);
      return;
    }
    const choice = event.choice;
    const outcome =
      choice.outcome === 'selected'
        ? (event.prompt.options.find((o) => o.optionId === choice.optionId)?.name ?? choice.optionId)
        : 'cancelled';
    if (existing) this.change(existing, { outcome: clipText(outcome, 200) });
    else
      this.permissions.set(
        event.id,
        this.add({ kind: 'permission', agent: clipText(event.prompt.agent, 200), title: event.prompt.toolTitle, options: [], outcome }),
      );
  }

  private question(event: Extract<AcpEvent, { kind: 'question' }>): void {
    let item = this.questions.get(event.id);
    if (!item) {
      item = this.add(this.questionItem(event.info));
      this.questions.set(event.id, item);
      if (event.info.elicitationId) this.urlQuestions.set(event.info.elicitationId, item);
    }
    if (event.error !== undefined) {
      this.change(item, { outcome: 'refused', error: clipText(event.error, 1000) });
    } else if (event.result) {
      const fields: Partial<ItemOf<'question'>> = { outcome: event.result.action };
      if (event.result.action === 'accept' && event.result.content)
        fields.answer = answerEntries(event.info.requestedSchema, event.result.content);
      this.change(item, fields);
    }
  }

  private questionItem(info: QuestionInfo): DistributiveOmit<ItemOf<'question'>, 'id'> {
    const tool = info.toolCallId ? this.tools.get(info.toolCallId) : undefined;
    const item: DistributiveOmit<ItemOf<'question'>, 'id'> = {
      kind: 'question',
      mode: info.mode === 'url' ? 'url' : 'form',
      title: tool ? tool.title : info.toolCallId ? `Tool call ${info.toolCallId}` : '',
      message: clipText(info.message, 5000),
    };
    const question = info.mode === 'form' ? questionSummary(info.requestedSchema) : undefined;
    if (question) item.question = question;
    if (info.nonBlocking) item.nonBlocking = true;
    if (info.url) item.host = hostOf(info.url);
    if (info.autoResolvesAt !== undefined) item.autoResolvesAt = info.autoResolvesAt;
    return item;
  }

  private add<T extends DistributiveOmit<Item, 'id'>>(fields: T): T & { id: number } {
    const item = { ...fields, id: this.nextId++ };
    this.items.push(item as unknown as Item);
    this.dirty.add(item.id);
    return item;
  }

  private change<T extends Item>(item: T, fields: Partial<T>): void {
    Object.assign(item, fields);
    this.dirty.add(item.id);
  }

  /** Paths inside the session folder are shown relative to it. */
  private shown(p: string): string {
    const rel = path.relative(this.cwd, p);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The fields of an accepted answer for the transcript: non-secret values as
 * text, secret fields by name only. Nothing is shown when the schema cannot be read.
 */
export function answerEntries(requestedSchema: unknown, content: ElicitContent): AnswerEntry[] {
  const normalized = tryNormalize(requestedSchema);
  if ('error' in normalized) return [];
  const entries: AnswerEntry[] = [];
  for (const field of normalized.form.fields) {
    if (!Object.hasOwn(content, field.name)) continue;
    const secret = field.kind === 'text' && field.secret;
    const label = clipText(field.label, 200);
    entries.push(secret ? { label, secret } : { label, secret, value: clipText(displayValue(field, content[field.name]!), 1000) });
  }
  return entries;
}

function displayValue(field: Field, value: AnswerValue): string {
  if (field.kind === 'file') return fileValueText(value);
  if (field.kind === 'boolean') return value === true ? 'yes' : 'no';
  if (field.kind === 'choice') return field.options.find((o) => o.value === value)?.label ?? String(value);
  if (field.kind === 'multiChoice' && Array.isArray(value)) {
    return value.map((v) => field.options.find((o) => o.value === v)?.label ?? v).join(', ');
  }
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** Text of a content block; other kinds as a short bracketed note. */
export function blockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'resource_link':
      return `[${block.title ?? block.name}: ${block.uri}]`;
    case 'resource': {
      const resource = block.resource as { uri: string; text?: string };
      return typeof resource.text === 'string' ? resource.text : `[${resource.uri}]`;
    }
    default:
      return '';
  }
}

/** A small line diff: the changed middle with a little context, cut at MAX_DIFF_LINES. */
export function lineDiff(oldText: string, newText: string): { lines: DiffLine[]; omitted: number } {
  const a = oldText === '' ? [] : oldText.split(/\r?\n/);
  const b = newText === '' ? [] : newText.split(/\r?\n/);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const lines: DiffLine[] = [
    ...a.slice(Math.max(0, start - DIFF_CONTEXT), start).map((text) => ({ op: ' ' as const, text })),
    ...a.slice(start, endA).map((text) => ({ op: '-' as const, text })),
    ...b.slice(start, endB).map((text) => ({ op: '+' as const, text })),
    ...a.slice(endA, endA + DIFF_CONTEXT).map((text) => ({ op: ' ' as const, text })),
  ];
  return lines.length > MAX_DIFF_LINES
    ? { lines: lines.slice(0, MAX_DIFF_LINES), omitted: lines.length - MAX_DIFF_LINES }
    : { lines, omitted: 0 };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 200);
  }
}

/** Terminal colour and cursor sequences (CSI, OSC) are not text: the panel shows plain output. */
function withoutEscapes(text: string): string {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '');
}

function clipText(text: string, max = MAX_ITEM_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The server and tool of a call to one of the person's servers, from the title the agent gives
 * it: `mcp__tracker__create_issue` (claude) or `mcp.tracker.create_issue` (codex), the server
 * part being a name the session was given (`offered`: agent name → Elicit's name).
 */
export function mcpToolOf(title: string, offered: ReadonlyMap<string, string>): { server: string; tool: string } | undefined {
  for (const [name, server] of offered) {
    for (const prefix of [`mcp__${name}__`, `mcp.${name}.`]) {
      if (title.startsWith(prefix) && title.length > prefix.length) return { server, tool: title.slice(prefix.length) };
    }
  }
  return undefined;
}
