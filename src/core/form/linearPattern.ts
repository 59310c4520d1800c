/**
 * JSON Schema `pattern` (ECMA-262 syntax, `u` flag, as ajv compiles it) run in
 * bounded time and memory, in the host and in the webview alike. V8's RegExp
 * backtracks: `^(a|a){40}$` on 30 characters froze the extension host for a
 * minute. Here the pattern becomes a Thompson automaton that follows every
 * way of matching at once (a Pike VM without captures).
 *
 * Linear in the input is not enough: the cost of one input character is the
 * number of states and edges a position can visit, which the pattern chooses
 * (a 1,000-character `(?:||||…){666}` once made 220,000 edges, 15 s a check).
 * So a compiled pattern knows its worst cost per character (`cost`: states,
 * edges and native class tests, each counted once per position) and a pattern
 * over MAX_PATTERN_COST is refused before it runs: any accepted pattern on any
 * input of n characters takes at most (n + 1) × MAX_PATTERN_COST steps, which
 * `measure()` counts so tests can assert it without a clock.
 *
 * Exact ECMAScript meaning is kept by asking the native RegExp only about one
 * character at a time (`[a-z]`, `\p{Ll}`, `.`, `\u00e9` against a single code
 * point), which cannot backtrack. No eval, so the webview's CSP holds. What no
 * automaton can do (backreferences, lookaround) is refused, with the reason.
 * Why not re2js: CONTRIBUTING.md, "Security".
 *
 * Compiling costs too: V8 builds each class's set of code points when
 * it compiles it, and a union of property escapes (`[\p{L}\p{N}\p{M}…]`) takes
 * about 0.1 ms an escape. So the native engine never compiles a whole pattern: its
 * syntax is checked on a skeleton with every atom replaced by `a` (cheap), and each
 * distinct atom is compiled once for every pattern of the session (a shared cache).
 * What compiling a pattern's new atoms will cost is known before it happens
 * (`compileUnits`), so a caller can charge it to the request's budget.
 */

export class UnsupportedPatternError extends Error {}

/** Longest pattern compiled at all: a longer one is refused before it is parsed. */
export const MAX_PATTERN_LENGTH = 1_000;

/**
 * Most steps one input character may cost (see `cost`). At 2 to 3 ns a step
 * this keeps any check of 10,000 characters within about 30 ms (`npm run bench`,
 * patternWorstMs); `x{0,255}` costs 783, `^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,63}$`
 * 286, `^[A-Z]{3}-\d{3}$` 65; `.{0,500}` is refused.
 */
export const MAX_PATTERN_COST = 1_000;

/** Longest input the bound is stated for; every caller caps what it checks at this or less. */
export const MAX_BOUNDED_INPUT = 10_000;

/** What one test of a code point against a character class by the native RegExp counts, in steps. */
export const CLASS_TEST_COST = 16;

/** States one pattern may compile to before its cost is even counted: compiling stays small too. */
const MAX_BUILD_STATES = MAX_PATTERN_COST;

/**
 * What compiling one atom not compiled before costs, in units of about 2 µs here: one for the
 * atom, and PROPERTY_ESCAPE_UNITS for each property escape (`\p{…}`, `\P{…}`) in it, each a
 * set of code points merged into the class (about 0.12 ms).
 */
export const PROPERTY_ESCAPE_UNITS = 60;

/** Compiled atoms shared by every pattern: a class used by many fields or requests is built once. */
const ATOM_CACHE_SIZE = 1_000;
const compiledAtoms = new Map<string, RegExp>();

type Assertion = '^' | '$' | 'b' | 'B';
type Node = { char: number } | { assert: Assertion } | { branches: Node[][] } | { repeat: Node; min: number; max: number };

export interface LinearPattern {
  test(text: string): boolean;
  /** The verdict and the steps it took: at most (text.length + 1) × cost. */
  measure(text: string): { matched: boolean; steps: number };
  /** Worst steps per input character: 1 + edges + character states + CLASS_TEST_COST × distinct classes. */
  readonly cost: number;
}

