/**
 * Environment variables in the portable MCP files (`.mcp.json`, Copilot CLI's
 * `mcp-config.json`), expanded the way VS Code reads them (its port of the
 * Copilot runtime's rule): `${VAR}` and `${VAR:-default}`, ASCII names only.
 * An unset variable without a default stays as written; a bare `$VAR` is left
 * alone, and so are VS Code's own `${env:X}` and `${input:x}`, which do not
 * match the grammar. Very long strings are not expanded, as in VS Code.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const LONGEST_EXPANDED = 1000;

export function expandEnvReferences(value: string, env: Readonly<Record<string, string | undefined>>): string {
  if (value.length > LONGEST_EXPANDED) return value;
  return value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined && (set !== '' || fallback === undefined)) return set;
    return fallback ?? whole;
  });
}
