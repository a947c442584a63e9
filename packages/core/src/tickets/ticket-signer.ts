import { decodeBase64Url, encodeBase64Url } from './base64url.ts';
import { canonicalJson, hashArguments } from './canonical-json.ts';
import { createHmacKey, inJavaScript, SMALL_MESSAGE_BYTES } from './hmac-sha256.ts';
import { createMemoryNonceStore, type NonceStore } from './nonce-store.ts';
import { TicketError, type TicketMismatchField } from './ticket-error.ts';

/**
 * What a ticket authorises: running an approved call on the server (`approval`) or accepting a client's
 * tool result (`client-result`). Results the server vouches for carry a {@link TicketSigner.seal} instead.
 */
export type TicketPurpose = 'approval' | 'client-result';

/** The one pending tool call a ticket is bound to. */
export interface TicketSubject {
  readonly purpose: TicketPurpose;
  readonly toolName: string;
  readonly callId: string;
  /** The call's arguments; bound by {@link hashArguments}, so key order does not matter. */
  readonly args: unknown;
  readonly conversationId: string;
}

/** The signed payload of a ticket (short names keep tickets small). */
export interface TicketClaims {
  readonly v: 1;
  readonly purpose: TicketPurpose;
  readonly tool: string;
  readonly callId: string;
  /** Base64url SHA-256 of the canonical JSON of the arguments. */
  readonly argsHash: string;
  /** Conversation id. */
  readonly conv: string;
  /** Expiry, epoch ms. */
  readonly exp: number;
  /** 128 random bits, base64url: makes the ticket single-use. */
  readonly nonce: string;
  /** Id of the signing key. */
  readonly kid: string;
}

/** An HMAC-SHA256 key. `id` ([A-Za-z0-9_-], at most 64) goes into tickets; a string secret is used as its UTF-8 bytes. */
export interface TicketKey {
  readonly id: string;
  /** At least 32 bytes, ideally random (`crypto.getRandomValues`). */
  readonly secret: string | Uint8Array;
}

/** Options for {@link TicketSigner.sign}. */
export interface TicketSignOptions {
  /** Lifetime in ms (default: the signer's `ttlMs`). */
  readonly ttlMs?: number;
}

/** What a seal binds: one finished call of a conversation and exactly the content the client holds. */
export interface SealSubject {
  readonly toolName: string;
  readonly callId: string;
  readonly conversationId: string;
  /** JSON data (canonicalised, so key order does not matter): for example the call's input and output. */
  readonly content: unknown;
}

/** Options for {@link TicketSigner.verify}. */
export interface TicketVerifyOptions {
  /**
   * Claim the nonce so the ticket cannot be used again (default `true`). `false` only checks; it still
   * reports a used ticket when the nonce store implements `has`.
   */
  readonly consume?: boolean;
  /**
   * Only check that this server issued the ticket for exactly `expected` (its signature and subject), not whether it
   * is still valid: an expired or used ticket passes, and nothing is claimed. For history that must be authentic but
   * will not be acted on (an approval a client answered in an earlier turn).
   */
  readonly origin?: boolean;
  /**
   * What this request decides with the ticket (approved, denied, with which edits), kept with the nonce when it is
   * claimed. A used ticket is then refused as `conflict` when its first use kept another decision, and as `replayed`
   * when the same or none (a nonce store without `claimDecision` keeps none).
   */
  readonly decision?: string;
}

/** Result of {@link TicketSigner.safeVerify}. */
export type TicketVerifyResult = { readonly ok: true; readonly claims: TicketClaims } | { readonly ok: false; readonly error: TicketError };

