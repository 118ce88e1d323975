import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { setDbHandle } from "@/lib/server/db";
import { call } from "../helpers/http";
import * as list from "@/app/api/capabilities/route";

// A TCP server that accepts connections and never says a word: the worst kind of dead database.
const sockets = new Set<net.Socket>();
const silent = net.createServer((socket) => void sockets.add(socket));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});

describe("when the database cannot be reached", () => {
  it("answers 503 unavailable with Retry-After when the server refuses connections", async () => {
    const h = await openDb({ url: "postgres://postgres@127.0.0.1:1/capdex", migrate: false });
    setDbHandle(h);
    const res = await call(list.GET, "/api/capabilities");
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
    expect(res.headers.get("retry-after")).toBe("5");
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    await h.close();
  });

  it("gives up on a server that never answers within 5 seconds", async () => {
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const { port } = silent.address() as net.AddressInfo;
    const h = await openDb({ url: `postgres://postgres@127.0.0.1:${port}/capdex`, migrate: false });
    setDbHandle(h);
    const started = Date.now();
    const res = await call(list.GET, "/api/capabilities");
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
    expect(elapsed).toBeLessThan(5_000);
    await h.close().catch(() => {});
  });
});