const enum Kind {
  Char,
  Split,
  Assert,
  Match,
}

/** Build-time state; flattened into typed arrays once built. */
interface BuildState {
  kind: Kind;
  /** Class index for Char, assertion code for Assert. */
  arg: number;
  next: BuildState[];
  id: number;
}

const NO = 1;
const YES = 2;

/** In the order of the bits of a position's context in run(). */
const ASSERTIONS: Assertion[] = ['^', '$', 'b', 'B'];

/**
 * Throws SyntaxError for an invalid pattern and UnsupportedPatternError for what cannot run in bounded time.
 * `charge`: told what compiling the pattern's new atoms costs (compileUnits) before any is compiled;
 * false refuses the pattern (the request's budget is spent).
 */
export function compileLinearPattern(pattern: string, charge?: (units: number) => boolean): LinearPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new UnsupportedPatternError(`it is longer than ${MAX_PATTERN_LENGTH} characters`);
  const classes = new ClassTable();
  const parser = new Parser(pattern, classes);
  const tree = parser.alternatives();
  // The syntax check: the pattern's structure with every atom replaced by `a`, then each atom on its own.
  // eslint-disable-next-line no-restricted-syntax -- the skeleton holds no class: compiling it is cheap, and it never runs
  new RegExp(parser.skeleton(), 'u');
  const units = classes.compileUnits();
  if (units > 0 && charge && !charge(units)) {
    throw new UnsupportedPatternError("the form's patterns together are too costly to prepare");
  }
  classes.compile();
  const built: BuildState[] = [];
  const state = (kind: Kind, next: BuildState[], arg = 0): BuildState => {
    if (built.length >= MAX_BUILD_STATES) throw tooLarge();
    const s: BuildState = { kind, arg, next, id: built.length };
    built.push(s);
    return s;
  };
  const split = (next: BuildState[]): BuildState => state(Kind.Split, [...new Set(next)]); // empty alternatives share one edge
  const sequence = (nodes: Node[], then: BuildState): BuildState => nodes.reduceRight((next, node) => build(node, next), then);
  const build = (node: Node, then: BuildState): BuildState => {
    if ('char' in node) return state(Kind.Char, [then], node.char);
    if ('assert' in node) return state(Kind.Assert, [then], ASSERTIONS.indexOf(node.assert));
    if ('branches' in node) return split(node.branches.map((b) => sequence(b, then)));
    let entry = then;
    if (node.max === Infinity) {
      const loop = state(Kind.Split, []);
      loop.next.push(build(node.repeat, loop));
      if (!loop.next.includes(then)) loop.next.push(then);
      entry = loop;
    } else {
      // Optional copies, innermost first: x{0,2} is (x(x)?)?.
      for (let i = node.min; i < node.max; i++) entry = split([build(node.repeat, entry), then]);
    }
    // A state per copy, even for an empty group: `(?:){100000000}` must not loop unseen.
    for (let i = 0; i < node.min; i++) entry = build(node.repeat, state(Kind.Split, [entry]));
    return entry;
  };
  const match = state(Kind.Match, []);
  const start = sequence(tree, match);
  const program = flatten(built, start, classes);
  if (program.cost > MAX_PATTERN_COST) throw tooLarge();
  return {
    cost: program.cost,
    test: (text) => run(program, text).matched,
    measure: (text) => run(program, text),
  };
}

function tooLarge(): UnsupportedPatternError {
  return new UnsupportedPatternError('its repetitions and alternatives make it too large to check');
}