/** Issues and checks tickets. */
export interface TicketSigner {
  /** A compact ticket `et1.<kid>.<payload>.<signature>` for `subject`, signed with the first key. */
  sign(subject: TicketSubject, options?: TicketSignOptions): Promise<string>;
  /** The claims of a valid, unexpired, unused ticket for exactly `expected`; throws a {@link TicketError} otherwise. */
  verify(ticket: string | undefined | null, expected: TicketSubject, options?: TicketVerifyOptions): Promise<TicketClaims>;
  /** Like `verify`, but returns a refused ticket as a value. Other errors (a failing nonce store) still reject. */
  safeVerify(ticket: string | undefined | null, expected: TicketSubject, options?: TicketVerifyOptions): Promise<TicketVerifyResult>;
  /** Decodes the claims WITHOUT checking anything (for UIs and debugging); never trust the result. */
  peek(ticket: string | undefined | null): TicketClaims | undefined;
  /**
   * Optional: claims a named step of what a ticket allowed (`mark`: `started`, a lowercase word) once, in the nonce store
   * beside the ticket's nonce and until the ticket expires. Resolves `true` for the one claim that wins, `false` after;
   * throws a {@link TicketError} for a ticket this signer did not issue, or one that has expired. The chat loop marks an
   * approved call started before it runs it, so the same continuation sent again can tell a call that never started.
   */
  claimMark?(ticket: string, mark: string): Promise<boolean>;
  /**
   * A seal `es1.<kid>.<exp>.<mac>`: the server's attestation that `subject` (a result in a conversation's
   * history) is what it produced. Reusable until it expires (no nonce), and cheap: one HMAC over the
   * canonical JSON of the subject, no digest and no claims to encode.
   */
  seal(subject: SealSubject, options?: TicketSignOptions): Promise<string>;
  /** Checks a seal against exactly `subject`; throws a {@link TicketError} (`bad-signature` when the content differs). */
  verifySeal(seal: string | undefined | null, subject: SealSubject): Promise<void>;
}

/** Options for {@link createTicketSigner}. */
export interface TicketSignerOptions {
  /** The first key signs; all verify, so a key can be rotated in before the old one is removed. */
  readonly keys: readonly TicketKey[];
  /** Default ticket lifetime in ms (15 minutes). */
  readonly ttlMs?: number;
  /** Where used nonces go (default: {@link createMemoryNonceStore} with the same `now`). */
  readonly nonceStore?: NonceStore;
  /** Clock in epoch ms (default `Date.now`); fractions are fine: expiries are whole milliseconds. */
  readonly now?: () => number;
}

/** Default ticket lifetime: 15 minutes. */
export const DEFAULT_TICKET_TTL_MS: number = 15 * 60 * 1000;

/** Shortest accepted secret, in bytes (the HMAC-SHA256 output size). */
export const MIN_TICKET_SECRET_BYTES = 32;

const PREFIX = 'et1';
const SEAL_PREFIX = 'es1';
const EXPIRY = /^[0-9]{1,16}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const MAX_TICKET_LENGTH = 16_384;
const MARK = /^[a-z][a-z-]{0,31}$/;
const SIGNATURE_LENGTH = 43; // 32 bytes
const NONCE_LENGTH = 22; // 16 bytes
const HASH_LENGTH = 43; // 32 bytes
const PURPOSES: readonly TicketPurpose[] = ['approval', 'client-result'];

