/** Messages between the extension host and the result-check worker (worker.ts). */

/** Host → worker: check `data` against `schema` (or only compile it, when `data` is absent). */
export interface CheckRequest {
  id: number;
  schema: object;
  /** Absent: compile only, to refuse a tool whose schema cannot be used before it is called. */
  data?: unknown;
  compileOnly?: boolean;
}

/** Worker → host. */
export type CheckReply =
  | { id: number; outcome: 'valid' }
  | { id: number; outcome: 'invalid'; errorMessage: string }
  | { id: number; outcome: 'unusable'; errorMessage: string };
