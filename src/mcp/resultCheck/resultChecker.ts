/**
 * Checks tool results against their outputSchema in a worker thread with a
 * deadline. Each pattern is bounded, but not how many there are,
 * nor ajv's other costs: 200 strings of 10,000 characters against a costly
 * `items.pattern` took 11 s, `uniqueItems` on 20,000 objects 9.5 s, compiling
 * a 790 KB schema 5.4 s, all on the extension host's thread. Here the host only
 * measures the result (a walk that stops at a cap) and posts it; a worker that
 * overruns is ended and replaced, and the call fails with a clear error.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { jsonSize } from '../../core/form/formBudget';
import type { CheckReply, CheckRequest } from './protocol';

/** Longest a check (or a compile) may take before the worker is ended. */
export const CHECK_DEADLINE_MS = 5_000;

/**
 * Largest structuredContent or outputSchema checked (jsonSize units, about
 * characters): copying it to the worker stays within a few milliseconds.
 */
export const MAX_CHECKED_SIZE = 4_000_000;

export type CheckOutcome = { outcome: 'valid' } | { outcome: 'invalid' | 'unusable'; errorMessage: string };

const SCHEMA_TOO_LARGE: CheckOutcome = Object.freeze({
  outcome: 'unusable',
  errorMessage: 'the schema is too large to check results against',
});

interface Waiting {
  resolve: (outcome: CheckOutcome) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class ResultChecker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** Schemas measured under MAX_CHECKED_SIZE. */
  private readonly measured = new WeakSet<object>();
  /** Schemas the running worker compiled (a new worker starts with none). */
  private prepared = new WeakSet<object>();

  constructor(
    private readonly deadlineMs: number = CHECK_DEADLINE_MS,
    private readonly script: string = workerScript(),
  ) {}

  /** Whether `schema` can be used at all (compiled in the worker, kept there for the checks). */
  async prepare(schema: object): Promise<CheckOutcome> {
    if (!this.fits(schema)) return SCHEMA_TOO_LARGE;
    // Every call of a tool prepares its schema: the running worker compiled this one already.
    if (this.prepared.has(schema)) return { outcome: 'valid' };
    const outcome = await this.post({ schema, compileOnly: true });
    if (outcome.outcome === 'valid' && this.worker) this.prepared.add(schema);
    return outcome;
  }

  /** `data` checked against `schema`: valid, invalid (with what is wrong), or not checkable. */
  check(schema: object, data: unknown): Promise<CheckOutcome> {
    if (!this.fits(schema)) return Promise.resolve(SCHEMA_TOO_LARGE);
    if (jsonSize(data, MAX_CHECKED_SIZE + 1) > MAX_CHECKED_SIZE) {
      return Promise.resolve({ outcome: 'unusable', errorMessage: 'the result is too large to check against the schema' });
    }
    return this.post({ schema, data });
  }

  /** Whether a schema is small enough to copy to the worker; measured once per schema object. */
  private fits(schema: object): boolean {
    if (this.measured.has(schema)) return true;
    if (jsonSize(schema, MAX_CHECKED_SIZE + 1) > MAX_CHECKED_SIZE) return false;
    this.measured.add(schema);
    return true;
  }

  dispose(): void {
    this.end('the extension is shutting down');
  }

  private post(message: Omit<CheckRequest, 'id'>): Promise<CheckOutcome> {
    const id = this.nextId++;
    const worker = this.running();
    return new Promise<CheckOutcome>((resolve) => {
      const timer = setTimeout(() => {
        // A check past its deadline: the worker is ended (taking every check it holds with it) and replaced next time.
        this.end(`the check took longer than ${Math.round(this.deadlineMs / 1000)} s`);
      }, this.deadlineMs);
      this.waiting.set(id, { resolve, timer });
      worker.postMessage({ ...message, id } satisfies CheckRequest);
    });
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    // From source (tests under tsx) the worker loads tsx first; the shipped worker is plain JavaScript.
    const worker = this.script.endsWith('.ts')
      ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(this.script)});`, { eval: true })
      : new Worker(this.script);
    // Idle, it must not keep the extension host (or a test) alive.
    worker.unref();
    worker.on('message', (reply: CheckReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiting.timer);
      waiting.resolve(reply.outcome === 'valid' ? { outcome: 'valid' } : { outcome: reply.outcome, errorMessage: reply.errorMessage });
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.end(`the checker failed (${error.message})`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.end('the checker stopped');
    });
    this.worker = worker;
    return worker;
  }

  /** Ends the worker; every check it held is answered "could not be checked" with `why`. */
  private end(why: string): void {
    const worker = this.worker;
    this.worker = undefined;
    this.prepared = new WeakSet();
    void worker?.terminate();
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve({ outcome: 'unusable', errorMessage: `it could not be checked: ${why}` });
      this.waiting.delete(id);
    }
  }
}

/** The bundled worker next to the bundle that loads it; under tests (tsx), the source. */
function workerScript(): string {
  const bundled = join(__dirname, 'result-check-worker.js');
  return existsSync(bundled) ? bundled : join(__dirname, 'worker.ts');
}
