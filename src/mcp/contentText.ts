/** MCP content blocks and resource contents as Markdown lines (shared by prompt and resource views). */

interface ContentBlockLike {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: ResourceContentsLike;
}

export interface ResourceContentsLike {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export function contentBlockLines(block: ContentBlockLike): string[] {
  switch (block.type) {
    case 'text':
      return [block.text ?? '', ''];
    case 'image':
    case 'audio':
      return [`_[${block.type}: ${block.mimeType ?? 'unknown type'}, ${approximateBytes(block.data ?? '')} bytes]_`, ''];
    case 'resource_link':
      return [`[${block.name ?? block.uri}](${block.uri})${block.description ? ` — ${block.description}` : ''}`, ''];
    case 'resource':
      return block.resource ? resourceContentsLines(block.resource) : [];
    default:
      return [fence(JSON.stringify(block, null, 2), 'json'), ''];
  }
}

/** Text as a fenced block; binary contents described (type and size), never dumped. */
export function resourceContentsLines(contents: ResourceContentsLike): string[] {
  const heading = `Resource \`${contents.uri}\`${contents.mimeType ? ` (${contents.mimeType})` : ''}`;
  if (typeof contents.text === 'string') return [heading, '', fence(contents.text, languageOf(contents.mimeType)), ''];
  if (typeof contents.blob === 'string') {
    return [
      heading,
      '',
      `_Binary content: ${approximateBytes(contents.blob)} bytes${contents.mimeType ? ` of ${contents.mimeType}` : ''}._`,
      '',
    ];
  }
  return [heading, '', '_No content._', ''];
}

export function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

export function approximateBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

function languageOf(mimeType: string | undefined): string {
  if (!mimeType) return '';
  if (mimeType === 'application/json' || mimeType.endsWith('+json')) return 'json';
  if (mimeType === 'text/markdown') return 'markdown';
  if (mimeType === 'text/html') return 'html';
  if (mimeType === 'text/x-python') return 'python';
  if (mimeType === 'application/javascript' || mimeType === 'text/javascript') return 'javascript';
  return '';
}
