// Property-based tests of tickets and canonical JSON (issue "Reliability").
// Runs per runtime: 150 sign/verify-once subjects + 150 seals x (1-4 tamperings + a changed subject) + 120 tickets x 1-8 random tamperings of the ticket
// string (~550) + 250 changed subjects (deep argument changes included) + 150 key-order permutations +
// 100 wrong key/secret/expiry/missing cases + 3,300 canonicalJson cases (permutation, injectivity,
// round trip, the reference writer) = ~4,500 cases, ~2,400 WebCrypto operations. Failures print fast-check's seed and path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  jsonClone,
  jsonEqual,
  jsonObject,
  jsonString,
  jsonValue,
  mutate,
  mutation,
  permuteKeys,
  prng,
} from '../test-support/arbitraries.ts';
import { parseJson } from '../executor/parse-arguments.ts';
import { canonicalJson } from './canonical-json.ts';
import { TicketError } from './ticket-error.ts';
import { createTicketSigner, DEFAULT_TICKET_TTL_MS, type SealSubject, type TicketSigner, type TicketSubject } from './ticket-signer.ts';

const KEY = { id: 'k1', secret: 'a-test-secret-that-is-32-bytes-!' };
const OTHER_SECRET = { id: 'k1', secret: 'another-secret-that-is-32-bytes!' };
const OTHER_ID = { id: 'k2', secret: KEY.secret };

function clock(start = 1_700_000_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

/** A fresh signer (fresh nonce store) per case, so cases never interfere. */
function setup(keys = [KEY]) {
  const c = clock();
  return { clock: c, signer: createTicketSigner({ keys, now: c.now }) };
}

const nonEmpty = fc.oneof(
  fc.string({ minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'call_1', 'conv_9', '\u{1F600}', 'e\u0301', '\ud800', 'a.b.c', ' '),
);

const subjectArb: fc.Arbitrary<TicketSubject> = fc.record({
  purpose: fc.constantFrom('approval' as const, 'client-result' as const),
  toolName: nonEmpty,
  callId: nonEmpty,
  args: fc.oneof({ weight: 3, arbitrary: jsonObject }, jsonValue),
  conversationId: nonEmpty,
});

/** Asserts that `verify` refused with a TicketError (never accepted, never another error). */
async function refused(signer: TicketSigner, ticket: string, subject: TicketSubject, what: string): Promise<TicketError> {
  const outcome = await signer.verify(ticket, subject).then(
    (claims) => ({ accepted: claims }),
    (error: unknown) => ({ error }),
  );
  if ('accepted' in outcome) throw new Error(`ACCEPTED a tampered ticket (${what}): ${ticket}`);
  expect(TicketError.isInstance(outcome.error), `${what}: expected a TicketError, got ${String(outcome.error)}`).toBe(true);
  expect((outcome.error as TicketError).code).toBe('ticket-invalid');
  return outcome.error as TicketError;
}

// ---------------------------------------------------------------- tamperings of the ticket string

const TICKET_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u00e9\u0000%';

type Tamper =
  | { kind: 'replace'; at: number; char: string }
  | { kind: 'insert'; at: number; char: string }
  | { kind: 'delete'; at: number }
  | { kind: 'flip-bit'; at: number; bit: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'swap-segments'; i: number; j: number }
  | { kind: 'duplicate-segment'; i: number }
  | { kind: 'case'; at: number };

const tamperArb: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: fc.constantFrom(...TICKET_CHARS) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(...TICKET_CHARS) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip-bit' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap-segments' as const), i: fc.integer({ min: 0, max: 3 }), j: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('duplicate-segment' as const), i: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('case' as const), at: fc.nat() }),
);

/** Applies a tampering; `undefined` when it would not change the string (the case is then skipped). */
function tamper(ticket: string, t: Tamper): string | undefined {
  const at = 'at' in t ? t.at % ticket.length : 0;
  const segments = ticket.split('.');
  let out: string;
  switch (t.kind) {
    case 'replace':
      out = ticket.slice(0, at) + t.char + ticket.slice(at + 1);
      break;
    case 'insert':
      out = ticket.slice(0, at) + t.char + ticket.slice(at);
      break;
    case 'delete':
      out = ticket.slice(0, at) + ticket.slice(at + 1);
      break;
    case 'flip-bit':
      out = ticket.slice(0, at) + String.fromCharCode(ticket.charCodeAt(at) ^ (1 << t.bit)) + ticket.slice(at + 1);
      break;
    case 'truncate':
      out = ticket.slice(0, at);
      break;
    case 'swap-segments': {
      const copy = [...segments];
      [copy[t.i], copy[t.j]] = [copy[t.j] as string, copy[t.i] as string];
      out = copy.join('.');
      break;
    }
    case 'duplicate-segment':
      out = [...segments.slice(0, t.i + 1), ...segments.slice(t.i)].join('.');
      break;
    case 'case': {
      const ch = ticket.charAt(at);
      out = ticket.slice(0, at) + (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()) + ticket.slice(at + 1);
      break;
    }
  }
  return out === ticket ? undefined : out;
}

