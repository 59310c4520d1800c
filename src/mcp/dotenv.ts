/**
 * The dotenv format of an `envFile`: `KEY=value` lines, `export KEY=value`,
 * `#` comments, single quotes (literal), double quotes (with \n, \t, \", \\
 * escapes, and line breaks inside), backquotes, and ` #` comments after
 * unquoted values. No variable expansion. Pure: text in, variables out.
 */

export interface DotenvResult {
  env: Record<string, string>;
  /** Lines that are not `KEY=value`, as "line N: why" (never with the line's text: it may hold a secret). */
  problems: string[];
}

const KEY = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*/;

export function parseDotenv(text: string): DotenvResult {
  const env: Record<string, string> = {};
  const problems: string[] = [];
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let pos = 0;
  let line = 1;
  while (pos < source.length) {
    const end = lineEnd(source, pos);
    const raw = source.slice(pos, end);
    const trimmed = raw.trim();
    const startLine = line;
    if (trimmed === '' || trimmed.startsWith('#')) {
      ({ pos, line } = next(source, end, line));
      continue;
    }
    const key = KEY.exec(raw.trimStart());
    if (!key) {
      problems.push(`line ${startLine}: expected KEY=value`);
      ({ pos, line } = next(source, end, line));
      continue;
    }
    const valueStart = pos + (raw.length - raw.trimStart().length) + key[0].length;
    const quote = source[valueStart];
    if (quote === '"' || quote === "'" || quote === '`') {
      const closing = quote === '"' ? closingDoubleQuote(source, valueStart + 1) : source.indexOf(quote, valueStart + 1);
      if (closing === -1) {
        problems.push(`line ${startLine}: the ${quote} quote is never closed`);
        ({ pos, line } = next(source, end, line));
        continue;
      }
      const body = source.slice(valueStart + 1, closing);
      env[key[1]!] = quote === '"' ? unescapeDouble(body) : body;
      line += countLineBreaks(body);
      const rest = lineEnd(source, closing + 1);
      ({ pos, line } = next(source, rest, line));
      continue;
    }
    env[key[1]!] = source
      .slice(valueStart, end)
      .replace(/\s+#.*$/, '')
      .trim();
    ({ pos, line } = next(source, end, line));
  }
  return { env, problems };
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function next(text: string, end: number, line: number): { pos: number; line: number } {
  return { pos: end + 1, line: end < text.length ? line + 1 : line };
}

function closingDoubleQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function unescapeDouble(body: string): string {
  return body.replace(/\\([nrt"\\$])/g, (_whole, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
}

function countLineBreaks(text: string): number {
  return text.split('\n').length - 1;
}
