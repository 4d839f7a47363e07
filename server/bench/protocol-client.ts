import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import { FrameClient, parseJsonOnce } from './frame-client';

// A simulated player of the live benchmark speaking socket.io's wire protocol (Engine.IO v4,
// Socket.IO v5) straight over the WebSocket client of the bare-ws baseline's players
// (frame-client.ts). Both arms then pay the same per-message cost on the client side, so the
// ratio compares the servers, not socket.io-client's heavier parsing of 10,000 sockets in one
// process. (The protocol tests, the demo bots and the web app use socket.io-client itself.) Only
// what the benchmark needs: one namespace, text packets, events with acknowledgements, heartbeats.

type Handler = (...args: unknown[]) => void;

/**
 * How long a player waits before it answers the server's ping (socket.io allows its pingTimeout,
 * 20 s). Linux puts a connection that replies within its delayed-ACK time of a receipt into
 * "pingpong" mode: its ACKs then wait for a timer instead of leaving when it reads. On loopback that
 * timer runs on the core of the sender, here the server's: after immediate pongs, the next question
 * cost the socket.io server thousands of delayed-ACK timers (TcpExt DelayedACKs ~7,300 in one
 * broadcast) that the baseline, which never pings, did not pay. A browser's timers run on its own
 * machine. 300 ms is past the longest delayed-ACK time (200 ms). See docs/decisions/012.
 */
export const PONG_DELAY_MS = 300;

/**
 * What every player of a process does with each server event, shared by all of them: the handler
 * gets the player first, and last the ack callback when one is asked.
 */
export type EventHandlers = {
  [E in keyof GameServerToClient]?: (client: ProtocolClient, ...args: unknown[]) => void;
};

export interface ProtocolClientOptions {
  /** http://host:port of the server. */
  url: string;
  /** Namespace, e.g. /game/{uuid}. */
  nsp: string;
  cookie: string;
  timeoutMs: number;
  events: EventHandlers;
}

export class ProtocolClient extends FrameClient {
  private readonly events: EventHandlers;
  private acks = new Map<number, { done: Handler; timer: NodeJS.Timeout }>();
  private nextAck = 0;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private connected = false;
  /** A refused connection reports once, though its transport may close after the refusal. */
  private refused = false;
  onConnect: () => void = () => {};
  onConnectError: (message: string) => void = () => {};
  onDisconnect: (reason: string) => void = () => {};

  constructor(opts: ProtocolClientOptions) {
    super({
      url: `${opts.url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`,
      timeoutMs: opts.timeoutMs,
      headers: { cookie: opts.cookie },
    });
    this.prefix = `${opts.nsp},`;
    this.events = opts.events;
    this.timeoutMs = opts.timeoutMs;
  }

  /** Emits an event and calls `done(err, ...reply)` with the acknowledgement or a timeout error. */
  emitWithAck<E extends keyof GameClientToServer>(
    event: E,
    payload: unknown,
    done: Handler,
    timeoutMs = this.timeoutMs,
  ): void {
    const id = this.nextAck++;
    const timer = setTimeout(() => {
      this.acks.delete(id);
      done(new Error('operation has timed out'));
    }, timeoutMs);
    this.acks.set(id, { done, timer });
    const args = payload === undefined ? [event] : [event, payload];
    this.sendText(`42${this.prefix}${id}${JSON.stringify(args)}`);
  }

  protected override closed(reason: string): void {
    if (this.connected) this.onDisconnect(reason);
    else this.connectError(reason);
  }

  private connectError(message: string): void {
    if (this.refused) return;
    this.refused = true;
    this.onConnectError(message);
  }

  protected override text(text: string): void {
    const engineType = text[0];
    if (engineType === '4') this.message(text);
    else if (engineType === '0') this.sendText(`40${this.prefix}`);
    else if (engineType === '2') setTimeout(() => this.sendText('3'), PONG_DELAY_MS);
  }

  /**
   * An Engine.IO message "4" holding a Socket.IO packet: type digit, "/nsp," then an optional ack
   * id and JSON data. Read by position, without copies, as it is read once per message received.
   */
  private message(text: string): void {
    const type = text[1];
    if (!text.startsWith(this.prefix, 2)) return;
    let at = 2 + this.prefix.length;
    let id: number | undefined;
    for (let c = text.charCodeAt(at); c >= 48 && c <= 57; c = text.charCodeAt(++at))
      id = (id ?? 0) * 10 + c - 48;
    const data = at < text.length ? parseJsonOnce(text, at) : undefined;
    if (type === '0') {
      this.connected = true;
      this.onConnect();
    } else if (type === '4') this.connectError((data as { message?: string })?.message ?? 'refused');
    else if (type === '1') this.onDisconnect('io server disconnect');
    else if (type === '2') {
      const [event, ...args] = data as [keyof GameServerToClient, ...unknown[]];
      if (id !== undefined)
        args.push((...reply: unknown[]) => this.sendText(`43${this.prefix}${id}${JSON.stringify(reply)}`));
      this.events[event]?.(this, ...args);
    } else if (type === '3' && id !== undefined) {
      const pending = this.acks.get(id);
      if (!pending) return;
      this.acks.delete(id);
      clearTimeout(pending.timer);
      pending.done(null, ...(data as unknown[]));
    }
  }
}
