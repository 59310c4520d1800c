/**
 * Packages a small extension folder (a test companion) into a VSIX with the
 * repo's vsce, in test/e2e/.runs/vsix (ignored by git, rebuilt each time).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './codeServer';
import { runsDir } from './runFolders';

const execFileAsync = promisify(execFile);

export async function packageExtension(sourceDir: string): Promise<string> {
  const work = path.join(runsDir, 'vsix', path.basename(sourceDir));
  await fs.promises.rm(work, { recursive: true, force: true });
  const extDir = path.join(work, 'ext');
  await fs.promises.cp(sourceDir, extDir, { recursive: true });
  if (!fs.existsSync(path.join(extDir, 'README.md'))) await fs.promises.writeFile(path.join(extDir, 'README.md'), '# Test extension\n');
  const vsix = path.join(work, `${path.basename(sourceDir)}.vsix`);
  const vsce = path.join(repoRoot, 'node_modules', '.bin', 'vsce');
  await execFileAsync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: extDir });
  return vsix;
}
