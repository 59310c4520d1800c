/**
 * App questions in the editor (draft SEP-3118): what the app is given of the
 * question and of the editor, how its answer is put under the form's field names,
 * and the tab title's **Answer in Elicit's Form**, which gives the question to
 * Elicit's own form whatever the app does (it is VS Code's button, out of the
 * app's reach). Turning app questions on or off is apps/register.ts's.
 */
import * as vscode from 'vscode';
import type { AppHostContext, AppQuestionParams } from '../../core/apps/appBridge';
import { composedName } from '../../core/form/group';
import type { ElicitRequest } from '../../core/request';

/** Shown only while the active tab shows an app (package.json `when`). */
const CONTEXT_KEY = 'elicit.formShowsApp';
export const USE_FORM_COMMAND = 'elicit.answerInElicitForm';

interface AppPanel {
  readonly active: boolean;
  readonly onDidChangeViewState: vscode.Event<unknown>;
}

export class AppQuestions {
  /** Panels showing an app now, with how each gives way to Elicit's form. */
  private static readonly panels = new Map<AppPanel, { useForm: () => void; watch: vscode.Disposable }>();

  static shown(panel: AppPanel, useForm: () => void): void {
    AppQuestions.hidden(panel);
    const watch = panel.onDidChangeViewState(() => AppQuestions.update());
    AppQuestions.panels.set(panel, { useForm, watch });
    AppQuestions.update();
  }

  static hidden(panel: AppPanel): void {
    const entry = AppQuestions.panels.get(panel);
    if (!entry) return;
    entry.watch.dispose();
    AppQuestions.panels.delete(panel);
    AppQuestions.update();
  }

  /** The title bar's button: the active tab's question in Elicit's form. */
  static useFormInActive(): void {
    for (const [panel, entry] of AppQuestions.panels) if (panel.active) return entry.useForm();
  }

  private static update(): void {
    const active = [...AppQuestions.panels.keys()].some((panel) => panel.active);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, active);
  }
}

/** The title bar's Answer in Elicit's Form on a tab showing an app. */
export function registerUseFormCommand(): vscode.Disposable {
  return vscode.commands.registerCommand(USE_FORM_COMMAND, () => AppQuestions.useFormInActive());
}

/** The question as its server sent it: a form's, or a round's one question. */
export function appQuestionParams(request: ElicitRequest): AppQuestionParams {
  if (request.mode === 'group')
    return { message: request.sections[0]?.message ?? request.message, requestedSchema: request.sections[0]?.requestedSchema };
  return { message: request.message, requestedSchema: request.mode === 'form' ? request.requestedSchema : undefined };
}

/** The app's content (by the server's property names) under the form's field names: a round's are composed. */
export function appContent(request: ElicitRequest, content: unknown): unknown {
  if (request.mode !== 'group' || typeof content !== 'object' || content === null || Array.isArray(content)) return content;
  return Object.fromEntries(Object.entries(content).map(([property, value]) => [composedName(0, property), value]));
}

export function appHostContext(): AppHostContext {
  const kind = vscode.window.activeColorTheme.kind;
  const dark = kind === vscode.ColorThemeKind.Dark || kind === vscode.ColorThemeKind.HighContrast;
  return { theme: dark ? 'dark' : 'light', locale: vscode.env.language };
}
