import { jsonError } from './router.ts';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Whether `hostname` (a URL's: lowercase, an IPv6 address in brackets) may be served. DNS rebinding needs a name the
 * attacker's DNS answers for, so an IP address (`127.0.0.1`, `[::1]`), `localhost` and any `*.localhost` name (which
 * resolvers answer themselves, RFC 6761) are always taken, any port; with `allowed` set (`ALLOWED_HOSTS`) only its
 * names besides (`*.example.com`: any name under it), otherwise any `*.workers.dev` name, whose DNS is Cloudflare's. A
 * name written fully qualified (`localhost.`, `shop.example.com.`) is the same name.
 */
export function isAllowedHost(hostname: string, allowed: string | undefined): boolean {
  const name = hostname.toLowerCase().replace(/(?<=.)\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || IPV4.test(name) || (name.startsWith('[') && name.endsWith(']'))) return true;
  const list = (allowed ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase().replace(/(?<=.)\.$/, ''))
    .filter((entry) => entry !== '');
  if (list.length === 0) return name.endsWith('.workers.dev');
  return list.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry));
}

/**
 * A 403 `forbidden-host` for a request whose Host the Worker does not serve (see {@link isAllowedHost}), else
 * `undefined`. Under `wrangler dev` a page whose domain re-resolves to 127.0.0.1 sends its own name as Host and Origin,
 * so the origin check alone lets it drive turns and approve its own writes against the local D1.
 */
export function refuseHost(request: Request, allowed: string | undefined): Response | undefined {
  // The URL's host is the Host header as the runtime read it; a Host header that says otherwise is checked too.
  const hosts = [new URL(request.url).hostname];
  const header = request.headers.get('host');
  if (header !== null) hosts.push(URL.canParse(`http://${header}`) ? new URL(`http://${header}`).hostname : header);
  const refused = hosts.find((host) => !isAllowedHost(host, allowed));
  if (refused === undefined) return undefined;
  return jsonError(403, 'forbidden-host', `Requests for the host ${JSON.stringify(refused.slice(0, 200))} are not served here: list it in ALLOWED_HOSTS.`);
}

/**
 * A 403 `forbidden-origin` for a request a page on another site sent (an `Origin` other than the request's own), else
 * `undefined`. `useChat` on this origin sends no `Origin` or this one; the chat and resume routes check it first.
 */
export function refuseOrigin(request: Request): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null || origin === new URL(request.url).origin) return undefined;
  return jsonError(403, 'forbidden-origin', `Requests from ${origin} are not allowed.`);
}