/**
 * Creates a {@link TicketSigner}. Tickets bind one pending tool call (purpose, tool, call id, argument
 * hash, conversation) with an expiry and a single-use nonce, so a client cannot forge approvals or results.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createTicketSigner(options: TicketSignerOptions): TicketSigner {
  const now = options.now ?? Date.now;
  const defaultTtl = options.ttlMs ?? DEFAULT_TICKET_TTL_MS;
  checkTtl(defaultTtl, 'createTicketSigner: ttlMs');
  const nonceStore = options.nonceStore ?? createMemoryNonceStore({ now });
  // One HMAC key per key id: nothing is imported or hashed until first use (construction stays synchronous).
  const keys = new Map([...readKeys(options.keys)].map(([kid, secret]) => [kid, createHmacKey(secret)] as const));
  const signingKid = options.keys[0]!.id;
  const encoder = new TextEncoder();

  /**
   * The expiry `ttl` ms from now, in whole epoch ms: a clock with fractions (`performance.timeOrigin +
   * performance.now()`) made tickets and seals that their own `verify` refused as malformed. Refuses one it could not verify.
   */
  function expiry(ttl: number, what: string): number {
    const exp = Math.floor(now()) + ttl;
    if (!(exp > 0 && Number.isSafeInteger(exp))) throw new RangeError(`${what}: now() + ttlMs is no time in epoch ms: ${exp}`);
    return exp;
  }

  /**
   * The UTF-8 of a text a MAC covers. A short one (most) is written into one reused buffer instead of a new one each
   * time (`TextEncoder.encode` allocates outside the heap, ~0.5 µs a seal): the JavaScript HMAC reads it at once, in the
   * same call, before anything else can write the buffer. Longer texts (WebCrypto, which reads after an await) get
   * their own bytes, and so does every text when the JavaScript HMAC failed its self-test.
   */
  const scratch = new Uint8Array(SMALL_MESSAGE_BYTES);
  function bytesOf(text: string): Uint8Array {
    if (text.length <= SMALL_MESSAGE_BYTES) {
      const { read, written } = encoder.encodeInto(text, scratch);
      const bytes = scratch.subarray(0, written);
      // The key's own test of where it hashes, so the buffer is shared only with a MAC that reads it at once.
      if (read === text.length && inJavaScript(bytes)) return bytes;
    }
    return encoder.encode(text);
  }

  /** The base64url HMAC of `text` under the signing key. */
  async function mac(text: string): Promise<string> {
    return encodeBase64Url(await keys.get(signingKid)!.sign(bytesOf(text)));
  }

  /**
   * Why the MAC of a ticket or seal does not check out (`undefined`: authentic). `signed` gives the bytes it
   * must cover, or `undefined` when the expected subject cannot have been signed (no JSON form).
   */
  async function macProblem(parts: TokenParts, signed: () => string | undefined): Promise<'malformed' | 'unknown-key' | 'bad-signature' | undefined> {
    const signature = decodeBase64Url(parts.signature);
    if (signature === undefined) return 'malformed';
    const key = keys.get(parts.kid);
    if (key === undefined) return 'unknown-key';
    const text = signed();
    if (text === undefined) return 'bad-signature';
    return (await key.verify(bytesOf(text), signature)) ? undefined : 'bad-signature';
  }

  /** A ticket's claims once its shape, key id and signature hold (the payload is parsed only once authentic), else `fail`'s error. */
  async function authenticClaims(ticket: string, fail: (reason: TicketError['reason']) => TicketError): Promise<TicketClaims> {
    const parts = splitToken(ticket, PREFIX, SEGMENT);
    if (parts === undefined) throw fail('malformed');
    const problem = await macProblem(parts, () => parts.signed);
    if (problem !== undefined) throw fail(problem);
    const claims = decodeClaims(parts.middle);
    if (claims === undefined || claims.kid !== parts.kid) throw fail('malformed');
    return claims;
  }

  async function verify(
    ticket: string | undefined | null,
    expected: TicketSubject,
    verifyOptions: TicketVerifyOptions = {},
  ): Promise<TicketClaims> {
    const fail = (reason: TicketError['reason'], field?: TicketMismatchField, sameDecision?: boolean): TicketError =>
      new TicketError(reason, { field, toolName: expected.toolName, callId: expected.callId, sameDecision });

    // 1. shape
    if (ticket === undefined || ticket === null || ticket === '') throw fail('missing');
    // 2. key id, 3. signature
    const claims = await authenticClaims(ticket, fail);
    const originOnly = verifyOptions.origin === true;
    // 4. expiry
    if (!originOnly && now() >= claims.exp) throw fail('expired');
    // 5. subject
    if (claims.purpose !== expected.purpose) throw fail('mismatch', 'purpose');
    if (claims.tool !== expected.toolName) throw fail('mismatch', 'toolName');
    if (claims.callId !== expected.callId) throw fail('mismatch', 'callId');
    if (claims.conv !== expected.conversationId) throw fail('mismatch', 'conversationId');
    let argsHash: string;
    try {
      argsHash = await hashArguments(expected.args);
    } catch {
      throw fail('mismatch', 'args'); // arguments with no JSON form cannot be what was signed
    }
    if (claims.argsHash !== argsHash) throw fail('mismatch', 'args');
    // 6. nonce, last: a refused attempt never burns a good ticket
    if (originOnly) return claims;
    const { decision } = verifyOptions;
    // true: claimed now (or unused, when only checking); otherwise false, or the decision the first use kept (null: none).
    const claimed: boolean | string | null = !(verifyOptions.consume ?? true)
      ? !((await nonceStore.has?.(claims.nonce)) ?? false)
      : decision !== undefined && nonceStore.claimDecision !== undefined
        ? await nonceStore.claimDecision(claims.nonce, claims.exp, decision)
        : await nonceStore.claim(claims.nonce, claims.exp);
    if (claimed !== true) throw fail(typeof claimed === 'string' && claimed !== decision ? 'conflict' : 'replayed', undefined, claimed === decision);
    return claims;
  }

  return {
    async sign(subject, signOptions = {}) {
      const ttl = signOptions.ttlMs ?? defaultTtl;
      checkTtl(ttl, 'sign: ttlMs');
      checkSubject(subject);
      const claims: TicketClaims = {
        v: 1,
        purpose: subject.purpose,
        tool: subject.toolName,
        callId: subject.callId,
        argsHash: await hashArguments(subject.args),
        conv: subject.conversationId,
        exp: expiry(ttl, 'sign'),
        nonce: encodeBase64Url(crypto.getRandomValues(new Uint8Array(16))),
        kid: signingKid,
      };
      const signed = `${PREFIX}.${signingKid}.${encodeBase64Url(encoder.encode(JSON.stringify(claims)))}`;
      return `${signed}.${await mac(signed)}`;
    },
    verify,
    async safeVerify(ticket, expected, verifyOptions) {
      try {
        return { ok: true, claims: await verify(ticket, expected, verifyOptions) };
      } catch (error) {
        if (TicketError.isInstance(error)) return { ok: false, error };
        throw error;
      }
    },
    async seal(subject, signOptions = {}) {
      const ttl = signOptions.ttlMs ?? defaultTtl;
      checkTtl(ttl, 'seal: ttlMs');
      checkSubject(subject, 'seal');
      const head = `${SEAL_PREFIX}.${signingKid}.${expiry(ttl, 'seal')}`;
      return `${head}.${await mac(sealedText(head, subject))}`;
    },
    async verifySeal(seal, subject) {
      const fail = (reason: TicketError['reason']): TicketError => new TicketError(reason, { toolName: subject.toolName, callId: subject.callId });
      if (seal === undefined || seal === null || seal === '') throw fail('missing');
      const parts = splitToken(seal, SEAL_PREFIX, EXPIRY);
      if (parts === undefined) throw fail('malformed');
      const problem = await macProblem(parts, () => {
        try {
          return sealedText(parts.signed, subject);
        } catch {
          return undefined; // content with no JSON form cannot be what was sealed
        }
      });
      if (problem !== undefined) throw fail(problem);
      if (now() >= Number(parts.middle)) throw fail('expired');
    },
    async claimMark(ticket, mark) {
      if (!MARK.test(mark)) throw new TypeError(`claimMark: a mark is a lowercase word (${MARK}), not ${JSON.stringify(mark)}`);
      const claims = await authenticClaims(ticket, (reason) => new TicketError(reason));
      // An expired ticket is refused whatever its marks say, and a store need not keep a claim that has expired.
      if (now() >= claims.exp) throw new TicketError('expired');
      // A nonce is base64url: with a space and the mark it is a key no ticket's nonce can be.
      return nonceStore.claim(`${claims.nonce} ${mark}`, claims.exp);
    },
    peek: peekTicket,
  };
}

