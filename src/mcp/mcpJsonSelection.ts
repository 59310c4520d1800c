/**
 * Which servers of a workspace's `.vscode/mcp.json` Elicit connects to: the
 * `elicit.mcpJsonServers` setting. VS Code's own MCP support reads the same
 * file and starts its own process of a server for chat, so a server used from
 * both runs twice; this lets the person leave some (or all) to VS Code.
 *
 *   ["*"]                 every server (the default)
 *   ["*", "!github"]      every server but github
 *   ["docs", "weather"]   only these
 *   []                    none: Elicit uses only the elicit.servers setting
 */

export const DEFAULT_SELECTION: readonly string[] = ['*'];

/** The setting's value as a list of rules; anything but a list of strings is the default. */
export function readSelection(value: unknown): readonly string[] {
  return Array.isArray(value) && value.every((rule) => typeof rule === 'string') ? value : DEFAULT_SELECTION;
}

/** True when a rule names the server (or is "*") and no "!name" rule leaves it out. */
export function selectsServer(rules: readonly string[], name: string): boolean {
  const trimmed = rules.map((rule) => rule.trim());
  if (trimmed.includes(`!${name}`)) return false;
  return trimmed.includes('*') || trimmed.includes(name);
}
