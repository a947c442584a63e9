import type { D1Migration } from 'cloudflare:test';
import type { Env } from '../src/env.ts';

declare global {
  namespace Cloudflare {
    /** The Worker's bindings, plus the migrations vitest.config.ts hands to the tests. */
    interface Env extends WorkerEnv {
      readonly TEST_MIGRATIONS: D1Migration[];
      /** A rate limit of 3 requests a minute, handed to the Worker as CHAT_LIMITER by src/api/chat-rate-limit.test.ts. */
      readonly TEST_CHAT_LIMITER: RateLimit;
    }
    /** Types `exports.default` from `cloudflare:workers` as this Worker's handler. */
    interface GlobalProps {
      mainModule: typeof import('../src/index.ts');
    }
  }
}

type WorkerEnv = Env;

declare module 'vitest' {
  /** What test/collector.global-setup.ts provides: the local OTLP collector's base URL. */
  export interface ProvidedContext {
    otlpCollector: string;
  }
}
