export interface ApiRequest {
  method: 'GET' | 'PATCH' | 'PUT' | 'POST' | 'DELETE';
  /** Below the base URL, e.g. `/v1/demo/pages/2`. */
  path: string;
  body?: unknown;
}

// Shows the body and then the status on a line of its own, so a 204 is visible too.
const WRITE_OUT = '\\nHTTP %{http_code}\\n';

/** One line for a POSIX shell: `curl` with the bearer token, the JSON body if any, and the status printed last. */
export function curlCommand(baseUrl: string, token: string, request: ApiRequest): string {
  const args = ['curl', '-sS'];
  if (request.method !== 'GET') args.push('-X', request.method);
  args.push(`${baseUrl}${request.path}`, '-H', `Authorization: Bearer ${token}`);
  if (request.body !== undefined) {
    args.push('-H', 'Content-Type: application/json', '-d', JSON.stringify(request.body));
  }
  args.push('-w', WRITE_OUT);
  return args.map(shellQuote).join(' ');
}

/** The word itself when the shell reads it literally, else single-quoted (a `'` inside becomes `'\''`). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
