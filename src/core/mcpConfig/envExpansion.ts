/**
 * Environment variables in the portable MCP files (`.mcp.json`, Copilot CLI's
 * `mcp-config.json`), expanded the way VS Code reads them (its port of the
 * Copilot runtime's rule): `${VAR}` and `${VAR:-default}`, ASCII names only.
 * An unset variable without a default stays as written; a bare `$VAR` is left
 * alone, and so are VS Code's own `${env:X}` and `${input:x}`, which do not
 * match the grammar. Very long strings are not expanded, as in VS Code.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** Whether a text holds a reference (not global: safe for `.test`). */
export const ENV_REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/;
const LONGEST_EXPANDED = 1000;

export function expandEnvReferences(value: string, env: Readonly<Record<string, string | undefined>>): string {
  if (value.length > LONGEST_EXPANDED) return value;
  return value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined && (set !== '' || fallback === undefined)) return set;
    return fallback ?? whole;
  });
}

/** Every string of a transport with its references filled in (command, args, env, cwd; URL and headers). */
export function expandTransport<T extends { type: string }>(transport: T, env: Readonly<Record<string, string | undefined>>): T {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return expandEnvReferences(value, env);
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  const filled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(transport)) filled[key] = key === 'type' || key === 'envFile' ? value : fill(value);
  return filled as T;
}
