// Node-only: drives esbuild (the bundler wrangler uses) over the source, as an app's build would.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The minified bundle of `source` (an entry written from this folder), dependencies left out. */
async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: new URL('.', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    external: ['valibot', '@cfworker/json-schema'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

// The first word of SHA-256("abc"), which the self-test of the JavaScript SHA-256 compares against (FIPS 180-4).
const SELF_TEST_WORD = String(0xba7816bf);

describe('what an import leaves out', () => {
  it('the SHA-256 self-test comes with the ticket signer (which reads it), not with trace ids that only hash', async () => {
    expect(await bundle("export { createTicketSigner } from './index.ts';")).toContain(SELF_TEST_WORD);
    expect(await bundle("export { toOtlpTraces } from './otel/index.ts';")).not.toContain(SELF_TEST_WORD);
  });
});