/**
 * Decodes a ticket's claims WITHOUT checking its signature, for UIs (when does this approval expire?) and debugging:
 * no key is needed, so never trust the result. `undefined` for anything that is not a ticket.
 */
export function peekTicket(ticket: string | undefined | null): TicketClaims | undefined {
  if (typeof ticket !== 'string') return undefined;
  const parts = splitToken(ticket, PREFIX, SEGMENT);
  if (parts === undefined) return undefined;
  const claims = decodeClaims(parts.middle);
  return claims?.kid === parts.kid ? claims : undefined;
}

/** A ticket `et1.<kid>.<claims>.<mac>` or a seal `es1.<kid>.<expiry>.<mac>`, split. */
interface TokenParts {
  readonly kid: string;
  /** The claims payload of a ticket, the expiry of a seal. */
  readonly middle: string;
  readonly signature: string;
  /** `<prefix>.<kid>.<middle>`: what the signature covers (a seal's MAC adds its subject). */
  readonly signed: string;
}

function splitToken(token: unknown, expectedPrefix: string, middlePattern: RegExp): TokenParts | undefined {
  if (typeof token !== 'string' || token.length > MAX_TICKET_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4) return undefined;
  const [prefix, kid, middle, signature] = parts as [string, string, string, string];
  if (prefix !== expectedPrefix || !KEY_ID.test(kid) || !middlePattern.test(middle) || signature.length !== SIGNATURE_LENGTH) return undefined;
  return { kid, middle, signature, signed: `${prefix}.${kid}.${middle}` };
}