describe('ticket properties', () => {
  it('sign then verify succeeds exactly once, then reports a replay', async () => {
    const { signer } = setup();
    await fc.assert(
      fc.asyncProperty(subjectArb, async (subject) => {
        const ticket = await signer.sign(subject);
        expect(ticket).toMatch(/^et1\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
        const claims = await signer.verify(ticket, jsonClone(subject));
        expect(claims).toMatchObject({ purpose: subject.purpose, tool: subject.toolName, callId: subject.callId, conv: subject.conversationId });
        const again = await refused(signer, ticket, subject, 'replay');
        expect(again.reason).toBe('replayed');
      }),
      { numRuns: 150 },
    );
  });

  it('any single tampering of the ticket string is refused with a TicketError, and never burns the real ticket', async () => {
    const { signer } = setup();
    await fc.assert(
      fc.asyncProperty(subjectArb, fc.array(tamperArb, { minLength: 1, maxLength: 8 }), async (subject, tamperings) => {
        const ticket = await signer.sign(subject);
        for (const t of tamperings) {
          const forged = tamper(ticket, t);
          if (forged !== undefined) await refused(signer, forged, subject, `${JSON.stringify(t)}`);
        }
        await expect(signer.verify(ticket, subject), 'the untampered ticket still works once').resolves.toBeDefined();
      }),
      { numRuns: 120 },
    );
  });

  it('a ticket for another subject is refused: any changed field, or a deep change in the arguments', async () => {
    const change = fc.oneof(
      fc.record({ field: fc.constant('toolName' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('callId' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('conversationId' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('purpose' as const) }),
      fc.record({ field: fc.constant('args' as const), m: mutation }),
    );
    const { signer } = setup();
    await fc.assert(
      fc.asyncProperty(subjectArb, change, async (subject, c) => {
        let other: TicketSubject;
        let what: string = c.field;
        if (c.field === 'purpose') other = { ...subject, purpose: subject.purpose === 'approval' ? 'client-result' : 'approval' };
        else if (c.field === 'args') {
          const changed = mutate(subject.args, c.m);
          expect(jsonEqual(changed.value, subject.args), `mutation ${changed.description} changed nothing`).toBe(false);
          other = { ...subject, args: changed.value };
          what = `args: ${changed.description}`;
        } else {
          fc.pre(c.value !== subject[c.field]);
          other = { ...subject, [c.field]: c.value };
        }
        const ticket = await signer.sign(subject);
        const error = await refused(signer, ticket, other, what);
        expect(error.reason).toBe('mismatch');
        expect(error.field).toBe(c.field);
        await expect(signer.verify(ticket, subject), 'a mismatch never burns the ticket').resolves.toBeDefined();
      }),
      { numRuns: 250 },
    );
  });

  it('seals: a tampered seal or any change of the sealed subject is refused; key order never matters', async () => {
    const change = fc.oneof(
      fc.record({ field: fc.constant('toolName' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('callId' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('conversationId' as const), value: nonEmpty }),
      fc.record({ field: fc.constant('content' as const), m: mutation }),
    );
    const { signer } = setup();
    const refusedSeal = async (seal: string, subject: SealSubject, what: string): Promise<TicketError> => {
      const error: unknown = await signer.verifySeal(seal, subject).then(() => new Error(`ACCEPTED a forged seal (${what}): ${seal}`), (e: unknown) => e);
      expect(TicketError.isInstance(error), `${what}: ${String(error)}`).toBe(true);
      return error as TicketError;
    };
    await fc.assert(
      fc.asyncProperty(subjectArb, change, fc.array(tamperArb, { minLength: 1, maxLength: 4 }), fc.integer(), async (ticketSubject, c, tamperings, seed) => {
        const subject: SealSubject = { toolName: ticketSubject.toolName, callId: ticketSubject.callId, conversationId: ticketSubject.conversationId, content: ticketSubject.args };
        const seal = await signer.seal(subject);
        await signer.verifySeal(seal, { ...subject, content: permuteKeys(jsonClone(subject.content), prng(seed)) });
        for (const t of tamperings) {
          const forged = tamper(seal, t);
          if (forged !== undefined) await refusedSeal(forged, subject, JSON.stringify(t));
        }
        let other: SealSubject;
        if (c.field === 'content') {
          const changed = mutate(subject.content, c.m);
          fc.pre(!jsonEqual(changed.value, subject.content));
          other = { ...subject, content: changed.value };
        } else {
          fc.pre(c.value !== subject[c.field]);
          other = { ...subject, [c.field]: c.value };
        }
        expect((await refusedSeal(seal, other, c.field)).reason).toBe('bad-signature');
      }),
      { numRuns: 150 },
    );
  });

  it('the same arguments with keys in another order, at any depth, are accepted', async () => {
    const { signer } = setup();
    await fc.assert(
      fc.asyncProperty(subjectArb, fc.integer(), async (subject, seed) => {
        const ticket = await signer.sign(subject);
        const reordered = permuteKeys(subject.args, prng(seed));
        await expect(signer.verify(ticket, { ...subject, args: reordered })).resolves.toMatchObject({ callId: subject.callId });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses another key, another secret, an expired ticket and a missing one', async () => {
    await fc.assert(
      fc.asyncProperty(
        subjectArb,
        fc.constantFrom('other-secret', 'other-id', 'expired', 'missing'),
        fc.integer({ min: 0, max: 10 * DEFAULT_TICKET_TTL_MS }),
        async (subject, kind, late) => {
          const { signer, clock: c } = setup();
          const ticket = await signer.sign(subject);
          let verifier = signer;
          let expected: string = kind;
          if (kind === 'other-secret') {
            verifier = setup([OTHER_SECRET]).signer;
            expected = 'bad-signature';
          } else if (kind === 'other-id') {
            verifier = setup([OTHER_ID]).signer;
            expected = 'unknown-key';
          } else if (kind === 'expired') {
            c.advance(DEFAULT_TICKET_TTL_MS + late);
          }
          if (kind === 'missing') {
            for (const absent of [undefined, null, '']) expect((await refused(signer, absent as never, subject, 'missing')).reason).toBe('missing');
            return;
          }
          expect((await refused(verifier, ticket, subject, kind)).reason).toBe(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------- canonical JSON

describe('canonicalJson properties', () => {
  it('is invariant under key-order permutations at every depth', () => {
    fc.assert(
      fc.property(jsonValue, fc.integer(), (value, seed) => {
        expect(canonicalJson(permuteKeys(value, prng(seed)))).toBe(canonicalJson(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('is injective: values that differ as JSON have different canonical strings', () => {
    fc.assert(
      fc.property(fc.oneof(jsonObject, jsonValue), mutation, (value, m) => {
        const changed = mutate(value, m);
        expect(jsonEqual(value, changed.value)).toBe(false);
        expect(canonicalJson(changed.value), changed.description).not.toBe(canonicalJson(value));
      }),
      { numRuns: 800 },
    );
    fc.assert(
      fc.property(jsonValue, jsonValue, (a, b) => {
        expect(canonicalJson(a) === canonicalJson(b)).toBe(jsonEqual(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips: parsing canonicalJson(x) deep-equals x, and is valid JSON with no whitespace outside strings', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = canonicalJson(value);
        // parseJson: Node 24/26's JSON.parse can swap a key that ends in an escape (see parse-arguments.ts).
        expect(jsonEqual(parseJson(text), value)).toBe(true);
        expect(text.length).toBe(JSON.stringify(value).length); // same characters, only the key order may differ
      }),
      { numRuns: 500 },
    );
  });

  it('writes exactly what a writer made of JSON.stringify and Array.prototype.sort writes, long strings included', () => {
    // The reference: every string, key and number as JSON.stringify writes it, keys in sort() order.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (typeof value !== 'object' || value === null) return JSON.stringify(value);
      const object = value as Record<string, unknown>;
      return `{${Object.keys(object)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${reference(object[key])}`)
        .join(',')}}`;
    };
    const long = fc.tuple(jsonString, fc.integer({ min: 60, max: 70 }), jsonString).map(([a, n, b]) => `${a}${'x'.repeat(n)}${b}`);
    const value = fc.oneof(jsonValue, jsonObject, fc.dictionary(fc.oneof(jsonString, long), fc.oneof(jsonValue, long), { maxKeys: 24 }));
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.stringify on strings, including lone surrogates', () => {
    fc.assert(
      fc.property(jsonString, (s) => {
        expect(canonicalJson(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 200 },
    );
  });
});
