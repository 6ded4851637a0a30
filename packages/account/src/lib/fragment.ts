/**
 * The one-time token of a mailed link (`/verify-email#token=…`, `/invite#token=…`). It travels in the fragment,
 * which browsers never send to a server or in a Referer. `key` keeps it in session storage across the trip to the
 * sign-in page; the address bar loses it at once.
 */
export function takeLinkToken(key: string): string | null {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(key, fromHash);
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  return sessionStorage.getItem(key);
}
