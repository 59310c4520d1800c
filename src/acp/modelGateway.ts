/**
 * An agent's own model endpoint or company gateway (codex-acp's `gateway`
 * sign-in): the URL a person wrote in `elicit.agentGateways` (user settings
 * only). The key typed for it is sent to that URL by the agent, so the URL is
 * held to what a key may travel over: https, or plain http to this machine
 * only, and no user name or password in it (they would be a second key kept in
 * plain text in settings). Pure.
 */

export const GATEWAYS_SOURCE = 'the elicit.agentGateways setting';

export type GatewayUrlCheck = { ok: true; url: string } | { ok: false; problem: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkGatewayUrl(raw: unknown): GatewayUrlCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, problem: 'expected the gateway URL as a string' };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return { ok: false, problem: 'a key is sent to it: use https (plain http only to localhost)' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'put no user name or password in the URL' };
  if (url.search !== '' || url.hash !== '') return { ok: false, problem: 'a base URL has no query or fragment' };
  // The agent appends its paths (`/responses`, `/models`): no trailing slash.
  return { ok: true, url: url.toString().replace(/\/+$/, '') };
}

/** The per-agent URLs of the setting's value (agent name → URL), with a problem per entry that cannot be used. */
export function parseAgentGateways(value: unknown): { urls: Map<string, string>; problems: string[] } {
  const urls = new Map<string, string>();
  const problems: string[] = [];
  if (value === undefined || value === null) return { urls, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { urls, problems: ['expected an object of agent names and URLs'] };
  for (const [agent, raw] of Object.entries(value as Record<string, unknown>)) {
    const checked = checkGatewayUrl(raw);
    if (checked.ok) urls.set(agent, checked.url);
    else problems.push(`agent "${agent}": ${checked.problem}`);
  }
  return { urls, problems };
}