/** The automaton as flat arrays: the loop below touches only numbers. */
interface Program {
  /**
   * Every state but a character state is a record at its address: [test, number of edges, each edge's
   * target…]; test is the bit of run()'s context that lets it through (PASS for a split), or MATCH.
   * Then each character state's targets. A target t ≥ 0 is a record's address, t < 0 the character
   * state in slot ~t.
   */
  code: Int32Array;
  /** The targets of the character state in a slot: code[slotTargets[slot] .. slotTargets[slot + 1]). */
  slotTargets: Int32Array;
  /** The class of every slot of a word of the sets below: each class's slots begin a word of their own. */
  wordClass: Int32Array;
  start: number;
  classes: ClassTable;
  cost: number;
  /** Scratch space, reused by every run of this program (runs never overlap: JavaScript is single-threaded). */
  mark: Int32Array;
  generation: number;
  /** The character states of this position and of the next: a bit a slot, so each state is there once. */
  current: Int32Array;
  next: Int32Array;
  stack: Int32Array;
}

/** The test of a split (bit 4, which run()'s context always has) and of the final state. */
const PASS = 4;
const MATCH = -1;

/**
 * The reachable automaton as flat arrays, the loop below touching only numbers.
 * A split with one way out (a group, a copy's marker) is passed through: it would
 * cost a visit per position and decide nothing. A character followed by a
 * two-way split (`x?`, `x*`, each copy of `x{0,n}`) goes both ways itself,
 * which saves the split's visit: a quarter of the cost of `.{1,255}`.
 *
 * Character states are numbered (their slots) class by class, so a position asks
 * each class once and passes over all the states of a class that says no at once.
 */
function flatten(built: BuildState[], entry: BuildState, classes: ClassTable): Program {
  const through = (s: BuildState): BuildState => {
    for (let hops = 0; s.kind === Kind.Split && s.next.length === 1 && hops < built.length; hops++) s = s.next[0]!;
    return s;
  };
  const order: BuildState[] = [];
  const index = new Map<BuildState, number>();
  const visit = (s: BuildState): number => {
    let i = index.get(s);
    if (i === undefined) {
      index.set(s, (i = order.length));
      order.push(s);
    }
    return i;
  };
  const start = visit(through(entry));
  const targets: number[][] = [];
  const outs = (s: BuildState): BuildState[] => {
    const next = s.next.map(through);
    const only = next[0];
    return s.kind === Kind.Char && only?.kind === Kind.Split && only.next.length === 2 ? only.next.map(through) : next;
  };
  for (let i = 0; i < order.length; i++) targets.push([...new Set(outs(order[i]!).map(visit))]);

  const n = order.length;
  const byClass: number[][] = Array.from({ length: classes.size }, () => []);
  const records: number[] = [];
  for (let i = 0; i < n; i++) {
    if (order[i]!.kind === Kind.Char) byClass[order[i]!.arg]!.push(i);
    else records.push(i);
  }
  const bySlot: number[] = [];
  const wordClass: number[] = [];
  byClass.forEach((states, c) => {
    if (states.length === 0) return;
    while (bySlot.length % 32 !== 0) bySlot.push(-1);
    bySlot.push(...states);
    while (wordClass.length * 32 < bySlot.length) wordClass.push(c);
  });
  const slots = wordClass.length * 32;
  // What an edge to each state holds (see Program.code).
  const target = new Int32Array(n);
  for (let slot = 0; slot < bySlot.length; slot++) if (bySlot[slot]! >= 0) target[bySlot[slot]!] = ~slot;
  let size = 0;
  for (const i of records) {
    target[i] = size;
    size += 2 + targets[i]!.length;
  }
  const charStates = n - records.length;
  const edges = targets.reduce((sum, t) => sum + t.length, 0);
  const code = new Int32Array(size + edges);
  for (const i of records) {
    const { kind, arg } = order[i]!;
    let at = target[i]!;
    code[at++] = kind === Kind.Assert ? arg : kind === Kind.Split ? PASS : MATCH;
    code[at++] = targets[i]!.length;
    for (const t of targets[i]!) code[at++] = target[t]!;
  }
  const slotTargets = new Int32Array(slots + 1);
  for (let slot = 0, at = size; slot <= slots; slot++) {
    slotTargets[slot] = at;
    const i = bySlot[slot] ?? -1;
    if (i >= 0) for (const t of targets[i]!) code[at++] = target[t]!;
  }
  return {
    code,
    slotTargets,
    wordClass: Int32Array.from(wordClass),
    start: target[start]!,
    classes,
    cost: 1 + edges + charStates + CLASS_TEST_COST * classes.size,
    mark: new Int32Array(size),
    generation: 0,
    current: new Int32Array(wordClass.length),
    next: new Int32Array(wordClass.length),
    stack: new Int32Array(records.length),
  };
}

