/**
 * claude-agent-acp 0.101 run offline as every test runs it: its own home,
 * config and temp folders (the Claude Code binary keeps session files under
 * $TMPDIR/claude-<uid>/, outside what a leak scan reads), the scripted Messages
 * endpoint in place of Anthropic's service, no other traffic. And the
 * AskUserQuestion call the tests script the model to make.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const claudeAcp = join(__dirname, '..', '..', 'node_modules', '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js');

/**
 * Makes `<dir>/home` and `<dir>/tmp` and returns claude's environment pointed at `modelUrl`. Without
 * `apiKey` none is set: an e2e test gives it through the environment VS Code started in, as a shell would.
 */
export function claudeOfflineEnv(dir: string, modelUrl: string, apiKey?: string): Record<string, string> {
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  return {
    HOME: home,
    TMPDIR: tmp,
    CLAUDE_CODE_TMPDIR: tmp,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ...(apiKey === undefined ? {} : { ANTHROPIC_API_KEY: apiKey }),
    ANTHROPIC_BASE_URL: modelUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // As root the Claude Agent SDK refuses to start without it.
    IS_SANDBOX: '1',
  };
}

/** The model's AskUserQuestion call: a single-select and a multi-select. */
export const askTwoQuestions = {
  tool: 'AskUserQuestion',
  input: {
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        multiSelect: false,
        options: [
          { label: 'Postgres', description: 'A relational server.' },
          { label: 'SQLite', description: 'One file, no server.', preview: 'app/\n└── data.sqlite   one file, no server' },
        ],
      },
      {
        question: 'Which features?',
        header: 'Features',
        multiSelect: true,
        options: [
          { label: 'Auth', description: 'Sign in.' },
          { label: 'Search', description: 'Full text.' },
          { label: 'Export', description: 'CSV files.' },
        ],
      },
    ],
  },
};
