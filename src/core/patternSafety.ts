/**
 * A `pattern` from an asker runs against what the person types, in the host
 * and in the webview, on the UI thread. A pattern that can backtrack
 * catastrophically (`^(a+)+$`) would freeze both, so such patterns are refused
 * up front. The check is the classic "star height" rule, deliberately
 * conservative: a group repeated without bound (`*`, `+`, `{n,}`) may not
 * itself contain an unbounded repetition or an alternation; backreferences are
 * refused too. Everyday patterns (`^[A-Z]{3}-\d{3}$`, emails, slugs) pass.
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
  return undefined;
}

/** Is there an unbounded quantifier (`*`, `+`, `{n,}`) at position i? */
function isQuantifier(pattern: string, i: number): boolean {
  const c = pattern[i];
  return c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/.test(pattern.slice(i, i + 24)));
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
