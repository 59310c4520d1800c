/**
 * Arguments for a prompt or a resource template. When the server offers
 * `completion/complete`, each argument is a step in a quick pick whose
 * suggestions follow what is typed (with the arguments already given as
 * context, so "name" can depend on "department"); free text is always
 * accepted. Otherwise the arguments are one form through the broker.
 */
import * as vscode from 'vscode';
import type { CompleteRequest } from '../../mcp/types';
import type { Broker } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import { argumentFormSchema, argumentValues, type ArgumentSpec } from '../../mcp/argumentSchema';
import { complete, offersCompletions } from '../../mcp/catalog';
import type { McpConnection } from '../../mcp/connection';
import { serverOrigin } from '../../mcp/serverOrigin';
import { errorText } from '../../core/errors';

export interface ArgumentRequest {
  server: McpConnection;
  /** What the completions are for: `ref/prompt` or `ref/resource`. */
  ref: CompleteRequest['params']['ref'];
  args: readonly ArgumentSpec[];
  /** "prompt summarize": what the arguments are for, in the asker's detail (English, like every asker's). */
  subject: string;
  /** "Get MCP Prompt · docs · prompt summarize": Elicit asks, for the person, before the request goes out. */
  title: string;
  /** "Arguments for prompt summarize": the form's message. */
  message: string;
  log: vscode.LogOutputChannel;
}

/** The values, or undefined when the person cancelled or declined. */
export async function collectArguments(broker: Broker, request: ArgumentRequest): Promise<Record<string, string> | undefined> {
  if (request.args.length === 0) return {};
  if (await offersCompletions(request.server).catch(() => false)) {
    const turn = new AbortController();
    return broker.exclusive((signal) => completionSteps(request, signal), turn.signal, undefined);
  }
  const result = await broker.ask({
    mode: 'form',
    asker: {
      kind: 'mcp',
      name: request.server.askerName,
      detail: `arguments for ${request.subject}`,
      origin: serverOrigin(request.server.config),
    },
    onBehalf: { title: request.title },
    message: request.message,
    requestedSchema: argumentFormSchema(request.args),
  });
  return result.action === 'accept' ? argumentValues(request.args, result.content ?? {}) : undefined;
}

type StepOutcome = { kind: 'value'; value: string } | { kind: 'back' } | { kind: 'cancel' };

interface SuggestionItem extends vscode.QuickPickItem {
  value: string;
}

const DEBOUNCE_MS = 150;

async function completionSteps(request: ArgumentRequest, signal: AbortSignal): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (let i = 0; i < request.args.length;) {
    const arg = request.args[i]!;
    const outcome = await askWithSuggestions(request, arg, i, values, signal);
    if (outcome.kind === 'cancel') return undefined;
    if (outcome.kind === 'back') {
      i = Math.max(0, i - 1);
      continue;
    }
    if (outcome.value === '' && !arg.required) delete values[arg.name];
    else values[arg.name] = outcome.value;
    i++;
  }
  return values;
}

function askWithSuggestions(
  request: ArgumentRequest,
  arg: ArgumentSpec,
  index: number,
  given: Record<string, string>,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const pick = vscode.window.createQuickPick<SuggestionItem>();
  pick.title = inertText(oneLine(request.title, 160));
  pick.step = index + 1;
  pick.totalSteps = request.args.length;
  const label = inertText(oneLine(arg.title ?? arg.name, 80));
  const named = arg.required ? label : vscode.l10n.t('{0} (optional)', label);
  pick.placeholder = `${named}${arg.description ? ` — ${inertText(oneLine(arg.description, 200))}` : ''}`;
  pick.value = given[arg.name] ?? '';
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  if (index > 0) pick.buttons = [vscode.QuickInputButtons.Back];
  const context = { ...given };
  delete context[arg.name];

  let suggestions: string[] = [];
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = (): void => {
    const typed = pick.value;
    const items: SuggestionItem[] = suggestions.map((value) => ({ label: inertText(oneLine(value, 200)), value, alwaysShow: true }));
    // Suggestions first (Enter takes the best match); what was typed is always there too.
    if (typed !== '' && !suggestions.includes(typed)) {
      items.push({ label: inertText(oneLine(typed, 200)), description: vscode.l10n.t('as typed'), value: typed, alwaysShow: true });
    }
    if (typed === '' && !arg.required) items.unshift({ label: vscode.l10n.t('(leave empty)'), value: '', alwaysShow: true });
    pick.items = items;
  };
  const suggest = (): void => {
    const mine = ++generation;
    pick.busy = true;
    complete(request.server, request.ref, { name: arg.name, value: pick.value }, context)
      .then((result) => {
        if (mine !== generation) return;
        suggestions = result.values;
        render();
      })
      .catch((error: unknown) => {
        if (mine === generation) request.log.warn(`${request.server.name}: completion for "${arg.name}" failed: ${errorText(error)}`);
      })
      .finally(() => {
        if (mine === generation) pick.busy = false;
      });
  };

  return new Promise<StepOutcome>((resolve) => {
    const disposables: vscode.Disposable[] = [];
    let settled = false;
    const settle = (outcome: StepOutcome): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      generation++;
      signal.removeEventListener('abort', onAbort);
      for (const d of disposables) d.dispose();
      pick.dispose();
      resolve(outcome);
    };
    const onAbort = (): void => settle({ kind: 'cancel' });
    signal.addEventListener('abort', onAbort, { once: true });
    disposables.push(
      pick.onDidChangeValue(() => {
        render();
        if (timer) clearTimeout(timer);
        timer = setTimeout(suggest, DEBOUNCE_MS);
      }),
      pick.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && settle({ kind: 'back' })),
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.value ?? pick.value;
        if (chosen === '' && arg.required) {
          pick.placeholder = vscode.l10n.t('{0} is required: type a value or pick a suggestion', label);
          return;
        }
        settle({ kind: 'value', value: chosen });
      }),
      pick.onDidHide(() => settle({ kind: 'cancel' })),
    );
    render();
    pick.show();
    suggest();
  });
}
