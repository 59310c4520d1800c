// What `npm test` prints last when end-to-end files failed and were run once more: each file the second
// run forgave, with its first failure, so the tail of a CI log shows the flake as a finding to fix.
// It reads the text of failureSummary.mjs: blocks of "✖ <file>", "  <names › of › the test>", then the
// error's lines indented by four.

/** The files the failure summary names, each once, in the order they first failed. */
export function failedFiles(summary) {
  return [...new Set([...summary.matchAll(/^✖ (.+)$/gm)].map((match) => match[1]))];
}

/** Each failed test of the summary: its file, its path of names and the first line of its error. */
export function failures(summary) {
  return summary
    .split(/^(?=✖ )/m)
    .filter((block) => block.startsWith('✖ '))
    .map((block) => {
      const [fileLine, nameLine = '', ...errorLines] = block.split('\n');
      return {
        file: fileLine.slice(2).trim(),
        test: nameLine.trim(),
        error: errorLines.map((line) => line.trim()).find((line) => line !== '') ?? '(no error)',
      };
    });
}

/**
 * The files that failed the first time and not when run again. A second run that failed without
 * naming a file forgives nothing: what it failed on is not known.
 */
export function forgivenFiles(firstSummary, again) {
  const failedAgain = failedFiles(again.failures);
  if (again.status !== 0 && failedAgain.length === 0) return [];
  return failedFiles(firstSummary).filter((file) => !failedAgain.includes(file));
}

/** The closing lines for the forgiven files (empty when none): one per file, with its first failure. */
export function flakyLines(firstSummary, forgiven) {
  if (forgiven.length === 0) return '';
  const first = failures(firstSummary);
  const lines = forgiven.map((file) => {
    const inFile = first.filter((f) => f.file === file);
    if (inFile.length === 0) return `  ${file}`;
    const more = inFile.length > 1 ? ` (and ${inFile.length - 1} more failed ${inFile.length === 2 ? 'test' : 'tests'} in it)` : '';
    return `  ${file}: "${inFile[0].test}": ${inFile[0].error}${more}`;
  });
  return `▶ flaky (forgiven this time, a finding to fix): ${forgiven.length} ${forgiven.length === 1 ? 'file' : 'files'} failed, then passed when run again\n${lines.join('\n')}\n`;
}
