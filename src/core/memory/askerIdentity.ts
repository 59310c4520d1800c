/**
 * Who an answer is remembered for: the destination identity Elicit already
 * binds secrets to (core/origin.ts), never a name alone, so a server that takes
 * the name of yours is another asker. Where identity cannot be established
 * nothing is remembered: a gateway client names itself, and the public API's
 * caller is found from a forgeable stack. A question an agent relays, or one
 * asked through the language-model tool, may come from a prompt-injected model
 * that can repeat it at will: remembered for this session only.
 */
import type { Asker } from '../request';

export type MemoryScope = 'session' | 'always';

export interface MemoryAsker {
  /** The store's key for this asker: its kind and origin. */
  key: string;
  /** The longest an answer of this asker may be kept. */
  maxScope: MemoryScope;
}

export function memoryAsker(asker: Asker): MemoryAsker | undefined {
  switch (asker.kind) {
    case 'mcp':
      return asker.origin === undefined ? undefined : { key: `mcp:${asker.origin}`, maxScope: 'always' };
    case 'acp':
      return asker.origin === undefined ? undefined : { key: `acp:${asker.origin}`, maxScope: 'session' };
    case 'tool':
      // The one language-model tool of this window.
      return { key: 'tool', maxScope: 'session' };
    case 'gateway':
    case 'extension':
      return undefined;
  }
}

/** The shorter of two scopes. */
export function narrower(a: MemoryScope, b: MemoryScope): MemoryScope {
  return a === 'session' || b === 'session' ? 'session' : 'always';
}
