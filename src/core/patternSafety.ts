/**
 * A `pattern` from an asker runs against what the person types, in the host
 * and in the webview, on the UI thread. A pattern that can backtrack
 * catastrophically (`^(a+)+$`) would freeze both, so such patterns are refused
 * up front. The check is the classic "star height" rule, deliberately
 * conservative: a group repeated without bound (`*`, `+`, `{n,}`) may not
 * itself contain an unbounded repetition or an alternation; backreferences are
 * refused too. Everyday patterns (`^[A-Z]{3}-\d{3}$`, emails, slugs) pass.
 *
 * Star height alone misses polynomial backtracking: `a*a*b` or `.*x.*y` are
 * flat, yet take n³ steps on a failing input (a*a*b: 2 s for 2 000 characters,
 * minutes for 10 000). So repetitions in sequence are counted too (see
 * polynomialDegree), and the input a pattern runs on is capped (validate.ts).
 */

export function unsafePatternReason(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return 'it uses a backreference';
  // Stack of open groups: does the group contain a quantifier or an alternation?
  const groups: Array<{ risky: boolean; start: number }> = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++; // The escaped character is a literal (or a class like \d): skip it.
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      groups.push({ risky: false, start: i + 1 });
    } else if (c === '|') {
      const top = groups.at(-1);
      if (top) top.risky = true;
    } else if (c === ')') {
      const group = groups.pop();
      const quantified = isQuantifier(pattern, i + 1);
      if (group && group.risky && separatedRepetition(pattern.slice(group.start, i))) group.risky = false;
      if (group?.risky && quantified) return 'a repeated group contains a repetition or an alternative, which can take exponential time';
      // A quantified group makes its enclosing group risky too.
      const parent = groups.at(-1);
      if (parent && (quantified || group?.risky)) parent.risky = true;
    } else if (isQuantifier(pattern, i)) {
      const top = groups.at(-1);
      if (top) top.risky = true;
    }
  }
  const degree = degreeOf(pattern);
  if (degree === TOO_INTRICATE) return 'its repetitions nest too deeply to check that it runs fast';
  if (degree > MAX_DEGREE) {
    return 'repetitions in a row can match the same text, which takes polynomial time on long input';
  }
  return undefined;
}

/** A bounded repetition with a larger upper bound (`a{1,1000}`) is as slow as an unbounded one. */
const LARGE_BOUND = 32;

/** Is there an unbounded quantifier (`*`, `+`, `{n,}`, `{n,m}` with a large m) at position i? */
function isQuantifier(pattern: string, i: number): boolean {
  const c = pattern[i];
  if (c === '*' || c === '+') return true;
  const bounds = c === '{' ? /^\{\d+,(\d*)\}/.exec(pattern.slice(i, i + 24)) : null;
  return bounds !== null && (bounds[1] === '' || Number(bounds[1]) > LARGE_BOUND);
}

/**
 * `[a-z0-9]+-` or `\d+\.`: one repeated character class followed by a literal
 * the class cannot match. Repeating such a group cannot backtrack
 * exponentially (the literal marks where each repetition ends), and it is how
 * slugs and dotted versions are commonly written.
 */
function separatedRepetition(body: string): boolean {
  const match = /^(?:\?:)?(\[(?:\\.|[^\]\\])+\]|\\[dDwWsS]|[A-Za-z0-9])[+*](\\[^dDwWsSbB0-9kpPu]|[^\\[\](){}.*+?^$|])$/.exec(body);
  if (!match) return false;
  const literal = match[2]!.length === 2 ? match[2]![1]! : match[2]!;
  try {
    return !new RegExp(`^${match[1]}$`, 'u').test(literal);
  } catch {
    return false;
  }
}

/**
 * Worst-case steps grow like n^degree on an n-character input: with up to 2
 * (`a*b` unanchored, or `^[^@]+@[^@]+\.[a-z]+$`) a check of the longest input
 * a pattern is run on (MAX_PATTERN_INPUT) takes about a millisecond.
 */
const MAX_DEGREE = 2;

type Node =
  | { kind: 'atom'; chars: boolean[]; min: number; max: number }
  | { kind: 'group'; branches: Node[][]; lookaround: boolean; min: number; max: number }
  | { kind: 'assertion'; start: boolean };

/**
 * The longest chain of unbounded repetitions that follow one another and can
 * match the same character (nothing mandatory and disjoint in between), plus
 * one when the pattern is not anchored with `^` (it is retried at every
 * position). A deliberate over-estimate: alternatives count as a sequence and
 * repeated groups as one repetition of all their characters.
 */
export function polynomialDegree(pattern: string): number {
  const degree = degreeOf(pattern);
  return degree === TOO_INTRICATE ? Infinity : degree;
}

/**
 * Nodes the degree check may visit. A bounded group is walked once per
 * repetition (up to 3), so nesting multiplies: `((a){3}){3}…` sixteen deep took
 * seconds. Everyday patterns need a few hundred visits.
 */
const MAX_VISITS = 20_000;
const TOO_INTRICATE = 'too intricate';

