import { parseArgs } from 'node:util';
import { ruleResponder } from './rule-responder';
import { startFakeOpenAI } from './server';

const usage = `Usage: fake-openai [--port 8788] [--host 127.0.0.1] [--api-key KEY]

Starts a fake OpenAI server (POST /v1/chat/completions and /v1/responses, streamed and not)
answering with a rule-based model: "/call tool {json}" lines call tools, tool results are
summarised, anything else is echoed as "You said: …".`;

/** Runs the CLI with the given arguments; resolves once the server listens. */
export async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      port: { type: 'string', default: process.env.FAKE_OPENAI_PORT ?? '8788' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
  const apiKey = values['api-key'];
  const fake = await startFakeOpenAI({
    port,
    host: values.host,
    responder: ruleResponder,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  console.log(`fake-openai listening on ${fake.baseURL}`);
  const stop = (): void => {
    fake.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
