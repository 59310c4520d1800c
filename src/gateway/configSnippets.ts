/** Ready-to-paste configuration for agents outside the editor, with the real URL and token. */

export interface ConfigSnippet {
  id: 'claude' | 'codex' | 'gemini' | 'mcpJson';
  label: string;
  detail: string;
  text: string;
}

export function gatewaySnippets(url: string, token: string): ConfigSnippet[] {
  return [
    {
      id: 'claude',
      label: 'Claude Code',
      detail: 'A command to run in a terminal',
      text: `claude mcp add --transport http elicit ${url} --header "Authorization: Bearer ${token}"`,
    },
    {
      id: 'codex',
      label: 'Codex CLI',
      detail: '~/.codex/config.toml, with the token in an environment variable',
      text: [
        `# In your shell profile: export ELICIT_GATEWAY_TOKEN="${token}"`,
        '[mcp_servers.elicit]',
        `url = "${url}"`,
        'bearer_token_env_var = "ELICIT_GATEWAY_TOKEN"',
      ].join('\n'),
    },
    {
      id: 'gemini',
      label: 'Gemini CLI',
      detail: '~/.gemini/settings.json',
      text: JSON.stringify({ mcpServers: { elicit: { httpUrl: url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
    },
    {
      id: 'mcpJson',
      label: 'Generic mcp.json',
      detail: 'For clients that read the common mcp.json format',
      text: JSON.stringify({ servers: { elicit: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
    },
  ];
}
