/**
 * JSON Schema `pattern` (ECMA-262 syntax, `u` flag, as ajv compiles it) run in
 * time linear in the input, in the host and in the webview alike. V8's RegExp
 * backtracks: `^(a|a){40}$` on 30 characters froze the extension host for a
 * minute. Here the pattern becomes a Thompson automaton that follows every
 * way of matching at once (a Pike VM without captures), so each input
 * character costs at most one step per state.
 *
 * Exact ECMAScript meaning is kept by asking the native RegExp only about one
 * character at a time (`[a-z]`, `\p{Ll}`, `.`, `\u00e9` against a single code
 * point), which cannot backtrack. No eval, so the webview's CSP holds. What no
 * automaton can do (backreferences, lookaround) is refused, with the reason.
 *
 * re2js (the RE2 port) was the other choice: 150 KB minified, which the
 * extension (600 KB) and webview (150 KB) budgets cannot take, and RE2's
 * syntax is not ECMAScript's (`\u00e9`, `\s`), so answers could be judged
 * unlike the asker's own check.
 */

export class UnsupportedPatternError extends Error {}

/**
 * States one pattern may compile to (`x{0,100}` is 200): each input character costs at most one
 * visit of each, about 30 ns, so a check of MAX_PATTERN_INPUT characters stays under 100 ms.
 */
export const MAX_PATTERN_STATES = 2_000;

type Assertion = '^' | '$' | 'b' | 'B';
type Node = { char: (cp: number) => boolean } | { assert: Assertion } | { branches: Node[][] } | { repeat: Node; min: number; max: number };

/** Every state has the same shape (V8 keeps the loop fast on one shape). */
interface State {
  /** A character to read; null for a split, an assertion or "matched". */
  char: ((cp: number) => boolean) | null;
  assert: Assertion | null;
  /** Where to go next: one state after a character or assertion, any number after a split; none for "matched". */
  next: State[];
  mark: number;
}

export interface LinearPattern {
  test(text: string): boolean;
}

/** Throws SyntaxError for an invalid pattern and UnsupportedPatternError for what an automaton cannot run. */
export function compileLinearPattern(pattern: string): LinearPattern {
  new RegExp(pattern, 'u'); // the syntax check (compiling is safe; running is what backtracks)
  const parser = new Parser(pattern);
  const tree = parser.alternatives();
  let states = 0;
  const state = (next: State[], char: State['char'] = null, assert: Assertion | null = null): State => {
    if (++states > MAX_PATTERN_STATES) throw new UnsupportedPatternError('its repetitions make it too large to check');
    return { char, assert, next, mark: -1 };
  };
  const sequence = (nodes: Node[], then: State): State => nodes.reduceRight((next, node) => build(node, next), then);
  const build = (node: Node, then: State): State => {
    if ('char' in node) return state([then], node.char);
    if ('assert' in node) return state([then], null, node.assert);
    if ('branches' in node) return state(node.branches.map((b) => sequence(b, then)));
    let entry = then;
    if (node.max === Infinity) {
      const loop = state([]);
      loop.next.push(build(node.repeat, loop), then);
      entry = loop;
    } else {
      // Optional copies, innermost first: x{0,2} is (x(x)?)?.
      for (let i = node.min; i < node.max; i++) entry = state([build(node.repeat, entry), then]);
    }
    // A state per copy, even for an empty group: `(?:){100000000}` must not loop unseen.
    for (let i = 0; i < node.min; i++) entry = build(node.repeat, state([entry]));
    return entry;
  };
  const start = sequence(tree, { char: null, assert: null, next: [], mark: -1 });
  return { test: (text) => run(start, text) };
}

/** Marks which states a position already holds; it only grows, so marks left by an earlier run never count. */
let clock = 0;

function run(start: State, text: string): boolean {
  clock++;
  let current: State[] = [];
  let prev = -1;
  let cp = text.length > 0 ? text.codePointAt(0)! : -1;
  for (let pos = 0; ;) {
    // Unanchored: a match may also begin here. `current` holds every thread at this position.
    if (follow(start, current, clock, prev, cp)) return true;
    if (cp < 0) return false;
    pos += cp > 0xffff ? 2 : 1;
    const next: State[] = [];
    const after = pos < text.length ? text.codePointAt(pos)! : -1;
    clock++;
    for (const s of current) if (s.char!(cp) && follow(s.next[0]!, next, clock, cp, after)) return true;
    current = next;
    prev = cp;
    cp = after;
  }
}

