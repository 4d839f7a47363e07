/** Where `buildServer` writes the bundle: server/dist/main.mjs. */
export const serverBundle: string;
/** Bundles the server (see build-server.mjs); resolves to the bundle's path. */
export function buildServer(): Promise<string>;
