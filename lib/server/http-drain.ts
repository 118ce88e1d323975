// Draining the HTTP server of `next start` at shutdown. Next hands its http.Server to no user code,
// so the server is picked up from the first request through Node's documented diagnostics channel
// (`http.server.request.start` carries it); the subscription ends there, so requests pay nothing.
// While draining, the same channel marks every new response `Connection: close`, so a balancer's
// pooled connections end after their answer instead of sending more requests on them.
import type http from "node:http";
import dc from "node:diagnostics_channel";

type RequestStart = { server: http.Server; response: http.ServerResponse };
type DrainState = { server?: http.Server; draining: boolean; watching: boolean };

const state = ((globalThis as unknown as { __capdexDrain?: DrainState }).__capdexDrain ??= { draining: false, watching: false });
const channel = dc.channel("http.server.request.start");

function pickUpServer(message: unknown) {
  state.server ??= (message as RequestStart).server;
  if (!state.draining) {
    channel.unsubscribe(pickUpServer);
    state.watching = false;
  }
}

function closeAfterAnswer(message: unknown) {
  const m = message as RequestStart;
  state.server ??= m.server;
  m.response.shouldKeepAlive = false;
}

/** Starts watching for the server (once per process, at start-up). */
export function watchHttpServer(): void {
  if (state.watching || state.server) return;
  state.watching = true;
  channel.subscribe(pickUpServer);
}

/** True once shutdown has begun: /api/health and /api/ready answer 503 so balancers stop sending requests here. */
export function isDraining(): boolean {
  return state.draining;
}

/** From now on every answer closes its connection. */
export function startDraining(): void {
  if (state.draining) return;
  state.draining = true;
  if (state.watching) channel.unsubscribe(pickUpServer);
  state.watching = false;
  channel.subscribe(closeAfterAnswer);
}

/**
 * Stops accepting connections and resolves when every request in flight has been answered and its
 * connection closed. Idle keep-alive connections are closed at once and then every 100 ms: one whose
 * last answer began before draining (so it said keep-alive) turns idle after it, and would otherwise
 * hold the close for the keep-alive timeout.
 */
export function closeHttpServer(): Promise<{ closed: boolean }> {
  const server = state.server;
  if (!server?.listening) return Promise.resolve({ closed: false });
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweep);
      resolve({ closed: true });
    });
  });
}
