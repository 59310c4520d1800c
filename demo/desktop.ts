/**
 * The demo in a desktop VS Code: where the browser demo cannot run (macOS,
 * Windows, Linux on ARM) or when asked with `--desktop`. Installs the VSIX with
 * the `code` command and opens the demo workspace.
 */
import spawn from 'cross-spawn';

/** The `code` command on PATH, if there is one. */
export function desktopCode(): string | undefined {
  const finder =
    process.platform === 'win32'
      ? spawn.sync('where', ['code'], { encoding: 'utf8' })
      : spawn.sync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const first = finder.status === 0 ? String(finder.stdout).split(/\r?\n/)[0]?.trim() : undefined;
  return first || undefined;
}

/** Installs the VSIX and opens the workspace in a new window; returns a problem in a sentence, or undefined. */
export function openInDesktop(code: string, vsix: string, workspace: string): string | undefined {
  const install = spawn.sync(code, ['--install-extension', vsix, '--force'], { encoding: 'utf8' });
  if (install.status !== 0) return `"${code} --install-extension" failed:\n${String(install.stdout ?? '')}${String(install.stderr ?? '')}`;
  const open = spawn.sync(code, ['--new-window', workspace], { encoding: 'utf8' });
  if (open.status !== 0) return `"${code} ${workspace}" failed:\n${String(open.stderr ?? '')}`;
  return undefined;
}
