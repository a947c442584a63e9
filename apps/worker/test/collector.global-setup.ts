// Node side of the Worker tests: a local OTLP collector on 127.0.0.1 that the Worker, running in workerd, exports to.
// `POST /<box>/v1/traces` records the body and headers under `<box>` (one box per test); `GET /<box>/received` answers
// what that box recorded, and `GET /count` how many posts arrived in all. Its base URL reaches the tests as
// `inject('otlpCollector')`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    otlpCollector: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const boxes = new Map<string, { headers: IncomingMessage['headers']; body: unknown }[]>();
  let count = 0;
  const answer = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const path = new URL(req.url ?? '/', 'http://collector').pathname;
    const traces = /^\/([\w-]+)\/v1\/traces$/.exec(path);
    const received = /^\/([\w-]+)\/received$/.exec(path);
    if (req.method === 'POST' && traces !== null) {
      count++;
      const box = traces[1] as string;
      boxes.set(box, [...(boxes.get(box) ?? []), { headers: req.headers, body: JSON.parse(text) }]);
      answer(res, 200, {});
    } else if (req.method === 'GET' && received !== null) answer(res, 200, boxes.get(received[1] as string) ?? []);
    else if (req.method === 'GET' && path === '/count') answer(res, 200, { count });
    else answer(res, 404, { message: `no route ${req.method} ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('otlpCollector', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
