// Types for failureSummary.mjs (a node:test reporter), as test/unit/flakeReport.test.ts feeds it events.
export default function failureSummary(source: AsyncIterable<{ type: string; data: Record<string, unknown> }>): AsyncGenerator<string>;
