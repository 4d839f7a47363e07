/** Node flags for the server process given the CPUs it may run on (see server-node-flags.mjs). */
export function serverNodeFlags(cpus?: number): string[];
/** Environment variables (glibc malloc settings: mmap threshold, arenas) for the server process, unless `env` has them. */
export function serverEnv(env?: NodeJS.ProcessEnv): Record<string, string>;
