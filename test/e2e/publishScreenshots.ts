/**
 * `npm run screenshots [-- name…]`: the deliberate step that updates the
 * README's pictures. Tests write every screenshot to test/e2e/.runs/screenshots
 * (ignored by git); this copies the chosen ones into docs/screenshots, the
 * tracked folder the documents link to. Chosen: every docs/screenshots/<name>.png
 * that README.md or CONTRIBUTING.md links to, plus the names given (to add a
 * picture before linking it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { screenshotDir } from './harness/runFolders';

export const PUBLISHED_DIR = 'docs/screenshots';

export interface PublishOptions {
  /** Where the tests wrote their screenshots. */
  from: string;
  /** The repository root: documents are read and pictures written relative to it. */
  root: string;
  documents: string[];
  /** More screenshot names (without .png) to publish. */
  extra?: string[];
}

export interface PublishResult {
  copied: string[];
  /** Linked or asked for, but no test run has taken them. */
  missing: string[];
}

/** Names of the published screenshots a Markdown text links to, in order of first mention. */
export function linkedScreenshots(markdown: string): string[] {
  const pattern = new RegExp(`${PUBLISHED_DIR.replace('/', '\\/')}\\/([\\w.-]+)\\.png`, 'g');
  return [...new Set([...markdown.matchAll(pattern)].map((m) => m[1]!))];
}

export function publishScreenshots(options: PublishOptions): PublishResult {
  const names = new Set(options.extra ?? []);
  for (const document of options.documents) {
    const file = path.join(options.root, document);
    if (fs.existsSync(file)) for (const name of linkedScreenshots(fs.readFileSync(file, 'utf8'))) names.add(name);
  }
  const target = path.join(options.root, PUBLISHED_DIR);
  fs.mkdirSync(target, { recursive: true });
  const result: PublishResult = { copied: [], missing: [] };
  for (const name of names) {
    const shot = path.join(options.from, `${name}.png`);
    if (!fs.existsSync(shot)) {
      result.missing.push(name);
      continue;
    }
    fs.copyFileSync(shot, path.join(target, `${name}.png`));
    result.copied.push(name);
  }
  return result;
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..', '..');
  const result = publishScreenshots({
    from: screenshotDir,
    root,
    documents: ['README.md', 'CONTRIBUTING.md'],
    extra: process.argv.slice(2),
  });
  for (const name of result.copied) console.log(`copied ${name}.png → ${PUBLISHED_DIR}/`);
  if (result.missing.length > 0) {
    console.error(
      `not in ${path.relative(root, screenshotDir)} (run the end-to-end test that takes it first): ${result.missing.map((n) => `${n}.png`).join(', ')}`,
    );
    process.exit(1);
  }
  console.log(`Review the pictures (git diff --stat ${PUBLISHED_DIR}) and commit the ones you mean to change.`);
}