/**
 * A Pike VM step by step. A state other than a character state is taken at most once per
 * position (marked as it is queued); a character state is a bit of the position's set. Steps
 * count what the loop does: each edge followed (1 + edges), each character state moved on or
 * word of the set passed over (1 + character states), CLASS_TEST_COST for each question to the
 * native RegExp.
 */
function run(p: Program, text: string): { matched: boolean; steps: number } {
  const { code, slotTargets, wordClass, mark, stack, classes, start } = p;
  const words = wordClass.length;
  classes.asked = 0;
  let current = p.current;
  let next = p.next;
  current.fill(0); // a run that matched left its sets as they were
  next.fill(0);
  let steps = 0;
  let prev = -1;
  let cp = text.length > 0 ? text.codePointAt(0)! : -1;
  let generation = nextGeneration(p);
  let top = 0;
  for (let pos = 0; ;) {
    // Unanchored: a match may begin at any position. A target is queued for this position: a
    // character state into the set, any other state onto the stack once (written out twice below).
    if (start < 0) current[~start >> 5]! |= 1 << (~start & 31);
    else if (mark[start] !== generation) {
      mark[start] = generation;
      stack[top++] = start;
    }
    steps++;
    // The epsilon closure of the stack, under this position's assertions: bit 0 `^`, 1 `$`, 2 `\b`, 3 `\B`, 4 PASS.
    const boundary = isWordChar(prev) !== isWordChar(cp);
    const context = (prev < 0 ? 1 : 0) | (cp < 0 ? 2 : 0) | (boundary ? 4 : 8) | (1 << PASS);
    while (top > 0) {
      const s = stack[--top]!;
      const test = code[s]!;
      if (test === MATCH) return { matched: true, steps: steps + CLASS_TEST_COST * classes.asked };
      if ((context >> test) & 1) {
        const end = s + 2 + code[s + 1]!;
        steps += end - s - 2;
        for (let e = s + 2; e < end; e++) {
          const t = code[e]!;
          if (t < 0) current[~t >> 5]! |= 1 << (~t & 31);
          else if (mark[t] !== generation) {
            mark[t] = generation;
            stack[top++] = t;
          }
        }
      }
    }
    if (cp < 0) return { matched: false, steps: steps + CLASS_TEST_COST * classes.asked };
    pos += cp > 0xffff ? 2 : 1;
    generation = nextGeneration(p);
    const threads = current;
    current = next;
    next = threads;
    // A class's words are next to each other: it is asked once, when its first word with a thread comes.
    // Every word holds a character state, so a word passed over (empty, or its class said no) counts as one.
    let judged = -1;
    let matches = false;
    for (let w = 0; w < words; w++) {
      let bits = threads[w]!;
      if (bits === 0) {
        steps++;
        continue;
      }
      threads[w] = 0;
      const c = wordClass[w]!;
      if (c !== judged) {
        judged = c;
        matches = classes.judge(c, cp) === YES;
      }
      if (!matches) {
        steps++;
        continue;
      }
      while (bits !== 0) {
        const lowest = bits & -bits;
        bits ^= lowest;
        const slot = (w << 5) | (31 - Math.clz32(lowest));
        const end = slotTargets[slot + 1]!;
        let e = slotTargets[slot]!;
        steps += 1 + end - e;
        for (; e < end; e++) {
          const t = code[e]!;
          if (t < 0) current[~t >> 5]! |= 1 << (~t & 31);
          else if (mark[t] !== generation) {
            mark[t] = generation;
            stack[top++] = t;
          }
        }
      }
    }
    prev = cp;
    cp = pos < text.length ? text.codePointAt(pos)! : -1;
  }
}

