/**
 * What one request may cost the extension host to read, counted before the
 * work is done. Each pattern check is bounded by linearPattern.ts,
 * but a form may hold 100 fields, each with a default and 20 examples: 2,100
 * bounded checks stalled the host for seconds. So a request carries one budget:
 *
 * - its raw size (JSON values and characters) is measured first, with a walk
 *   that stops at the cap, before any per-field work;
 * - every pattern check of a default or an example is charged its worst cost,
 *   (length + 1) × the pattern's cost, before it runs. A default that does not
 *   fit refuses the request (it could not be checked); an example that does not
 *   fit is left out (it only illustrates the rule).
 *
 * - compiling each pattern's atoms that no pattern compiled before is charged its
 *   cost (linearPattern.ts compileUnits: a class of property escapes takes V8 about
 *   0.1 ms an escape to build) before it happens; a pattern that does not fit
 *   refuses the request (100 distinct costly patterns once took 1.6 s).
 *
 * A group (a round, a burst) shares one budget across its sections. Together with
 * the broker reading one request per turn of the event loop (broker.ts), this
 * keeps the host's longest stall on any form request in the tens of milliseconds
 * (`npm run bench`, hostBlockWorstMs).
 */

/**
 * Largest requested schema read, in size units (jsonSize): about 15 ms of reading
 * at worst here. A list of 10,000 options with titles is about 550,000; one of
 * 10,000 plain values about 200,000.
 */
export const MAX_FORM_SIZE = 600_000;

/**
 * What one JSON value counts for against a character: reading a value (an option,
 * a field) costs about ten times what cleaning the costliest character of text does.
 */
export const VALUE_SIZE = 10;

/**
 * Most pattern steps (linearPattern.ts) one request may spend on its defaults and
 * examples: about 5 to 10 ms of checks on these machines. One 1,000-character default
 * against the costliest pattern allowed fits; a form of ordinary patterns never comes close.
 */
export const MAX_FORM_PATTERN_STEPS = 1_000_000;

/**
 * Most compile units (linearPattern.ts, about 2 µs each) one request may spend on patterns new to
 * the session: about 20 ms. A form of ordinary patterns spends a few hundred; one class of seven
 * property escapes, about 420.
 */
export const MAX_FORM_COMPILE_UNITS = 10_000;

export class FormBudget {
  private size = 0;
  private steps = 0;
  private compileUnits = 0;

  /** Adds a schema's size; false once the request is over MAX_FORM_SIZE (the walk stops there). */
  addSchema(schema: unknown): boolean {
    this.size += jsonSize(schema, MAX_FORM_SIZE - this.size + 1);
    return this.size <= MAX_FORM_SIZE;
  }

  /** Reserves a pattern check's worst cost; false (and nothing reserved) when it does not fit. */
  reserveSteps(steps: number): boolean {
    if (this.steps + steps > MAX_FORM_PATTERN_STEPS) return false;
    this.steps += steps;
    return true;
  }

  /** Reserves what compiling a pattern's new atoms costs; false (and nothing reserved) when it does not fit. */
  reserveCompile(units: number): boolean {
    if (this.compileUnits + units > MAX_FORM_COMPILE_UNITS) return false;
    this.compileUnits += units;
    return true;
  }

  /** What has been spent, for tests and the bench. */
  spent(): { size: number; steps: number; compileUnits: number } {
    return { size: this.size, steps: this.steps, compileUnits: this.compileUnits };
  }
}

/**
 * A value's size in units (VALUE_SIZE per JSON value, one per character of each
 * string and key), counting no further than `cap` (a count past it means "too
 * large"): the walk's own cost is bounded by the cap, whatever the value.
 */
export function jsonSize(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size < cap) {
    const item = stack.pop();
    size += VALUE_SIZE;
    if (typeof item === 'string') size += item.length;
    else if (Array.isArray(item)) {
      // Pushing a long array whole would itself be unbounded work: only as much as may still count.
      const room = Math.min(item.length, Math.ceil((cap - size) / VALUE_SIZE));
      size += (item.length - room) * VALUE_SIZE;
      for (let i = 0; i < room; i++) stack.push(item[i]);
    } else if (typeof item === 'object' && item !== null) {
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        size += key.length;
        stack.push((item as Record<string, unknown>)[key]);
        if (size >= cap) break;
      }
    }
  }
  return size;
}
