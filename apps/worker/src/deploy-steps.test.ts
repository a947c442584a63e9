// The README's deploy steps against what wrangler 4 does with them and what wrangler.jsonc declares: `wrangler d1
// create` without `--binding` offers to add the new database under a binding of its own (`edgetool_demo`), which the
// Worker never reads, and leaves the placeholder id in `DB`, so the migrations and the deploy after it fail.
import { describe, expect, it } from 'vitest';
import workerReadme from '../README.md?raw';
import config from '../wrangler.jsonc?raw';
import readme from '../../../README.md?raw';

/** wrangler.jsonc without its comments (every one takes a line of its own). */
const wrangler = JSON.parse(config.replace(/^\s*\/\/.*$/gm, '')) as { d1_databases: { binding: string; database_name: string }[] };
const [database] = wrangler.d1_databases;

/** The commands of the repo README's "Deploying the Worker" block, without their comments. */
function deploySteps(): string[] {
  const section = readme.slice(readme.indexOf('### Deploying the Worker'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

describe('the README deploy steps', () => {
  it("create the D1 database into wrangler.jsonc's own binding, migrate that binding remotely, set the ticket secret, then deploy", () => {
    expect(wrangler.d1_databases).toHaveLength(1);
    const { binding, database_name } = database ?? { binding: '', database_name: '' };
    const steps = deploySteps();
    const create = `npx wrangler d1 create ${database_name} --binding ${binding} --update-config`;
    expect(steps).toContain(create);
    expect(steps).toContain(`npx wrangler d1 migrations apply ${binding} --remote`);
    const order = [create, `npx wrangler d1 migrations apply ${binding} --remote`, 'npx wrangler secret put TICKET_SECRET', 'npx wrangler deploy'].map((step) => steps.indexOf(step));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The Worker's own README says the same, and so does the comment beside the placeholder id.
    expect(workerReadme.replace(/\s+/g, ' ')).toContain(`\`wrangler d1 create ${database_name} --binding ${binding} --update-config\``);
    expect(config.replace(/\s*\/\/\s*/g, ' ')).toContain(`wrangler d1 create ${database_name} --binding ${binding} --update-config`);
  });
});
