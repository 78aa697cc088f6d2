/** One request with node's fetch (undici, keep-alive); the body is read in full before returning. */
export async function send(
  url: string,
  options: { method: string; auth?: string; body?: string; expect?: number },
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (options.auth) headers.authorization = options.auth;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method: options.method, headers, body: options.body });
  const text = await res.text();
  if (options.expect !== undefined && res.status !== options.expect) {
    throw new Error(`${options.method} ${url}: expected ${options.expect}, got ${res.status} ${text.slice(0, 300)}`);
  }
  return { status: res.status, text };
}
