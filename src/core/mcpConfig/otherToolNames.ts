/**
 * The other tools whose MCP servers Elicit can read (otherTools.ts reads them),
 * by the keys of the `elicit.discovery` setting, and how each is named. Apart
 * from the readers, so naming them loads none of them.
 */
export type OtherTool = 'claude-desktop' | 'claude-code' | 'cursor-global' | 'cursor-workspace' | 'windsurf' | 'codex' | 'gemini';

export const OTHER_TOOLS: readonly OtherTool[] = [
  'claude-desktop',
  'claude-code',
  'cursor-global',
  'cursor-workspace',
  'windsurf',
  'codex',
  'gemini',
];

/** How each is named to the person. */
export const OTHER_TOOL_NAMES: Readonly<Record<OtherTool, string>> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  'cursor-global': 'Cursor (global)',
  'cursor-workspace': 'Cursor (workspace)',
  windsurf: 'Windsurf',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
};
