// The worker's metrics endpoint (it has no web server): GET /metrics on METRICS_PORT, bound to
// METRICS_HOST (default 127.0.0.1), with the same access rules as a server's GET /api/metrics.
import http from "node:http";
import type { DbHandle } from "@/lib/db/client";
import { metricsAccessProblem, renderMetrics } from "./exposition";

export function serveMetrics(handle: DbHandle, port: number, host = "127.0.0.1"): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("GET /metrics\n");
      return;
    }
    const forwarded = req.headers["x-forwarded-for"];
    const problem = metricsAccessProblem({
      authorization: req.headers.authorization ?? null,
      peer: req.socket.remoteAddress,
      forwardedFor: Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? null),
    });
    if (problem) {
      res.writeHead(problem.status, { "Content-Type": "application/problem+json", ...problem.headers });
      res.end(JSON.stringify({ title: problem.message, status: problem.status, code: problem.code }));
      return;
    }
    renderMetrics(handle).then(
      ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