function nextGeneration(p: Program): number {
  if (p.generation === 0x7fffffff) {
    p.mark.fill(0);
    p.generation = 0;
  }
  return ++p.generation;
}

/** `\w` of the `u` flag without `i`: ASCII letters, digits and `_`. */
function isWordChar(cp: number): boolean {
  return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
}

/**
 * The distinct character classes of a pattern (`[a-z]`, `\d`, `.`, a literal),
 * each a test of one code point by the native engine. ASCII answers are kept
 * for good; any other code point is asked at most once per class per position.
 */
class ClassTable {
  private readonly sources = new Map<string, number>();
  private readonly regexes: RegExp[] = [];
  /** ASCII answers, 128 a class: 0 not asked yet, then NO or YES. */
  private ascii = new Int8Array(0);
  /** Questions put to the native RegExp in the run under way. */
  asked = 0;

  get size(): number {
    return this.sources.size;
  }

  /** Registers an atom; compile() makes its test. */
  add(source: string): number {
    let index = this.sources.get(source);
    if (index === undefined) {
      index = this.sources.size;
      this.sources.set(source, index);
    }
    return index;
  }

  /** What compile() will cost: the atoms no pattern compiled before (see PROPERTY_ESCAPE_UNITS). */
  compileUnits(): number {
    let units = 0;
    for (const source of this.sources.keys()) {
      if (!compiledAtoms.has(source)) units += 1 + PROPERTY_ESCAPE_UNITS * (source.match(/\\[pP]\{/g)?.length ?? 0);
    }
    return units;
  }

  /** Each atom's test, from the shared cache or compiled now (SyntaxError for an atom that is not valid). */
  compile(): void {
    for (const source of this.sources.keys()) {
      // Taken out and put back: the most recently used stays longest.
      let regex = compiledAtoms.get(source);
      compiledAtoms.delete(source);
      // eslint-disable-next-line no-restricted-syntax -- one character class tested against one code point cannot backtrack
      regex ??= new RegExp(`^(?:${source})$`, 'u');
      compiledAtoms.set(source, regex);
      if (compiledAtoms.size > ATOM_CACHE_SIZE) compiledAtoms.delete(compiledAtoms.keys().next().value!);
      this.regexes.push(regex);
    }
    const n = this.regexes.length;
    this.ascii = new Int8Array(n * 128);
  }

  /** Class `index`'s answer for code point cp (NO or YES): an ASCII one is kept for good, any other asked each time. */
  judge(index: number, cp: number): number {
    if (cp < 128) {
      const slot = index * 128 + cp;
      if (this.ascii[slot] === 0) {
        this.asked++;
        this.ascii[slot] = this.regexes[index]!.test(String.fromCharCode(cp)) ? YES : NO;
      }
      return this.ascii[slot]!;
    }
    this.asked++;
    return this.regexes[index]!.test(String.fromCodePoint(cp)) ? YES : NO;
  }
}

/** The `u`-flag grammar, reading a pattern the native RegExp has already accepted. */
class Parser {
  private i = 0;
  /** Where each atom is in the pattern, [start, end), in order. */
  private readonly atoms: Array<[number, number]> = [];
  constructor(
    private readonly p: string,
    private readonly classes: ClassTable,
  ) {}

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
    const start = this.i;
    const atom = this.read(
      /\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|[\s\S])|\[(?:\\[\s\S]|[^\]\\])*\]|[\ud800-\udbff][\udc00-\udfff]|[\s\S]/y,
    )!;
    this.atoms.push([start, this.i]);
    return this.quantified({ char: this.classes.add(atom) });
  }

  /** The pattern with every atom replaced by `a`: its structure (groups, quantifiers, assertions), as written. */
  skeleton(): string {
    let text = '';
    let at = 0;
    for (const [start, end] of this.atoms) {
      text += `${this.p.slice(at, start)}a`;
      at = end;
    }
    return text + this.p.slice(at);
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
