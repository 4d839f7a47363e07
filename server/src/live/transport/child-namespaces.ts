import type { Server } from 'socket.io';
import type { TransportLog } from './live-transport';

// socket.io drops a child of a pattern namespace when its last socket leaves
// (`cleanupEmptyChildNamespaces`), but a child made with `io.of(name)` for the driver's broadcasts
// on a process without players never had one: a long-running process would keep one per game it
// drove, each with its adapter's Redis subscriptions. Dropping it is what socket.io does for an
// emptied child (parent-namespace.js), on the fields it keeps private.

interface ServerInternals {
  _nsps: Map<string, ChildInternals>;
}

interface ChildInternals {
  sockets: Map<string, unknown>;
  /** Sockets still in the namespace's middleware. */
  _preConnectSockets: Map<string, unknown>;
  adapter: { close(): Promise<void> | void };
}

interface ParentInternals {
  children: Set<unknown>;
  _preConnectSockets: Map<string, unknown>;
}

/** Drops idle children of one pattern namespace. */
export interface ChildNamespaces {
  /**
   * Drops child `name` unless someone is in it or still connecting to it (they would be left in a
   * namespace nobody broadcasts to) or `free()` says no. Whether it was dropped.
   */
  drop(name: string, free: () => boolean): Promise<boolean>;
}

/**
 * The children of `parent` (a pattern namespace of `io`). Checked here, at registration: when the
 * private fields are not what this expects, children are left to socket.io (and that is logged).
 */
export function childNamespaces(io: Server, parent: { name: string }, log: TransportLog): ChildNamespaces {
  const server = io as unknown as ServerInternals;
  const family = parent as unknown as ParentInternals;
  const usable =
    server._nsps instanceof Map && family.children instanceof Set && family._preConnectSockets instanceof Map;
  if (!usable)
    log.warn('live transport: namespaces made for broadcasts are kept (socket.io internals changed)');
  return {
    async drop(name, free) {
      if (!usable) return false;
      const nsp = server._nsps.get(name);
      if (!nsp || nsp.sockets.size > 0 || nsp._preConnectSockets.size > 0 || !free()) return false;
      server._nsps.delete(name);
      family.children.delete(nsp);
      await nsp.adapter.close();
      return true;
    },
  };
}
