// The misbehaving peers of the chaos test, all real sockets on loopback: a DNS server that never
// answers (UDP and TCP), an HTTP target that trickles one byte a second, and a Redis of its own
// (Debian's redis-server) to pause with SIGSTOP.
import { execSync, spawn, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import net from "node:net";
import { sleep, waitFor } from "../fleet/cluster";

export type Closable = { close: () => Promise<void> };

/** Takes every DNS query, over UDP and TCP, and answers none. */
export async function silentDns(port: number): Promise<Closable & { queries: () => number }> {
  let queries = 0;
  const udp = dgram.createSocket("udp4");
  udp.on("message", () => queries++);
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", resolve));
  const held: net.Socket[] = [];
  const tcp = net.createServer((s) => {
    queries++;
    held.push(s);
    s.on("error", () => {});
  });
  await new Promise<void>((resolve) => tcp.listen(port, "127.0.0.1", resolve));
  return {
    queries: () => queries,
    close: async () => {
      udp.close();
      held.forEach((s) => s.destroy());
      await new Promise((r) => tcp.close(r));
    },
  };
}

/** An HTTP server that sends its answer one byte a second, for ever; records how long each client stayed. */
export async function tricklingTarget(port: number): Promise<Closable & { stays: number[] }> {
  const stays: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    const t0 = Date.now();
    sockets.add(s);
    const answer = Buffer.from("HTTP/1.1 402 Payment Required\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n" + "x".repeat(100000));
    let i = 0;
    const tick = setInterval(() => {
      if (!s.destroyed) s.write(answer.subarray(i, ++i));
    }, 1_000);
    // The stay ends when the caller hangs up: its FIN ('end', seen only while the socket is read, so
    // the request is read and dropped) or its RST ('error'), else when the socket closes.
    let ended = false;
    const gone = () => {
      if (ended) return;
      ended = true;
      clearInterval(tick);
      stays.push(Date.now() - t0);
    };
    s.resume();
    s.on("end", gone);
    s.on("error", gone);
    s.on("close", () => {
      gone();
      sockets.delete(s);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    stays,
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}

/** Debian's redis-server on a loopback port, without persistence; null when it is not installed. */
export async function startRedis(port: number): Promise<(Closable & { child: ChildProcess }) | null> {
  try {
    execSync("command -v redis-server", { stdio: "ignore" });
  } catch {
    return null;
  }
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await waitFor("redis-server", () => pingRedis(port), 10_000);
  return {
    child,
    close: async () => {
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      await sleep(100);
    },
  };
}

function pingRedis(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => s.write("PING\r\n"));
    s.setTimeout(500, () => (s.destroy(), resolve(false)));
    s.on("data", (d) => (s.destroy(), resolve(String(d).startsWith("+PONG"))));
    s.on("error", () => resolve(false));
  });
}
