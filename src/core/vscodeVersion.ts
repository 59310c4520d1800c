/** Whether a VS Code version ("1.139.1", "1.108.0-insider") is at least major.minor: for API that came later than the engines floor. */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [have = 0, haveMinor = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return have > major || (have === major && haveMinor >= minor);
}
