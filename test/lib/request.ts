// The request side shared by the e2e `call` helper and the http project: a JSON body and a bearer
// token in, the parsed body out, checked against the route's documented schema.
import { checkResponse } from "./response-schemas.ts";

export interface RequestOptions<Raw> {
  token?: string;
  body?: unknown;
  raw?: Raw;
  headers?: Record<string, string>;
}

/** Headers and body of a request: `body` is sent as JSON, `raw` as it is. */
export function requestInit<Raw>(opts: RequestOptions<Raw>): { headers: Record<string, string>; body: Raw | string | undefined } {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body === undefined) return { headers, body: opts.raw };
  headers["Content-Type"] ??= "application/json";
  return { headers, body: JSON.stringify(opts.body) };
}

/** Reads a response (JSON parsed when it is JSON, else the text) and checks it with checkResponse. */
export async function readChecked(method: string, url: string, res: Response): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  checkResponse(method, url, res.status, res.headers.get("content-type"), body);
  return { status: res.status, body, text, headers: res.headers };
}
