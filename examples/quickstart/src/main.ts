// `npm start` runs this until the demo apps exist: the README's examples, for real.
console.log('— edgetool quickstart: a tool, an interceptor, two calls —');
await import('./quickstart.ts');
console.log('\n— approvals with signed, single-use tickets —');
await import('./approvals.ts');
console.log('\n— the chat loop on the offline model: a lookup, an approval —');
await import('./chat.ts');
