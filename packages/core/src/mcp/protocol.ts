/** The MCP revisions edgetool speaks, newest first (Streamable HTTP), as a server and as a client. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
