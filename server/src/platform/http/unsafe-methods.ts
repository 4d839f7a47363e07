/** The methods that change something: each carries a CSRF token and the account its tab shows. */
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
