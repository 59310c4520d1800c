/**
 * A browser in place of a person's: opens an authorization URL, follows the
 * authorization server's redirects (as a browser would) until it lands on the
 * client's loopback redirect, and reports the page it got there.
 */
export interface BrowserVisit {
  /** Every URL the browser visited, in order. */
  visited: string[];
  status: number;
  text: string;
}

export async function visitAuthorizationUrl(url: string, maxRedirects = 5): Promise<BrowserVisit> {
  const visited: string[] = [];
  let next = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    visited.push(next);
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      next = new URL(location, next).href;
      continue;
    }
    return { visited, status: response.status, text: await response.text() };
  }
  throw new Error(`more than ${maxRedirects} redirects from ${url}`);
}
