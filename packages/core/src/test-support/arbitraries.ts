// fast-check arbitraries and helpers shared by the `*.property.test.ts` files (test-only code).
import fc from 'fast-check';
import type { ToolErrorCode } from '../errors/tool-error.ts';
import { parseJson } from '../executor/parse-arguments.ts';

/** Keys that have broken JSON handling before: prototype keys, integer-like keys, unicode, path syntax. */
export const HOSTILE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'toJSON',
  'polluted',
  'isAdmin',
  '',
  '0',
  '9',
  '10',
  'Z',
  'z',
  'é',
  'e\u0301',
  '\u{1F600}',
  '\ud800',
  'a.b',
  'a[0]',
];

/** Keys that valibot's record/looseObject schemas drop on purpose (prototype-pollution guard). */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Strings: printable unicode, raw UTF-16 (lone surrogates), and a few classics. */
export const jsonString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '"', '\\', '\n', '\u2028', '\u0000', 'null', '{}', '1e21', '\ud83d') },
);

export const jsonKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/** JSON numbers (no -0: JSON has no negative zero, `JSON.stringify(-0)` is `"0"`). */
export const jsonNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, 1e21, -1e-7, 0.1),
);

export const jsonPrimitive: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.boolean(), jsonNumber, jsonString);

/** Builds an object with exactly these own keys, `__proto__` included (like `JSON.parse` does). */
export function objectFrom(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  return Object.fromEntries(entries) as Record<string, unknown>;
}

const { value: jsonValueArb } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonPrimitive, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.uniqueArray(fc.tuple(jsonKey, tie('value')), { selector: ([key]) => key, maxLength: 5 }).map(objectFrom),
}));

/** Any JSON value, with hostile keys (own `__proto__` keys included), unicode and nesting. */
export const jsonValue: fc.Arbitrary<unknown> = jsonValueArb;

/** A JSON object (what tool arguments usually are). */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc
  .uniqueArray(fc.tuple(jsonKey, jsonValue), { selector: ([key]) => key, maxLength: 6 })
  .map(objectFrom);

/** Structural equality of JSON values: numbers with `===`, objects by own enumerable keys. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** A deep copy through JSON (keeps own `__proto__` keys and lone surrogates; `parseJson` dodges Node 24/26's key bug). */
export function jsonClone<T>(value: T): T {
  return parseJson(JSON.stringify(value)) as T;
}

/** Small deterministic PRNG (mulberry32), driven by a seed that fast-check generates and shrinks. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The same JSON value with the insertion order of keys shuffled at every depth (arrays keep their order). */
export function permuteKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => permuteKeys(item, random));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.keys(value).map((key) => [key, permuteKeys((value as Record<string, unknown>)[key], random)] as const);
  return objectFrom(shuffle(entries, random));
}

type Path = readonly (string | number)[];
interface Node {
  readonly path: Path;
  readonly value: unknown;
}

function nodes(value: unknown, path: Path = [], out: Node[] = []): Node[] {
  out.push({ path, value });
  if (Array.isArray(value)) for (const [i, item] of value.entries()) nodes(item, [...path, i], out);
  else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) nodes((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

function replaceAt(root: unknown, path: Path, replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(root);
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? replaceAt(item, rest, replace) : item));
  const object = root as Record<string, unknown>;
  return objectFrom(Object.keys(object).map((key) => [key, key === head ? replaceAt(object[key], rest, replace) : object[key]] as const));
}

/** How to change a JSON value somewhere deep inside. */
export type MutationKind = 'leaf' | 'add-key' | 'remove-key' | 'reorder' | 'retype';

export interface Mutation {
  readonly kind: MutationKind;
  readonly pick: number;
  readonly leaf: unknown;
  readonly key: string;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<MutationKind>('leaf', 'add-key', 'remove-key', 'reorder', 'retype'),
  pick: fc.nat(),
  leaf: jsonPrimitive,
  key: jsonKey,
});

function differentLeaf(old: unknown, proposed: unknown): unknown {
  if (!jsonEqual(old, proposed)) return proposed;
  if (typeof old === 'string') return `${old}\u0000`;
  if (typeof old === 'boolean') return !old;
  if (typeof old === 'number') return String(old);
  return 0;
}

/**
 * Applies one deep change to a JSON value: change a leaf, add or remove an object key, swap two
 * different array items, or change a node's type. Always returns a value that differs as JSON.
 */
