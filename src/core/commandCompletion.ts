/**
 * Slash-command completion in the agent panel: while the prompt is "/" and a
 * word with nothing after it, the agent's commands (`available_commands_update`)
 * that match the word are offered, those starting with it first. Pure, shared
 * by the webview and the tests.
 */
import type { CommandView } from './protocols/agentPanelProtocol';

const MAX_SHOWN = 12;

/** The word after "/" while the person is still typing the command name, else undefined. */
export function commandQuery(prompt: string): string | undefined {
  const match = /^\/([^\s/]*)$/.exec(prompt);
  return match ? match[1]! : undefined;
}

export function matchCommands(query: string, commands: readonly CommandView[]): CommandView[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, MAX_SHOWN);
}

/** The prompt once a command is chosen: "/name " ready for its input. */
export function completedPrompt(command: CommandView): string {
  return `/${command.name} `;
}
