import { ConfigurationError } from './router.ts';

/** The client of a request as the demo's rate limits know it when the header is missing (local dev, tests). */
export const LOCAL_CLIENT = 'local';

/** The header a client's address is read from unless `CLIENT_ADDRESS_HEADER` names another: Cloudflare's edge sets it. */
export const DEFAULT_CLIENT_ADDRESS_HEADER = 'cf-connecting-ip';

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/**
 * The header that holds the client's address: `CLIENT_ADDRESS_HEADER` (the one the proxy in front of the Worker sets and
 * overwrites: `X-Real-IP`, `Fly-Client-IP`, `X-Forwarded-For`), else `CF-Connecting-IP`. A value that is no header name
 * is a {@link ConfigurationError} (500 `not-configured`): read as none, every client would share one budget unnoticed.
 */
export function clientAddressHeader(env: { readonly CLIENT_ADDRESS_HEADER?: string | undefined }): string {
  const name = env.CLIENT_ADDRESS_HEADER?.trim() ?? '';
  if (name === '') return DEFAULT_CLIENT_ADDRESS_HEADER;
  if (!HEADER_NAME.test(name)) throw new ConfigurationError(`CLIENT_ADDRESS_HEADER must be a header name, such as X-Real-IP, not "${name}".`);
  return name.toLowerCase();
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEXTET = /^[0-9a-f]{1,4}$/;
/** An IPv4 address with a port, and an IPv6 address in brackets with or without one. */
const PORTED_IPV4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const PORTED_IPV6 = /^\[([0-9a-f:.]{2,45})\](?::\d{1,5})?$/;

/** The eight 16-bit groups of an IPv6 address (`::` and a trailing dotted IPv4 allowed), or `undefined`. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && IPV4.test(part)) {
        const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
        groups.push(a * 256 + b, c * 256 + d);
      } else if (HEXTET.test(part)) groups.push(Number.parseInt(part, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * Whose budget a request spends, from `header` (default `CF-Connecting-IP`, which Cloudflare's edge sets, so a client
 * cannot pick it; see {@link clientAddressHeader}): an IPv4 address as it is, an IPv6 address as its /64 (one
 * subscriber's network: a client there picks any address of it for free; an IPv4-mapped one as the IPv4 address), and
 * {@link LOCAL_CLIENT} without the header or with a value that is no address (`wrangler dev` and the tests may send
 * none); a port after the address (`ip:port`, `[ipv6]:port`) is left out. Of a list (`X-Forwarded-For: client,
 * proxy`) the last entry is read: the one the proxy in front of the Worker added; those before it are the client's to
 * write.
 */
export function clientAddress(request: Pick<Request, 'headers'>, header: string = DEFAULT_CLIENT_ADDRESS_HEADER): string {
  const list = request.headers.get(header) ?? '';
  const entry = list.slice(list.lastIndexOf(',') + 1).trim().toLowerCase();
  // With the client's port, as some proxies write it (Azure's `203.0.113.7:51234`, `[2001:db8::1]:51234`): read
  // as none, every such client shared the one local budget.
  const value = PORTED_IPV4.exec(entry)?.[1] ?? PORTED_IPV6.exec(entry)?.[1] ?? entry;
  if (IPV4.test(value)) return value;
  const groups = value.includes(':') ? ipv6Groups(value) : undefined;
  if (groups === undefined) return LOCAL_CLIENT;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