/**
 * Adds `from` and every state reachable from it without reading a character
 * to `list` (each once per position). True when "matched" is reachable.
 */
function follow(from: State, list: State[], mark: number, prev: number, cp: number): boolean {
  const stack = [from];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (s.mark === mark) continue;
    s.mark = mark;
    if (s.char) list.push(s);
    else if (s.next.length === 0) return true;
    else if (!s.assert || holds(s.assert, prev, cp)) for (const n of s.next) if (n.mark !== mark) stack.push(n);
  }
  return false;
}

function holds(assertion: Assertion, prev: number, cp: number): boolean {
  if (assertion === '^') return prev < 0;
  if (assertion === '$') return cp < 0;
  return (isWordChar(prev) !== isWordChar(cp)) === (assertion === 'b');
}

/** `\w` of the `u` flag without `i`: ASCII letters, digits and `_`. */
function isWordChar(cp: number): boolean {
  return cp >= 0 && /\w/.test(String.fromCodePoint(cp));
}

/** One character class (`[a-z]`, `\d`, `.`, a literal) as a test of one code point, by the native engine. */
function charTest(source: string): (cp: number) => boolean {
  const regex = new RegExp(`^(?:${source})$`, 'u');
  const ascii = new Int8Array(128); // 0 not asked yet, 1 no, 2 yes
  return (cp) => {
    if (cp >= 128) return regex.test(String.fromCodePoint(cp));
    if (ascii[cp] === 0) ascii[cp] = regex.test(String.fromCharCode(cp)) ? 2 : 1;
    return ascii[cp] === 2;
  };
}

/** The `u`-flag grammar, reading a pattern the native RegExp has already accepted. */
class Parser {
  private i = 0;
  constructor(private readonly p: string) {}

  alternatives(): Node[] {
    const branches: Node[][] = [[]];
    while (this.i < this.p.length && this.p[this.i] !== ')') {
      if (this.read(/\|/y)) branches.push([]);
      else branches.at(-1)!.push(this.term());
    }
    return branches.length === 1 ? branches[0]! : [{ branches }];
  }

  private term(): Node {
    const assertion = this.read(/\^|\$|\\[bB]/y);
    if (assertion) return { assert: assertion.at(-1) as Assertion };
    if (this.read(/\\(?:[1-9]|k)/y)) throw new UnsupportedPatternError('it uses a backreference');
    if (this.read(/\(\?<?[=!]/y)) throw new UnsupportedPatternError('it uses a lookahead or lookbehind');
    if (this.read(/\(\?[a-z-]+[:)]/y)) throw new UnsupportedPatternError('it uses inline flags');
    if (this.read(/\((?:\?:|\?<[^>]+>)?/y)) {
      const inner = this.alternatives();
      this.i++; // ")"
      return this.quantified({ branches: [inner] });
    }
    const atom = this.read(
      /\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|[\s\S])|\[(?:\\[\s\S]|[^\]\\])*\]|[\ud800-\udbff][\udc00-\udfff]|[\s\S]/y,
    )!;
    return this.quantified({ char: charTest(atom) });
  }

  private quantified(node: Node): Node {
    const q = this.read(/(?:[*+?]|\{\d+(?:,\d*)?\})\??/y);
    if (!q) return node;
    if (q[0] !== '{') return { repeat: node, min: q[0] === '+' ? 1 : 0, max: q[0] === '?' ? 1 : Infinity };
    const [low, high] = q.slice(1).split(/[,}]/);
    const min = Number(low);
    return { repeat: node, min, max: !q.includes(',') ? min : high === '' ? Infinity : Number(high) };
  }

  /** The text `sticky` matches at the current position (then moves past it), or undefined. */
  private read(sticky: RegExp): string | undefined {
    sticky.lastIndex = this.i;
    const match = sticky.exec(this.p);
    if (!match) return undefined;
    this.i = sticky.lastIndex;
    return match[0];
  }
}
