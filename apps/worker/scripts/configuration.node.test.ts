// The README's Configuration table against the code: every variable it lists is one the Worker's `Env` declares (or,
// for `PORT`, one `npm start` reads) and that the code reads, every variable `Env` declares is in the table, and
// `scripts/dev.mjs` passes on from the environment all of them but the secrets `npm start` makes and the test switches.
// Runs on Node: it reads the sources as files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WORKER = join(import.meta.dirname, '..');
const ROOT = join(WORKER, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The rows of README.md's "## Configuration" table: the variables of the first cell, and the whole row. */
function configurationTable(): { readonly names: readonly string[]; readonly row: string }[] {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Configuration\n');
  const table = readme.slice(start, readme.indexOf('\n\n', readme.indexOf('| --- |', start)));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((row) => ({ names: [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, name = '']) => name), row }));
}

/** The variables `Env` declares (bindings left out: they are objects, not strings). */
const ENV_VARS = [...read('apps/worker/src/env.ts').matchAll(/readonly ([A-Z][A-Z0-9_]*)\?: string;/g)].map(([, name = '']) => name);
/** What `scripts/dev.mjs` passes on from the environment to `wrangler dev`. */
const FORWARDED = [...(/const FORWARDED = \[([\s\S]*?)\];/.exec(read('apps/worker/scripts/dev.mjs'))?.[1] ?? '').matchAll(/'([A-Z0-9_]+)'/g)].map(
  ([, name = '']) => name,
);
/** Env variables `npm start` does not take from the environment: the secrets it writes to `.dev.vars`, and switches. */
const NOT_FORWARDED = ['ALLOWED_HOSTS', 'TICKET_SECRET', 'TICKET_SECRET_PREVIOUS', 'TEST_CLOCK'];

/** The code that reads the Worker's variables: its sources, the model module and the OTLP reader it hands `env` to. */
function sources(): string {
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return files(path);
      return /\.(ts|mjs)$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) && entry.name !== 'env.ts' ? [path] : [];
    });
  return [...files('apps/worker/src'), 'apps/worker/scripts/dev.mjs', 'packages/ai/src/provider.ts', ...files('packages/core/src/otel')]
    .map((path) => read(path).replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, ''))
    .join('\n');
}

describe("the README's Configuration table", () => {
  const table = configurationTable();
  const listed = table.flatMap(({ names }) => names);
  const code = sources();

  it('is found, and the Worker declares its variables', () => {
    expect(listed).toContain('OPENAI_API_KEY');
    expect(ENV_VARS).toContain('TICKET_SECRET');
    expect(FORWARDED).toContain('OPENAI_API_KEY');
  });

  it('lists only variables the Worker declares, or PORT (npm start)', () => {
    expect(listed.filter((name) => !ENV_VARS.includes(name))).toEqual(['PORT']);
  });

  it('names every variable the Worker declares', () => {
    expect(ENV_VARS.filter((name) => !table.some(({ row }) => row.includes(`\`${name}\``)))).toEqual([]);
  });

  it('lists variables the code reads', () => {
    const read = (name: string) => new RegExp(`env\\.${name}\\b|'${name}'`).test(code);
    expect(listed.filter((name) => !read(name))).toEqual([]);
  });

  it('quotes the defaults the code has: the model ids, the token budget, the port', () => {
    const rowOf = (name: string) => table.find(({ names }) => names[0] === name)?.row ?? '';
    const constant = (file: string, name: string) => new RegExp(`${name}(?::[^=]+)? = '?([\\w.-]+)'?;`).exec(read(file))?.[1];
    const [, ownDefault, demoModel] = /default `([^`]+)` \(`createModelFromEnv`\); the demo's `apps\/worker\/wrangler\.jsonc` sets `([^`]+)`/.exec(rowOf('OPENAI_MODEL')) ?? [];
    expect(ownDefault).toBe(constant('packages/ai/src/provider.ts', 'DEFAULT_OPENAI_MODEL'));
    expect(read('apps/worker/wrangler.jsonc')).toContain(`"OPENAI_MODEL": "${demoModel}"`);
    const budget = /\(default ([\d,]+)\)/.exec(rowOf('TURN_TOKEN_BUDGET'))?.[1]?.replace(/,/g, '');
    expect(budget).toBe(constant('apps/worker/src/agent.ts', 'DEFAULT_TURN_TOKEN_BUDGET')?.replace(/_/g, ''));
    expect(rowOf('PORT')).toContain(`(default ${/process\.env\.PORT \|\| '(\d+)'/.exec(read('apps/worker/scripts/dev.mjs'))?.[1]})`);
  });

  it('npm start passes every variable on from the environment but the secrets it writes and the test switches', () => {
    expect([...FORWARDED].sort()).toEqual(ENV_VARS.filter((name) => !NOT_FORWARDED.includes(name)).sort());
    // …and "The demo" says which are not.
    const readme = read('README.md').replace(/\s+/g, ' ');
    const sentence = /Set in the environment, the Worker's variables but (.*?) are passed on too/.exec(readme)?.[1] ?? '';
    expect([...sentence.matchAll(/`([A-Z0-9_]+)`/g)].map(([, name]) => name).sort()).toEqual([...NOT_FORWARDED].sort());
  });
});

