/**
 * What a terminal sign-in will run, in words the person reads before the
 * terminal opens: the command line, and the variables the agent's method adds
 * (values that look secret masked). Pure; the VS Code layer makes it inert.
 */
import { oneLine } from '../core/display';
import type { TerminalLogin } from './signIn';

/** A name that says it holds a secret. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|AUTH|CRED|COOKIE|SESSION|PRIVATE|SIGNATURE/i;
/** A value shaped like a key: long, no spaces, letters and digits. */
const SECRET_VALUE = /^(?=.*[A-Za-z])(?=.*\d)\S{16,}$/;
export const MASK = '••••••';

export function terminalLoginText(login: TerminalLogin): string {
  const command = [login.command, ...login.args].map((part) => quoted(oneLine(part, 200))).join(' ');
  const lines = [`Command: ${command}`];
  if (login.cwd !== undefined) lines.push(`In: ${oneLine(login.cwd, 200)}`);
  const added = Object.entries(login.methodEnv);
  if (added.length === 0) lines.push('It sets no environment variables of its own.');
  else {
    lines.push('Environment variables it sets:');
    for (const [name, value] of added) lines.push(`  ${oneLine(name, 80)}=${shownValue(name, value)}`);
  }
  return lines.join('\n');
}

function shownValue(name: string, value: string): string {
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value) ? MASK : quoted(oneLine(value, 200));
}

/** A shell-like reading of one word: quoted when it holds spaces, quotes or nothing. */
function quoted(word: string): string {
  return word === '' || /[\s'"\\$`]/.test(word) ? `'${word.replace(/'/g, `'\\''`)}'` : word;
}
