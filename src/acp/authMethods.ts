/**
 * The ways an agent offers to sign in (`authMethods` of its `initialize`
 * answer), read into what Elicit can do with each:
 *  - agent:    the agent signs in itself when the client calls `authenticate`;
 *  - env_var:  the person supplies variables (API keys) that the client puts in
 *              the agent's environment before `authenticate` (ACP's auth-methods
 *              RFD; codex-acp sends it, the stable schema does not have it yet);
 *  - terminal: the client runs the agent's own command, with the method's args
 *              and env (held to the same rule as env_var's variables), in an
 *              interactive terminal; a zero exit status is success.
 * An agent method that declares `_meta["api-key"]` (codex-acp 2.x's "API Key")
 * takes a key the person types in `authenticate`'s `_meta["api-key"].apiKey`
 * instead: it is read as an env_var method with one secret field and
 * `sentIn: 'authenticate'`, so it is asked, kept and refused like a variable
 * but never put in the agent's environment. ACP has no standard for this yet.
 * An agent method that declares `_meta.gateway` with protocol "openai"
 * (codex-acp 2.x's "Custom model gateway") is read the same way, with the
 * gateway URL from the person's settings (`gateway`): the key goes in
 * `_meta.gateway.headers` as `Authorization: Bearer …`, to that URL only. It is
 * left out when no URL is configured for the agent (Elicit cannot use it).
 * A method of a type Elicit does not know is left out. Pure.
 */
import { isObject } from '../core/json';

export interface EnvVarView {
  name: string;
  /** A label for the input box; the variable's name when absent. */
  label?: string;
  /** Masked input; true unless the agent says otherwise. */
  secret: boolean;
  optional: boolean;
}

interface MethodBase {
  id: string;
  name: string;
  description?: string;
}

export type AgentAuthMethod = MethodBase & { kind: 'agent' };
export type EnvVarAuthMethod = MethodBase & {
  kind: 'env_var';
  vars: EnvVarView[];
  link?: string;
  /** Set when the key goes in the `authenticate` request (API_KEY_META, GATEWAY_META), not in the agent's environment. */
  sentIn?: 'authenticate';
  /** The gateway's base URL (from the person's settings) that the key is for: a GATEWAY_META method. */
  gateway?: string;
};
export type TerminalAuthMethod = MethodBase & { kind: 'terminal'; args: string[]; env: Record<string, string> };
export type AuthMethodView = AgentAuthMethod | EnvVarAuthMethod | TerminalAuthMethod;

/** A portable environment variable name: an agent cannot have Elicit set `PATH=…` or `a b`. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Variables whose value changes how every program, not just the agent, runs: what it loads, where it looks, what a shell runs first. */
const NOT_SETTABLE = new Set([
  'PATH',
  'HOME',
  'SHELL',
  'NODE_OPTIONS',
  'NODE_PATH',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
]);
/** The dynamic loader's variables (LD_PRELOAD, LD_AUDIT, DYLD_INSERT_LIBRARIES…). */
const LOADER_VARIABLE = /^(?:LD|DYLD)_/;

/**
 * The one rule for a variable an agent's sign-in method may set, an env_var
 * method's and a terminal method's alike: a portable name that does not
 * change how every program runs.
 */
export function settableVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return VARIABLE_NAME.test(name) && !NOT_SETTABLE.has(upper) && !LOADER_VARIABLE.test(upper);
}

/** `gatewayUrl`: the person's gateway URL for this agent (settings), without which a gateway method is left out. */
export function readAuthMethods(raw: unknown, gatewayUrl?: string): AuthMethodView[] {
  if (!Array.isArray(raw)) return [];
  const methods: AuthMethodView[] = [];
  for (const entry of raw) {
    const method = readAuthMethod(entry, gatewayUrl);
    if (method && !methods.some((m) => m.id === method.id)) methods.push(method);
  }
  return methods;
}

