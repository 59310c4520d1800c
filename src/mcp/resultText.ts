/**
 * A tool result as Markdown for a read-only view: text as written, images and
 * audio described, resources linked, errors flagged; the structured content,
 * JSON for programs more than for people, as a part shown folded away.
 */
import type { CallToolResult } from './types';
import { fence } from './contentText';

/** A result to show: its Markdown, and a part shown folded under `summary` (plain text). */
export interface ResultDocument {
  markdown: string;
  folded?: { summary: string; markdown: string };
}

export function formatToolResult(server: string, tool: string, result: CallToolResult): ResultDocument {
  const lines = [`# ${server} › ${tool}`, ''];
  if (result.isError) lines.push('> **The tool reported an error.**', '');
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        lines.push(item.text, '');
        break;
      case 'image':
      case 'audio':
        lines.push(`_[${item.type}: ${item.mimeType}, ${approximateBytes(item.data)} bytes]_`, '');
        break;
      case 'resource_link':
        lines.push(`[${item.name}](${item.uri})${item.description ? ` — ${item.description}` : ''}`, '');
        break;
      case 'resource': {
        const resource = item.resource as { uri: string; text?: string; mimeType?: string };
        lines.push(`Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}`, '');
        if (typeof resource.text === 'string') lines.push(fence(resource.text), '');
        break;
      }
      default:
        lines.push(fence(JSON.stringify(item, null, 2), 'json'), '');
    }
  }
  if ((result.content ?? []).length === 0 && result.structuredContent === undefined) lines.push('_The tool returned no content._');
  const markdown = lines.join('\n');
  if (result.structuredContent === undefined) return { markdown };
  const json = fence(JSON.stringify(result.structuredContent, null, 2), 'json');
  return { markdown, folded: { summary: 'Structured content (JSON)', markdown: json } };
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
