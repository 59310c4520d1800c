/** A `resources/read` result as Markdown for a read-only editor. */
import type { ReadResourceResult } from './types';
import { resourceContentsLines } from './contentText';

export function formatResourceResult(server: string, uri: string, result: ReadResourceResult): string {
  const lines = [`# ${server} › ${uri}`, ''];
  for (const contents of result.contents) lines.push(...resourceContentsLines(contents));
  if (result.contents.length === 0) lines.push('_The resource is empty._');
  return lines.join('\n');
}