export function mutate(value: unknown, m: Mutation): { value: unknown; description: string } {
  // The asked-for kind first, then the others, so a value without arrays still gets a deep change.
  const kinds: MutationKind[] = ['leaf', 'add-key', 'remove-key', 'reorder', 'retype'];
  const start = kinds.indexOf(m.kind);
  for (let i = 0; i < kinds.length; i++) {
    const result = mutateAs(value, { ...m, kind: kinds[(start + i) % kinds.length] as MutationKind });
    if (result !== undefined) return result;
  }
  return { value: [value], description: 'wrap the root' };
}

function mutateAs(value: unknown, m: Mutation): { value: unknown; description: string } | undefined {
  const all = nodes(value);
  const pickFrom = (candidates: Node[]): Node | undefined => candidates[m.pick % Math.max(candidates.length, 1)];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  let result: { value: unknown; description: string } | undefined;
  switch (m.kind) {
    case 'leaf': {
      const node = pickFrom(all.filter((n) => typeof n.value !== 'object' || n.value === null));
      if (node) result = { value: replaceAt(value, node.path, (old) => differentLeaf(old, m.leaf)), description: `leaf at ${JSON.stringify(node.path)}` };
      break;
    }
    case 'add-key': {
      const node = pickFrom(all.filter((n) => isObject(n.value) && !Object.hasOwn(n.value, m.key)));
      if (node) {
        result = {
          value: replaceAt(value, node.path, (old) => objectFrom([...Object.entries(old as object), [m.key, m.leaf]])),
          description: `add ${JSON.stringify(m.key)} at ${JSON.stringify(node.path)}`,
        };
      }
      break;
    }
    case 'remove-key': {
      const node = pickFrom(all.filter((n) => isObject(n.value) && Object.keys(n.value).length > 0));
      if (node) {
        const keys = Object.keys(node.value as object);
        const drop = keys[m.pick % keys.length];
        result = {
          value: replaceAt(value, node.path, (old) => objectFrom(Object.entries(old as object).filter(([k]) => k !== drop))),
          description: `remove ${JSON.stringify(drop)} at ${JSON.stringify(node.path)}`,
        };
      }
      break;
    }
    case 'reorder': {
      const node = pickFrom(all.filter((n) => Array.isArray(n.value) && n.value.some((item) => !jsonEqual(item, n.value && (n.value as unknown[])[0]))));
      if (node) {
        const items = node.value as unknown[];
        const j = items.findIndex((item) => !jsonEqual(item, items[0]));
        result = {
          value: replaceAt(value, node.path, () => items.map((item, i) => (i === 0 ? items[j] : i === j ? items[0] : item))),
          description: `swap [0] and [${j}] at ${JSON.stringify(node.path)}`,
        };
      }
      break;
    }
    case 'retype': {
      const node = pickFrom(all);
      if (node) {
        result = {
          value: replaceAt(value, node.path, (old) => (Array.isArray(old) ? objectFrom(old.map((item, i) => [String(i), item] as const)) : [old])),
          description: `retype at ${JSON.stringify(node.path)}`,
        };
      }
      break;
    }
  }
  return result;
}

/** Records unhandled rejections on whichever API the runtime has (window/worker events or Node's process). */
export function watchUnhandledRejections(): { readonly reasons: unknown[]; stop(): void } {
  const reasons: unknown[] = [];
  const onEvent = (event: Event) => reasons.push((event as PromiseRejectionEvent).reason);
  const onNode = (reason: unknown) => reasons.push(reason);
  const target = globalThis as { addEventListener?: typeof addEventListener; removeEventListener?: typeof removeEventListener };
  const proc = (globalThis as { process?: { on?: (e: string, f: (r: unknown) => void) => void; off?: (e: string, f: (r: unknown) => void) => void } }).process;
  const useEvents = typeof target.addEventListener === 'function';
  if (useEvents) target.addEventListener?.('unhandledrejection', onEvent);
  else proc?.on?.('unhandledRejection', onNode);
  return {
    reasons,
    stop() {
      if (useEvents) target.removeEventListener?.('unhandledrejection', onEvent);
      else proc?.off?.('unhandledRejection', onNode);
    },
  };
}

/** Lets pending promise jobs and one macrotask run (so unhandled rejections get reported). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Every documented `ToolErrorCode` (see errors/tool-error.ts). */
export const CODES: ReadonlySet<string> = new Set<ToolErrorCode>([
  'invalid-json',
  'unknown-tool',
  'invalid-input',
  'invalid-output',
  'execution-failed',
  'timeout',
  'aborted',
  'approval-required',
  'approval-denied',
  'ticket-invalid',
  'wrong-placement',
  'chain-misuse',
  'duplicate-tool',
  'resolver-cycle',
  'rate-limited',
]);

/** Every kind of `ToolOutcome`. */
export const OUTCOME_TYPES: ReadonlySet<string> = new Set(['success', 'error', 'approval-required', 'client-pending']);
