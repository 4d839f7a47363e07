import type { Socket } from 'socket.io';

/**
 * Sockets one connection may hold or be opening at once, over every namespace. A page multiplexes
 * /data and the game it shows over its one connection; moving to another game closes the old
 * namespace first. socket.io itself lets a client send connect packets without end, each a new
 * socket that gets every broadcast of its namespace, and each connect to a game looks the session
 * up: a reviewer's 30,000 from one connection held every HTTP call for 10 s, and 18,000 sockets in
 * one game had each question sent to one player 18,000 times.
 */
export const SOCKETS_PER_CONNECTION_MAX = 4;

export const TOO_MANY_SOCKETS = 'Too many connections from this page';

/** Sockets held or opening, per engine.io connection (a weak key: a closed connection takes its count along). */
const held = new WeakMap<object, number>();

type Next = (refusal?: Error) => void;

/** Counts a socket in on its connection; past the limit the whole connection is closed (no page of ours gets there). */
function admit(socket: Socket): boolean {
  const n = held.get(socket.conn) ?? 0;
  if (n >= SOCKETS_PER_CONNECTION_MAX) {
    socket.conn.close();
    return false;
  }
  held.set(socket.conn, n + 1);
  return true;
}

/**
 * A namespace's middleware, counted: the socket is counted in on its connection before `middleware`
 * runs (refused past the limit), and out again when `middleware` refuses it (a refused socket never
 * disconnects). A namespace counts its connected sockets out with `releaseSocket` as they disconnect.
 */
export function countedSockets<S extends Socket>(middleware: (socket: S, next: Next) => unknown) {
  return (socket: S, next: Next) => {
    if (!admit(socket)) return next(new Error(TOO_MANY_SOCKETS));
    return middleware(socket, (refusal) => {
      if (refusal) releaseSocket(socket);
      next(refusal);
    });
  };
}

/** Counts a socket out as it disconnects. */
export function releaseSocket(socket: Socket): void {
  const n = held.get(socket.conn);
  if (n === undefined) return;
  if (n <= 1) held.delete(socket.conn);
  else held.set(socket.conn, n - 1);
}
