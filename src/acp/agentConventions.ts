/**
 * What today's agents say in their own words, put into Elicit's where their
 * elicitation arrives, so the form model (src/core/form) knows no agent and
 * every place that reads the request (this window, other windows, the phone,
 * the transcript) sees the same schema. Only their exact shapes are read, so an
 * agent's ordinary fields are never merged. Field names are kept: the answer
 * goes back to the agent under its own names.
 *
 * A choice's own-answer companion becomes Elicit's `_meta["elicit/otherAnswer"]`
 * on the choice (core/form/otherAnswer.ts):
 * - codex-acp (`request_user_input`, blocking, or `_meta.codex.delivery: "async"`):
 *   `<id>`, a string whose `oneOf` options include "None of the above", with
 *   `_meta.codex.isOther: true`; and `<id>_note`, a plain string with
 *   `_meta.codex.role: "user_note"` and `_meta.codex.questionId: "<id>"`.
 *   Other… sends `<id>: "None of the above"` and `<id>_note: <text>`.
 * - claude-agent-acp (`AskUserQuestion`): `question_<n>`, a string with `oneOf`
 *   or an array whose items are `anyOf`; and `question_<n>_custom`, an optional
 *   plain string titled "Other". Other… sends `question_<n>_custom: <text>`
 *   (beside a multi-select's ticked options in `question_<n>`).
 *
 * codex's secret answer (`_meta.codex.isSecret: true`) becomes `writeOnly: true`,
 * and its request's own timer (`_meta.codex.autoResolutionMs`) the question's deadline.
 */
import type { Asker, ElicitRequest } from '../core/request';
import { elicitRequestFrom } from '../core/broker/elicitParams';
import { OTHER_ANSWER_META } from '../core/form/otherAnswer';
import { autoResolutionMs } from '../core/time/countdown';
import { isObject } from '../core/json';

/** The option codex adds to a question that takes an own answer. */
export const CODEX_OTHER_OPTION = 'None of the above';

type Json = Record<string, unknown>;

/** An agent's elicitation params as Elicit's request. `method` names the request in refusals. */
export function agentElicitRequest(method: string, params: unknown, asker: Asker, signal: AbortSignal): ElicitRequest {
  const request = elicitRequestFrom(method, params, asker, signal);
  if (request.mode !== 'form') return request;
  request.requestedSchema = inElicitTerms(request.requestedSchema);
  const timer = autoResolutionMs(codexMeta(params)?.autoResolutionMs);
  if (timer !== undefined) request.autoResolvesAt = Date.now() + timer;
  return request;
}

/** codex's mark of a question it keeps working through: `_meta.codex.delivery: "async"`. */
export function isNonBlocking(params: Json): boolean {
  return codexMeta(params)?.delivery === 'async' && (params.mode ?? 'form') === 'form';
}

/**
 * The schema with the agents' marks written as Elicit's: a copy where anything
 * changes (the agent's own object is left as it sent it), else the same object.
 * Anything malformed is left for the broker to refuse.
 */
export function inElicitTerms(requestedSchema: unknown): unknown {
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) return requestedSchema;
  const properties = requestedSchema.properties;
  let rewritten: Json | undefined;
  const write = (name: string, property: Json): void => {
    rewritten ??= { ...properties };
    rewritten[name] = property;
  };
  for (const [name, property] of Object.entries(properties)) {
    if (codexMeta(property)?.isSecret === true && isObject(property) && property.writeOnly !== true) {
      write(name, { ...property, writeOnly: true });
    }
  }
  const paired = new Set<string>();
  for (const [text, owner, option] of companions(properties)) {
    const property = (rewritten ?? properties)[owner];
    // A choice takes its first companion, as the form pairs it.
    if (paired.has(owner) || !isObject(property) || (property._meta !== undefined && !isObject(property._meta))) continue;
    paired.add(owner);
    const mark = option === undefined ? { text } : { text, option };
    write(owner, { ...property, _meta: { ...property._meta, [OTHER_ANSWER_META]: mark } });
  }
  return rewritten === undefined ? requestedSchema : { ...requestedSchema, properties: rewritten };
}

/** Each companion text the agents' shapes name: [its name, its choice's name, the option Other… sends]. */
function* companions(properties: Json): Generator<[string, string, string | undefined]> {
  for (const name of Object.keys(properties)) {
    const owner = codexOwner(name, properties);
    if (owner !== undefined) yield [name, owner, CODEX_OTHER_OPTION];
    const claudeOwner = claudeOwnerOf(name, properties);
    if (claudeOwner !== undefined) yield [name, claudeOwner, undefined];
  }
}

function codexOwner(name: string, properties: Json): string | undefined {
  const meta = codexMeta(properties[name]);
  if (meta?.role !== 'user_note' || typeof meta.questionId !== 'string') return undefined;
  const id = meta.questionId;
  // codex names the note `<id>_note`, or `<id>_note<k>` when another question already has that id.
  if (!name.startsWith(`${id}_note`) || !/^\d*$/.test(name.slice(id.length + 5))) return undefined;
  if (!Object.hasOwn(properties, id) || codexMeta(properties[id])?.isOther !== true) return undefined;
  return id;
}

function claudeOwnerOf(name: string, properties: Json): string | undefined {
  const match = /^(question_\d+)_custom$/.exec(name);
  const property = properties[name];
  if (!match || !isObject(property) || property.title !== 'Other') return undefined;
  return Object.hasOwn(properties, match[1]!) ? match[1] : undefined;
}

/** `_meta.codex` of a property or a request, when it has one. */
function codexMeta(value: unknown): Json | undefined {
  if (!isObject(value) || !isObject(value._meta)) return undefined;
  const codex = value._meta.codex;
  return isObject(codex) ? codex : undefined;
}
