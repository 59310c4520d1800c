/** The TypeScript files under a folder of the repository, at any depth. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = join(dir, entry.name);
    return entry.isDirectory() ? typeScriptFiles(file) : entry.name.endsWith('.ts') ? [file] : [];
  });
}
