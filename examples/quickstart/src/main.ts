// `pnpm --filter @edgetool/example-quickstart start` runs the README's examples one after another.
console.log('— edgetool quickstart: a tool, an interceptor, two calls —');
await import('./quickstart.ts');
console.log('\n— approvals with signed, single-use tickets —');
await import('./approvals.ts');
console.log('\n— call limits and rate limits —');
await import('./limits.ts');
console.log('\n— tools per user —');
await import('./available.ts');
console.log('\n— progress reports of a running call —');
await import('./progress.ts');
console.log('\n— the same tool served to MCP clients —');
await import('./mcp.ts');
console.log('\n— tools of an MCP server, used as edgetool tools —');
await import('./mcp-client.ts');
console.log('\n— the chat loop on the offline model: a lookup, an approval —');
await import('./chat.ts');
