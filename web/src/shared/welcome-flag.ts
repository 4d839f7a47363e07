/**
 * A new player's welcome (shown on /communities after sign-up) stays until they dismiss it, across
 * reloads, and only for the account that signed up in this browser. Storage may be unavailable
 * (private modes, a full quota): then there is simply no welcome.
 */
const key = (username: string) => `hunch:welcome:${username.toLowerCase()}`;

export function startWelcome(username: string): void {
  try {
    window.localStorage.setItem(key(username), '1');
  } catch {
    // No storage: no welcome.
  }
}

export function isWelcomePending(username: string): boolean {
  try {
    return window.localStorage.getItem(key(username)) === '1';
  } catch {
    return false;
  }
}

export function endWelcome(username: string): void {
  try {
    window.localStorage.removeItem(key(username));
  } catch {
    // Nothing stored, nothing to end.
  }
}
