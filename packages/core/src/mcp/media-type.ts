/**
 * The media type of a `Content-Type` header: its type/subtype before any `;`, lowercased, blanks trimmed (`''` when
 * none). Compared whole, so `application/jsonx` is not JSON and `text/event-streamy` no event stream.
 */
export function mediaType(header: string | null | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/**
 * Whether an `Accept` header names `type` itself (not a prefix of another, not a wildcard) with a weight above 0:
 * `text/event-stream;q=0` refuses it.
 */
export function acceptsType(header: string | null | undefined, type: string): boolean {
  return (header ?? '').split(',').some((range) => {
    const [name, ...params] = range.split(';');
    return mediaType(name) === type && !params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/i.test(param));
  });
}