describe('the rate-limit bindings', () => {
  /** The Workers Rate Limiting bindings `Env` declares. */
  const LIMITERS = [...read('apps/worker/src/env.ts').matchAll(/readonly ([A-Z][A-Z0-9_]*)\?: RateLimit;/g)].map(([, name = '']) => name);
  const section = (readme: string, heading: string) => {
    const start = readme.indexOf(heading);
    return readme.slice(start, readme.indexOf('\n## ', start + heading.length));
  };

  it("are each named in the README's deploy section and the Worker's README, and read by the code", () => {
    expect(LIMITERS).toEqual(['EMAIL_LIMITER', 'CHAT_LIMITER']);
    const deploy = section(read('README.md'), '\n### Deploying the Worker\n');
    const worker = read('apps/worker/README.md');
    const code = sources();
    for (const name of LIMITERS) {
      expect(deploy, name).toContain(`\`${name}\``);
      expect(worker, name).toContain(`\`${name}\``);
      expect(code, name).toMatch(new RegExp(`env\\.${name}\\b`));
    }
  });

  it('CHAT_LIMITER: the example the README and wrangler.jsonc show is one entry of `ratelimits`, and the Retry-After they quote is the code’s', () => {
    const deploy = section(read('README.md'), '\n### Deploying the Worker\n').replace(/\s+/g, ' ');
    const example = /`(\{ "name": "CHAT_LIMITER".*?\} \})`/.exec(deploy)?.[1] ?? '';
    const entry = JSON.parse(example) as { name: string; namespace_id: string; simple: { limit: number; period: number } };
    expect(entry.name).toBe('CHAT_LIMITER');
    expect(entry.namespace_id).toMatch(/^\d+$/);
    expect(Number.isInteger(entry.simple.limit) && entry.simple.limit > 0).toBe(true);
    expect([10, 60]).toContain(entry.simple.period);
    // The same entry is in wrangler.jsonc's comment, not bound: without it there is no limit.
    const wrangler = read('apps/worker/wrangler.jsonc');
    expect(wrangler.replace(/\s*\n\s*\/\/\s*/g, ' ')).toContain(example);
    expect(wrangler).not.toMatch(/^\s*"ratelimits".*CHAT_LIMITER/m);
    const seconds = /CHAT_RETRY_AFTER_SECONDS = (\d+);/.exec(read('apps/worker/src/api/chat.ts'))?.[1];
    expect(deploy).toContain(`Retry-After: ${seconds}\``);
    expect(read('apps/worker/README.md').replace(/\s+/g, ' ')).toContain(`\`Retry-After: ${seconds}\``);
  });
});
