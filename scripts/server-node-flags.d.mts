/** Node flags for the server process given the CPUs it may run on (see server-node-flags.mjs). */
export function serverNodeFlags(cpus?: number): string[];
