// Latency at a fixed offered rate, measured open-loop: request i is due at start + i / rate, sent
// then (over at most `connections` keep-alive sockets; more wait for a free one), and its latency is
// counted from when it was due, not from when a socket took it. So a stall shows as latency of every
// request it delayed, and nothing is sent in bursts.
//
// autocannon's own rate option is no good for this: each connection sends its quota for the second
// as fast as it can when the second begins, and then records a synthetic 1 ms-interval backlog
// for coordinated omission, so its p99 at 300 requests/s came out above the saturated p99.
import http from "node:http";

export type FixedRateRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };

export type FixedRateResult = { sent: number; p50: number; p99: number; max: number; non2xx: number; errors: number };

export async function runFixedRate(
  baseUrl: string,
  next: (i: number) => FixedRateRequest,
  opts: { rate: number; durationS: number; connections: number; onStatus?: (status: number) => void },
): Promise<FixedRateResult> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const total = Math.round(opts.rate * opts.durationS);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const start = performance.now() + 5;
  const done: Promise<void>[] = [];

  const send = (i: number) => {
    const due = start + (i * 1000) / opts.rate;
    const r = next(i);
    done.push(
      new Promise<void>((resolve) => {
        const req = http.request(
          { host: url.hostname, port: url.port, method: r.method, path: r.path, agent, headers: { ...r.headers, ...(r.body ? { "content-length": Buffer.byteLength(r.body) } : {}) } },
          (res) => {
            res.resume();
            res.on("end", () => {
              latencies.push(performance.now() - due);
              const status = res.statusCode ?? 0;
              if (status < 200 || status > 299) non2xx++;
              opts.onStatus?.(status);
              resolve();
            });
          },
        );
        req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
        req.on("error", () => {
          errors++;
          resolve();
        });
        req.end(r.body);
      }),
    );
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const dueCount = Math.min(total, Math.floor(((performance.now() - start) * opts.rate) / 1000) + 1);
      while (sent < dueCount) send(sent++);
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    setTimeout(tick, 5);
  });
  await Promise.all(done);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]) : 0);
  return { sent, p50: at(0.5), p99: at(0.99), max: at(1), non2xx, errors };
}
