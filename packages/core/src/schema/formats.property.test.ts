// cfworker's `url` format backtracks for hours on a short host name; jsonSchema() replaces it with a regex of the same
// language that cannot. A differential property test checks the two agree on random URL-like texts short enough for
// the original to answer quickly, and the inputs that made the original backtrack answer at once.
import * as cfworker from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSchema } from './json-schema.ts';
import { builtInUrlFormat, guardFormats } from './json-schema-validator.ts';

describe('jsonSchema: formats that backtrack are replaced', () => {
  it('answers `format: "url"` on a host name the original splits every way at once', async () => {
    // The original took 5.7 s for 28 digits, twice that per digit more: 60 digits would take years.
    const schema = jsonSchema({ type: 'string', format: 'url' });
    const attack = `http://${'1'.repeat(60)}\u0000`;
    expect(await schema['~standard'].validate(attack)).toEqual({ issues: [{ message: 'String does not match format "url".', path: [] }] });
    // Quadratic before: a user part without its `@` (15 s for 40,000 `a:`).
    expect((await schema['~standard'].validate(`http://${'a:'.repeat(40_000)}`)).issues).toHaveLength(1);
    const good = 'https://user:pw@sub.example-site.com:8080/path?q=1#top';
    expect(await schema['~standard'].validate(good)).toEqual({ value: good });
  });

  it('agrees with cfworker’s own url format on random URL-like texts', () => {
    guardFormats(cfworker);
    const original = builtInUrlFormat as (text: string) => boolean;
    expect(original).not.toBe(cfworker.format.url);
    const prefix = fc.constantFrom('http://', 'https://', 'ftp://', 'http://a@', 'http://u:p@', 'http://10.', 'http://192.168.', 'http://172.16.', 'http://1.2.3.', 'htt', '');
    const piece = fc.constantFrom('a', 'z', 'A', '1', '0', '2', '5', '.', '-', '--', ':', '/', '@', '?', '#', '%', ' ', 'é', '😀', 'com', '.io', ':80', '255', '\u00a1');
    const text = fc.tuple(prefix, fc.array(piece, { maxLength: 8 })).map(([head, rest]) => head + rest.join(''));
    const answers = new Set<boolean>();
    fc.assert(
      fc.property(text, (value) => {
        const answer = original(value);
        answers.add(answer);
        expect([value, cfworker.format.url?.(value)]).toEqual([value, answer]);
      }),
      { numRuns: 3000 },
    );
    expect(answers).toEqual(new Set([true, false])); // the texts reach both answers
  });
});
