/**
 * The ajv checks, loaded once: as the first form is shown (prepareAnswerCheck),
 * or at the first answer from memory or Run Tool's first JSON arguments. In the extension the `require` below is rewritten by
 * esbuild.mjs to `require('./ajv-checks.js')`, a bundle of its own, so
 * activation never loads ajv; under tests it is a plain require of ./ajvChecks.
 */
import type { FormModel } from './fields';

export type AjvChecks = typeof import('./ajvChecks');

let loaded: AjvChecks | undefined;

export function ajvChecks(): AjvChecks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (loaded ??= require('./ajvChecks') as AjvChecks);
}

let preparing = false;

/**
 * The first form on its way to the person: ajv is loaded and the form's check compiled in a
 * later turn, while the form is drawn, so the first Submit does not wait for them (ajv's first
 * compile takes tens of milliseconds, later ones a few).
 */
export function prepareAnswerCheck(form: FormModel): void {
  if (loaded || preparing) return;
  preparing = true;
  setTimeout(() => {
    try {
      ajvChecks().prepareAnswerCheck(form);
    } catch {
      // Thrown again by the answer's own check, where it is handled.
    }
  }, 0);
}
