/**
 * What a piece of work leaves behind in the heap: measured after full collections, with
 * finalizers given the chance to run, so only what is still reachable counts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collectFully(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    gc();
    // FinalizationRegistry callbacks (Node's own AbortSignal bookkeeping uses them) run as tasks.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Bytes still in the heap after `work`, beyond what was there before it. */
export async function retainedBytes(work: () => Promise<void>): Promise<number> {
  await collectFully();
  const before = process.memoryUsage().heapUsed;
  await work();
  await collectFully();
  return process.memoryUsage().heapUsed - before;
}
