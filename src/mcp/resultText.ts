/**
 * A tool result as Markdown for a read-only editor: text as written, images and
 * audio described, resources linked, structured content as JSON, errors flagged.
 */
import type { CallToolResult } from './types';
import { fence } from './contentText';

export function formatToolResult(server: string, tool: string, result: CallToolResult): string {
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
  if (result.structuredContent !== undefined) {
    lines.push('## Structured content', '', fence(JSON.stringify(result.structuredContent, null, 2), 'json'), '');
  }
  if ((result.content ?? []).length === 0 && result.structuredContent === undefined) lines.push('_The tool returned no content._');
  return lines.join('\n');
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
