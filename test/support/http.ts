/* eslint-disable @typescript-eslint/no-explicit-any */
export interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Send this string as the body verbatim (e.g. malformed JSON). */
  raw?: string;
}

/** A tiny HTTP client over fetch: e2e tests talk to the app through a real socket. */
export class Api {
  constructor(readonly baseUrl: string) {}

  get(path: string, opts?: RequestOptions) {
    return this.request('GET', path, undefined, opts);
  }
  post(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('POST', path, body, opts);
  }
  put(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('PUT', path, body, opts);
  }
  patch(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('PATCH', path, body, opts);
  }
  delete(path: string, opts?: RequestOptions) {
    return this.request('DELETE', path, undefined, opts);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    opts: RequestOptions = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['x-access-token'] = opts.token;
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  }
}
