/**
 * An agent session's host side: its panel (the transcript, the prompt, sign-in),
 * the agent's process over the ACP client, and Resume Agent Session's list. A
 * bundle of its own (dist/agent-sessions.js, see esbuild.mjs), which register.ts
 * loads when the first session opens or is listed: a window that opens none
 * never loads it.
 */
export { AgentPanel } from './agentPanel';
export { pickPastSession } from './resumeSession';
