/**
 * A `prompts/get` result as Markdown for a read-only editor: each message under
 * its role, text as written, images and audio described, resources shown.
 */
import type { GetPromptResult } from './types';
import { contentBlockLines } from './contentText';

export function formatPromptResult(server: string, prompt: string, args: Record<string, string>, result: GetPromptResult): string {
  const lines = [`# ${server} › ${prompt}`, ''];
  if (result.description) lines.push(`_${result.description}_`, '');
  const given = Object.entries(args);
  if (given.length > 0) lines.push('Arguments:', '', ...given.map(([name, value]) => `- \`${name}\`: ${value}`), '');
  result.messages.forEach((message, index) => {
    lines.push(`## ${index + 1}. ${message.role}`, '', ...contentBlockLines(message.content));
  });
  if (result.messages.length === 0) lines.push('_The prompt has no messages._');
  return lines.join('\n');
}