function readAuthMethod(entry: unknown, gatewayUrl: string | undefined): AuthMethodView | undefined {
  if (!isObject(entry) || typeof entry.id !== 'string' || entry.id === '' || typeof entry.name !== 'string') return undefined;
  const base: MethodBase = { id: entry.id, name: entry.name };
  if (typeof entry.description === 'string' && entry.description !== '') base.description = entry.description;
  const type = entry.type ?? 'agent';
  // "Any method that names vars" is an env_var method, whatever its type says.
  if (type === 'env_var' || Array.isArray(entry.vars)) {
    const vars = readVars(entry.vars);
    if (vars === undefined) return undefined;
    const method: EnvVarAuthMethod = { ...base, kind: 'env_var', vars };
    if (typeof entry.link === 'string' && /^https?:\/\//i.test(entry.link)) method.link = entry.link;
    return method;
  }
  if (type === 'terminal') {
    const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (isObject(entry.env)) {
      for (const [name, value] of Object.entries(entry.env)) {
        if (typeof value !== 'string') continue;
        // As for env_var: a method that sets what it may not is left out whole.
        if (!settableVariable(name)) return undefined;
        env[name] = value;
      }
    }
    return { ...base, kind: 'terminal', args, env };
  }
  if (type !== 'agent') return undefined;
  if (isObject(entry._meta) && isObject(entry._meta[GATEWAY_META])) {
    // Only the OpenAI protocol is sent to: another would need another key header.
    if (entry._meta[GATEWAY_META].protocol !== 'openai' || gatewayUrl === undefined) return undefined;
    return {
      ...base,
      kind: 'env_var',
      vars: [{ name: authenticateKeyName(base.id), label: 'API key', secret: true, optional: false }],
      sentIn: 'authenticate',
      gateway: gatewayUrl,
    };
  }
  if (isObject(entry._meta) && isObject(entry._meta[API_KEY_META])) {
    return {
      ...base,
      kind: 'env_var',
      vars: [{ name: authenticateKeyName(base.id), label: 'API key', secret: true, optional: false }],
      sentIn: 'authenticate',
    };
  }
  return { ...base, kind: 'agent' };
}

/** The `_meta` key of an agent method that takes an API key in `authenticate` (codex-acp's convention). */
export const API_KEY_META = 'api-key';

/** The `_meta` key of an agent method that routes the agent to a model gateway (codex-acp's `gateway`). */
export const GATEWAY_META = 'gateway';

/**
 * The name the key of an `authenticate` method is saved under: never a variable
 * name (it has a colon), so it can never be put in an environment.
 */
export function authenticateKeyName(methodId: string): string {
  return `authenticate:${methodId}`;
}

/** The `_meta` of the `authenticate` request that carries the typed key, for a method with `sentIn: 'authenticate'`. */
export function authenticateMeta(method: EnvVarAuthMethod, values: Readonly<Record<string, string>>): Record<string, unknown> | undefined {
  if (method.sentIn !== 'authenticate') return undefined;
  const apiKey = values[authenticateKeyName(method.id)];
  if (apiKey === undefined) return undefined;
  if (method.gateway !== undefined) {
    return { [GATEWAY_META]: { baseUrl: method.gateway, headers: { Authorization: `Bearer ${apiKey}` } } };
  }
  return { [API_KEY_META]: { apiKey } };
}

/** The variables, or undefined when one cannot be set (the whole method is then left out). */
function readVars(raw: unknown): EnvVarView[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const vars: EnvVarView[] = [];
  for (const entry of raw) {
    if (!isObject(entry) || typeof entry.name !== 'string') return undefined;
    if (!settableVariable(entry.name)) return undefined;
    if (vars.some((v) => v.name === entry.name)) continue;
    const view: EnvVarView = { name: entry.name, secret: entry.secret !== false, optional: entry.optional === true };
    if (typeof entry.label === 'string' && entry.label.trim() !== '') view.label = entry.label;
    vars.push(view);
  }
  return vars;
}

/** The saved values of every variable the method needs, or undefined when one is missing. */
export function savedValuesFor(method: EnvVarAuthMethod, saved: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  for (const v of method.vars) {
    const value = saved[v.name];
    if (value !== undefined && value !== '') values[v.name] = value;
    else if (!v.optional) return undefined;
  }
  return values;
}
