/**
 * Every check the extension host runs with ajv: the answer check on submit
 * (ajvAnswerCheck.ts) and Run Tool's JSON arguments (jsonArguments.ts). ajv and
 * ajv-formats are a quarter of the host's code, so they are a bundle of their own
 * (dist/ajv-checks.js), loaded by loadAjvChecks.ts at the first check.
 */
export { validateAnswer } from './ajvAnswerCheck';
export { checkJsonArguments } from './jsonArguments';
