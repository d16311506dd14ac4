/**
 * A browser's HTTP side for redirect flows (OAuth): `fetch` without following redirects, a cookie
 * jar that stores `Set-Cookie` by host and path (Max-Age=0 deletes), and a `navigate` that follows
 * 302s across servers, as a browser's address bar would, until it reaches a page outside the
 * servers under test (the web app, which no test serves).
 */
interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

export interface Hop {
  url: string;
  status: number;
  location?: string;
}

export class BrowserJar {
  private cookies: StoredCookie[] = [];

  /** The value of a cookie the jar holds for `url`'s host, or undefined. */
  cookie(url: string, name: string): string | undefined {
    return this.matching(url).find((c) => c.name === name)?.value;
  }

  /** The `Cookie` header the browser sends to `url`. */
  cookieHeader(url: string): string {
    return this.matching(url)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** One request with the jar's cookies; stores what the answer sets. */
  async fetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    const cookie = this.cookieHeader(url);
    if (cookie) headers.Cookie = cookie;
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.store(url, line);
    return res;
  }

  /**
   * GET `url` and follow every redirect while `inside(next)` holds; returns the hops and the first
   * URL outside (where the browser would now load the web app), or undefined if the chain ended inside.
   */
  async navigate(url: string, inside: (next: string) => boolean): Promise<{ hops: Hop[]; landed?: string }> {
    const hops: Hop[] = [];
    let current = url;
    for (let i = 0; i < 10; i++) {
      const res = await this.fetch(current);
      const location = res.headers.get('location') ?? undefined;
      hops.push({ url: current, status: res.status, location });
      await res.arrayBuffer();
      if (res.status < 300 || res.status >= 400 || !location) return { hops };
      const next = new URL(location, current).toString();
      if (!inside(next)) return { hops, landed: next };
      current = next;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  private matching(url: string): StoredCookie[] {
    const { host, pathname } = new URL(url);
    return this.cookies.filter(
      (c) => c.host === host && (pathname === c.path || pathname.startsWith(withSlash(c.path))),
    );
  }

  private store(url: string, line: string): void {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let path = '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key, raw = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = raw || '/';
      if (key.toLowerCase() === 'max-age' && Number(raw) <= 0) expired = true;
    }
    const host = new URL(url).host;
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === host && c.path === path));
    if (!expired) this.cookies.push({ name, value, host, path });
  }
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}