function decodeClaims(payload: string): TicketClaims | undefined {
  const bytes = decodeBase64Url(payload);
  if (bytes === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const c = data as Record<string, unknown>;
  const valid =
    c.v === 1 &&
    PURPOSES.includes(c.purpose as TicketPurpose) &&
    typeof c.tool === 'string' &&
    typeof c.callId === 'string' &&
    typeof c.argsHash === 'string' &&
    c.argsHash.length === HASH_LENGTH &&
    typeof c.conv === 'string' &&
    Number.isSafeInteger(c.exp) &&
    typeof c.nonce === 'string' &&
    c.nonce.length === NONCE_LENGTH &&
    typeof c.kid === 'string';
  if (!valid) return undefined;
  return {
    v: 1,
    purpose: c.purpose as TicketPurpose,
    tool: c.tool as string,
    callId: c.callId as string,
    argsHash: c.argsHash as string,
    conv: c.conv as string,
    exp: c.exp as number,
    nonce: c.nonce as string,
    kid: c.kid as string,
  };
}

function readKeys(keys: readonly TicketKey[]): Map<string, Uint8Array<ArrayBuffer>> {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new TypeError('createTicketSigner: `keys` must list at least one key (the first one signs)');
  }
  const secrets = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const [index, key] of keys.entries()) {
    const id: unknown = key?.id;
    if (typeof id !== 'string' || !KEY_ID.test(id)) {
      throw new TypeError(`createTicketSigner: keys[${index}].id must be 1-64 characters of A-Z, a-z, 0-9, "_" or "-"`);
    }
    if (secrets.has(id)) throw new TypeError(`createTicketSigner: key id "${id}" is listed twice`);
    const { secret } = key;
    // Copied, so a caller mutating its array later cannot change the key.
    const bytes =
      typeof secret === 'string' ? new Uint8Array(new TextEncoder().encode(secret)) : secret instanceof Uint8Array ? new Uint8Array(secret) : undefined;
    if (bytes === undefined) throw new TypeError(`createTicketSigner: the secret of key "${id}" must be a string or a Uint8Array`);
    if (bytes.byteLength < MIN_TICKET_SECRET_BYTES) {
      throw new RangeError(
        `createTicketSigner: the secret of key "${id}" is ${bytes.byteLength} bytes; at least ${MIN_TICKET_SECRET_BYTES} are required`,
      );
    }
    secrets.set(id, bytes);
  }
  return secrets;
}

function checkTtl(ttl: number, what: string): void {
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new RangeError(`${what} must be a positive integer number of milliseconds`);
}

function checkSubject(subject: TicketSubject | SealSubject, what = 'sign'): void {
  if ('purpose' in subject && !PURPOSES.includes(subject.purpose)) throw new TypeError(`sign: purpose must be one of ${PURPOSES.join(', ')}`);
  for (const field of ['toolName', 'callId', 'conversationId'] as const) {
    if (typeof subject[field] !== 'string' || subject[field] === '') throw new TypeError(`${what}: ${field} must be a non-empty string`);
  }
}

/** The bytes a seal's MAC covers: its head, then the subject as canonical JSON (an array: no key names to spend). */
function sealedText(head: string, subject: SealSubject): string {
  return `${head}.${canonicalJson([subject.conversationId, subject.toolName, subject.callId, subject.content])}`;
}