function degreeOf(pattern: string): number | typeof TOO_INTRICATE {
  let branches: Node[][];
  try {
    branches = new PatternParser(pattern).branches();
  } catch {
    return Infinity; // Unreadable: refused (normalize compiled it, so this is a parser gap).
  }
  const anchored = branches.every((branch) => branch[0]?.kind === 'assertion' && branch[0].start);
  const run: Array<{ chars: boolean[]; chain: number }> = [];
  let worst = 0;
  let visits = 0;
  const walk = (nodes: Node[], soft: boolean): boolean => {
    for (const node of nodes) {
      if (++visits > MAX_VISITS) return false;
      if (node.kind === 'assertion') continue;
      const unbounded = node.max > LARGE_BOUND;
      if (node.kind === 'group' && node.lookaround) {
        // It runs too, at the same place.
        if (!node.branches.every((branch) => walk(branch, true))) return false;
        continue;
      }
      if (node.kind === 'group' && !unbounded) {
        const inner = soft || node.min === 0 || node.branches.length > 1;
        for (let i = 0; i < Math.min(node.max, 3); i++) if (!node.branches.every((branch) => walk(branch, inner))) return false;
        continue;
      }
      const chars = node.kind === 'atom' ? node.chars : charsOf(node.branches);
      const ends = !soft && node.min > 0 && !run.some((r) => overlaps(r.chars, chars));
      // A mandatory character none of them matches ends every repetition before it.
      if (ends) run.length = 0;
      if (unbounded) {
        const chain = 1 + Math.max(0, ...run.filter((r) => overlaps(r.chars, chars)).map((r) => r.chain));
        run.push({ chars, chain });
        worst = Math.max(worst, chain);
      }
    }
    return true;
  };
  if (!branches.every((branch) => walk(branch, branches.length > 1))) return TOO_INTRICATE;
  return worst === 0 ? 0 : worst + (anchored ? 0 : 1);
}

/** Characters that tell character classes apart: ASCII, Latin-1 and one of several scripts. */
const PROBES: string[] = [
  ...Array.from({ length: 0x100 }, (_, i) => String.fromCharCode(i)),
  ...'αЖא٣中あ한ğ\u2028\u200b\ufeff\u{1f600}',
];

function charsMatching(source: string): boolean[] {
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${source})$`, 'u');
  } catch {
    return PROBES.map(() => true);
  }
  return PROBES.map((probe) => regex.test(probe));
}

function charsOf(branches: Node[][]): boolean[] {
  const union = PROBES.map(() => false);
  for (const branch of branches) {
    for (const node of branch) {
      const chars = node.kind === 'atom' ? node.chars : node.kind === 'group' && !node.lookaround ? charsOf(node.branches) : undefined;
      chars?.forEach((on, i) => (union[i] ||= on));
    }
  }
  return union;
}

function overlaps(a: boolean[], b: boolean[]): boolean {
  return a.some((on, i) => on && b[i]);
}

/** Just enough of the regex grammar (u flag) for polynomialDegree. */
class PatternParser {
  private i = 0;
  constructor(private readonly p: string) {}

  branches(): Node[][] {
    const branches: Node[][] = [[]];
    while (this.i < this.p.length && this.p[this.i] !== ')') {
      if (this.p[this.i] === '|') {
        this.i++;
        branches.push([]);
      } else {
        branches.at(-1)!.push(this.term());
      }
    }
    return branches;
  }

  private term(): Node {
    const rest = this.p.slice(this.i);
    if (rest[0] === '^' || rest[0] === '$' || /^\\[bB]/.test(rest)) {
      this.i += rest[0] === '\\' ? 2 : 1;
      return { kind: 'assertion', start: rest[0] === '^' };
    }
    if (rest[0] === '(') {
      const prefix = /^\((\?(?:<=|<!|=|!|:|<[^>]*>|[a-z-]*:))?/.exec(rest)![0];
      this.i += prefix.length;
      const branches = this.branches();
      if (this.p[this.i] !== ')') throw new Error('unbalanced group');
      this.i++;
      const lookaround = /^\(\?(?:<=|<!|=|!)/.test(prefix);
      return { kind: 'group', branches, lookaround, ...this.quantifier() };
    }
    const atom = /^(?:\\(?:u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})?|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|[\s\S])|\[(?:\\[\s\S]|[^\]\\])*\]|[\s\S])/u.exec(rest)![0];
    this.i += atom.length;
    return { kind: 'atom', chars: charsMatching(atom), ...this.quantifier() };
  }

  private quantifier(): { min: number; max: number } {
    const q = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(this.p.slice(this.i));
    if (!q) return { min: 1, max: 1 };
    this.i += q[0].length;
    if (q[1]) return q[1] === '?' ? { min: 0, max: 1 } : { min: q[1] === '+' ? 1 : 0, max: Infinity };
    const min = Number(q[2]);
    return { min, max: q[3] === undefined ? min : q[4] === '' ? Infinity : Number(q[4]) };
  }
}
