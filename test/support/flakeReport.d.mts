// Types for flakeReport.mjs (test/run.mjs's closing lines, tested in test/unit/flakeReport.test.ts).
export declare function failedFiles(summary: string): string[];
export declare function failures(summary: string): { file: string; test: string; error: string }[];
export declare function forgivenFiles(firstSummary: string, again: { status: number; failures: string }): string[];
export declare function flakyLines(firstSummary: string, forgiven: string[]): string;
