import type { GameClientToServer, GameServerToClient } from '@hunch/contract';
import WebSocket from 'ws';

// A simulated player of the live benchmark speaking socket.io's wire protocol (Engine.IO v4,
// Socket.IO v5) straight over `ws`, the same client library the bare-ws baseline uses. Both arms
// then pay the same per-message cost on the client side, so the ratio compares the servers, not
// socket.io-client's heavier parsing of 10,000 sockets in one process. (The protocol tests, the
// demo bots and the web app use socket.io-client itself.) Only what the benchmark needs: one
// namespace, text packets, events with acknowledgements, heartbeats.

type Handler = (...args: unknown[]) => void;

export interface ProtocolClientOptions {
  /** http://host:port of the server. */
  url: string;
  /** Namespace, e.g. /game/{uuid}. */
  nsp: string;
  cookie: string;
  timeoutMs: number;
}

export class ProtocolClient {
  private ws: WebSocket;
  private handlers = new Map<string, Handler>();
  private acks = new Map<number, { done: Handler; timer: NodeJS.Timeout }>();
  private nextAck = 0;
  private readonly prefix: string;
  private connected = false;
  onConnect: () => void = () => {};
  onConnectError: (message: string) => void = () => {};
  onDisconnect: (reason: string) => void = () => {};

  constructor(private readonly opts: ProtocolClientOptions) {
    this.prefix = `${opts.nsp},`;
    const ws = new WebSocket(`${opts.url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
      handshakeTimeout: opts.timeoutMs,
      headers: { cookie: opts.cookie },
    });
    this.ws = ws;
    ws.on('message', (data) => this.packet(data.toString()));
    ws.on('error', (err) => {
      if (!this.connected) this.onConnectError(err.message);
    });
    ws.on('close', () => {
      if (this.connected) this.onDisconnect('transport close');
    });
  }

  /** Listens for a server event; the handler's last argument is the ack callback when one is asked. */
  on<E extends keyof GameServerToClient>(event: E, handler: Handler): void {
    this.handlers.set(event, handler);
  }

  /** Emits an event and calls `done(err, ...reply)` with the acknowledgement or a timeout error. */
  emitWithAck<E extends keyof GameClientToServer>(
    event: E,
    payload: unknown,
    done: Handler,
    timeoutMs = this.opts.timeoutMs,
  ): void {
    const id = this.nextAck++;
    const timer = setTimeout(() => {
      this.acks.delete(id);
      done(new Error('operation has timed out'));
    }, timeoutMs);
    this.acks.set(id, { done, timer });
    const args = payload === undefined ? [event] : [event, payload];
    this.ws.send(`42${this.prefix}${id}${JSON.stringify(args)}`);
  }

  close(): void {
    this.ws.terminate();
  }

  private packet(text: string): void {
    const engineType = text[0];
    if (engineType === '0') this.ws.send(`40${this.prefix}`);
    else if (engineType === '2') this.ws.send('3');
    else if (engineType === '4') this.message(text.slice(1));
  }

  /** A Socket.IO packet: type digit, "/nsp," then an optional ack id and JSON data. */
  private message(text: string): void {
    const type = text[0];
    let rest = text.slice(1);
    if (!rest.startsWith(this.prefix)) return;
    rest = rest.slice(this.prefix.length);
    const json = rest.search(/[[{]/);
    const id = json > 0 ? Number(rest.slice(0, json)) : undefined;
    const data: unknown = json >= 0 ? JSON.parse(rest.slice(json)) : undefined;
    if (type === '0') {
      this.connected = true;
      this.onConnect();
    } else if (type === '4') this.onConnectError((data as { message?: string })?.message ?? 'refused');
    else if (type === '1') this.onDisconnect('io server disconnect');
    else if (type === '2') {
      const [event, ...args] = data as [string, ...unknown[]];
      if (id !== undefined)
        args.push((...reply: unknown[]) => this.ws.send(`43${this.prefix}${id}${JSON.stringify(reply)}`));
      this.handlers.get(event)?.(...args);
    } else if (type === '3' && id !== undefined) {
      const pending = this.acks.get(id);
      if (!pending) return;
      this.acks.delete(id);
      clearTimeout(pending.timer);
      pending.done(null, ...(data as unknown[]));
    }
  }
}
