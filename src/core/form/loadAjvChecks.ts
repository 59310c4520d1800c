/**
 * The ajv checks, loaded once: as the first form is shown (preloadAjvChecks),
 * or at the first answer from memory or Run Tool's first JSON arguments. In the extension the `require` below is rewritten by
 * esbuild.mjs to `require('./ajv-checks.js')`, a bundle of its own, so
 * activation never loads ajv; under tests it is a plain require of ./ajvChecks.
 */
export type AjvChecks = typeof import('./ajvChecks');

let loaded: AjvChecks | undefined;

export function ajvChecks(): AjvChecks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (loaded ??= require('./ajvChecks') as AjvChecks);
}

let preloading = false;

/**
 * The first form on its way to the person: ajv is loaded in a later turn, while the form is
 * drawn, so the first Submit does not wait for the bundle. The form's own check is compiled at
 * its first answer, as before: compiling an asker's schema ahead of need would block the host
 * for a form that is then declined (a 100-field form took 70–140 ms).
 */
export function preloadAjvChecks(): void {
  if (loaded || preloading) return;
  preloading = true;
  setTimeout(() => {
    try {
      ajvChecks();
    } catch {
      // Thrown again by the answer's own check, where it is handled.
    }
  }, 0);
}
