/**
 * SecretStorage keys of saved answers. A secret an asker was given is kept
 * under its origin (see origin.ts), never under its name alone, so a server
 * that merely takes the name is not offered it. An asker whose identity is
 * only claimed (another extension, found from a call stack) has no key: its
 * secrets are neither kept nor offered.
 */
import type { Asker } from './request';

/** `${secret:NAME}`: secrets the LM tool and the gateway ask for by name. */
export function namedSecretKey(name: string): string {
  return `elicit.secret:${JSON.stringify(['named', '', name])}`;
}

/** Where a secret field's answer from `asker` is kept, or undefined when it must not be kept or offered. */
export function savedSecretKey(asker: Asker, field: string): string | undefined {
  if (asker.kind === 'tool' || asker.kind === 'gateway') return namedSecretKey(field);
  if (asker.kind === 'extension' || asker.origin === undefined) return undefined;
  return `elicit.secret@origin:${JSON.stringify([asker.kind, asker.origin, field])}`;
}
