/**
 * Every runtime value Elicit takes from the official ACP SDK. Built into a
 * bundle of its own (dist/acp-sdk.js) and loaded with loadAcpSdk() when the
 * first agent starts, so activating the extension does not load the SDK (or
 * the zod it brings). Types come from the package itself and cost nothing at
 * run time.
 */
export { client, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
