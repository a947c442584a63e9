import * as v from 'valibot';
import { createExecutor } from '../executor/executor.ts';
import { scanTools, tool } from '../toolbox/toolbox.ts';

/** A decorated toolbox, bundled by esbuild in a test exactly as wrangler would bundle a Worker. */
export class Clock {
  private readonly zone: string;

  constructor(zone: string) {
    this.zone = zone;
  }

  @tool({ description: 'Current zone', input: v.object({ prefix: v.optional(v.string(), 'zone') }) })
  current_zone({ prefix }: { prefix: string }): string {
    return `${prefix}: ${this.zone}`;
  }
}

/** Scans and runs one call: what a Worker's fetch handler would do. */
export async function runBundled(): Promise<{ names: string[]; content: string }> {
  const tools = scanTools(new Clock('Europe/Paris'));
  const result = await createExecutor({ registry: tools }).execute({ id: '1', name: 'current_zone', arguments: '{}' });
  return { names: tools.map((t) => t.name), content: result.content };
}
