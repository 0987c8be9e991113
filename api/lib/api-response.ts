// node's ServerResponse for the API's server (api/app.ts listen() passes it to node-server's serve):
// the request path's headers (secure headers, CSP, CORS, X-Request-Id, X-RateLimit-*; request-path.ts)
// are handed over as one flat list and written by writeHead beside the route's own, which win.
// setHeader() one by one, as before, validated each, lowercased its name, allocated a [name, value]
// pair and filled node's null-prototype (dictionary mode) header map, which writeHead then walked with
// for-in: per response the largest single cost of the request path left (issue 40, row B1; figures in
// docs/decisions.md "Writes at the floor: the shared request path (session 28)"). node still
// validates every header once, as it does for any list given to writeHead.
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined;

/** Adds a route's header to the list written and its lowercase name to `taken` (same index / 2). */
function routeHeader(flat: unknown[], taken: string[], name: string, value: string | number | readonly string[] | undefined): void {
  if (value === undefined) return;
  flat.push(name, value);
  taken.push(name.toLowerCase());
}

/** Whether `lowerNames` holds `name` (compared lowercase; lowercased only on a length match). */
function setBy(lowerNames: readonly string[], name: string): boolean {
  for (const t of lowerNames) if (t.length === name.length && t === name.toLowerCase()) return true;
  return false;
}

const NONE: readonly string[] = [];

export class ApiResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /**
   * Set by the request path: [name, value, name, value...] written by writeHead unless the route set the
   * name; `fixedHeaders` (the same constant list for every response, held by reference) first, then
   * `pathHeaders` (this request's own values).
   */
  fixedHeaders: readonly string[] = NONE;
  pathHeaders: string[] | undefined = undefined;

  override writeHead(statusCode: number, reason?: string | Head, headers?: Head): this {
    const extra = this.pathHeaders;
    if (extra === undefined) return super.writeHead(statusCode, reason as string, headers);
    const fixed = this.fixedHeaders;
    this.pathHeaders = undefined;
    this.fixedHeaders = NONE;
    let message: string | undefined;
    if (typeof reason === "string") message = reason;
    else headers = reason;
    // The route's own first, as given; the names it set (lowercase) to skip ours.
    const flat: (string | number | readonly string[])[] = [];
    const taken: string[] = [];
    if (Array.isArray(headers)) {
      if (Array.isArray(headers[0])) for (const [k, v] of headers as unknown as [string, string][]) routeHeader(flat, taken, k, v);
      else for (let i = 0; i < headers.length; i += 2) routeHeader(flat, taken, String(headers[i]), headers[i + 1] as string);
    } else if (headers) {
      for (const k in headers) if (Object.hasOwn(headers, k)) routeHeader(flat, taken, k, headers[k]);
    }
    const v = taken.indexOf("vary");
    const vary = v < 0 ? undefined : String(flat[2 * v + 1]);
    // Headers set with setHeader() (by anything else) are merged by node itself; the route's still win.
    const progressive = this.getHeaderNames().length > 0;
    this.#add(flat, taken, vary, progressive, fixed);
    this.#add(flat, taken, vary, progressive, extra);
    return message === undefined
      ? super.writeHead(statusCode, flat as OutgoingHttpHeader[])
      : super.writeHead(statusCode, message, flat as OutgoingHttpHeader[]);
  }

  /** Appends `list`'s headers to `flat` but those the route set (`taken`) or set with setHeader(). */
  #add(flat: unknown[], taken: readonly string[], vary: string | undefined, progressive: boolean, list: readonly string[]): void {
    for (let i = 0; i < list.length; i += 2) {
      const name = list[i]!;
      if (taken.length > 0 && setBy(taken, name)) {
        // A route's Vary is kept and ours added unless it names the same (as under app.request()).
        if (vary === undefined || name.length !== 4 || name.toLowerCase() !== "vary" || vary.includes(list[i + 1]!)) continue;
      }
      if (progressive && this.hasHeader(name)) continue;
      flat.push(name, list[i + 1]!);
    }
  }
}
