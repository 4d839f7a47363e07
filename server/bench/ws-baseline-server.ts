import { performance } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';
import type { FromBaselineServer, ToBaselineServer } from './live-messages';

// The baseline of the live benchmark: a bare `ws` server in a process of its own, broadcasting the
// hunch game's question events to every client on the parent's command, as plain JSON. Each carries
// the time its broadcast began as asked_at, so the players handle and measure it exactly as they do
// a hunch question (the same parse, the same answer): what differs is the server.

const send = (m: FromBaselineServer) => process.send?.(m);
process.on('disconnect', () => process.exit(0));

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, backlog: 4096 });

// Every client message is answered at once, like an acknowledged answer (the baseline for acks).
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { echo: number };
    ws.send(JSON.stringify({ echo: m.echo, ok: true }));
  });
});

wss.on('listening', () => {
  const address = wss.address();
  if (typeof address === 'object' && address) send({ type: 'listening', port: address.port });
});

process.on('message', (m: ToBaselineServer) => {
  if (m.cmd === 'broadcast') {
    const t0 = performance.now();
    const text = JSON.stringify({ ...m.question, asked_at: Date.now(), i: m.seq });
    // Like socket.io's broadcast: encode once, write the same frame to every socket.
    for (const client of wss.clients) client.send(text);
    send({ type: 'sent', seq: m.seq, clients: wss.clients.size, loopMs: performance.now() - t0 });
  } else if (m.cmd === 'metrics') {
    global.gc?.();
    const mem = process.memoryUsage();
    send({ type: 'metrics', heapUsed: mem.heapUsed, rss: mem.rss, clients: wss.clients.size });
  }
});
