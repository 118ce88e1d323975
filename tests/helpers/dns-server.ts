// A real DNS server on a loopback UDP port for tests (dns-packet encodes the wire format): set and
// remove TXT/A/AAAA records, or make names answer SERVFAIL, NXDOMAIN, REFUSED or nothing at all.
// Point the code under test at it with `process.env.DNS_SERVERS = server.address`.
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dnsPacket from "dns-packet";

/** A TXT record as one string, or as its separate character strings (each at most 255 bytes). */
export type TxtRecord = string | string[];
export type Misbehaviour = "servfail" | "nxdomain" | "refused" | "silent";
type RecordType = "TXT" | "A" | "AAAA";

export type DnsTestServer = {
  /** "127.0.0.1:<port>", the form DNS_SERVERS takes. */
  address: string;
  port: number;
  /** Replaces the TXT records of a name (names are case-insensitive, trailing dot optional). */
  setTxt(name: string, records: TxtRecord[]): void;
  addTxt(name: string, record: TxtRecord): void;
  setA(name: string, addresses: string[]): void;
  setAAAA(name: string, addresses: string[]): void;
  /** Removes every record of the name (it then answers NXDOMAIN), or only those of one type (NODATA). */
  remove(name: string, type?: RecordType): void;
  /** Makes a name (or, with "*", every name) misbehave; `null` restores normal answers. */
  misbehave(name: string, how: Misbehaviour | null): void;
  /** Every question received, in order. */
  queries: Array<{ name: string; type: string }>;
  /** How often a name was asked about (any type). */
  queryCount(name: string): number;
  /** Forgets every record, misbehaviour and logged query. */
  reset(): void;
  close(): Promise<void>;
};

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function norm(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/** Starts the server on 127.0.0.1 (a free port unless one is given). */
export async function startDnsServer(opts: { port?: number } = {}): Promise<DnsTestServer> {
  const zone = new Map<string, Map<RecordType, Array<string | string[]>>>();
  const misbehaving = new Map<string, Misbehaviour>();
  const queries: Array<{ name: string; type: string }> = [];
  const socket = dgram.createSocket("udp4");

  const records = (name: string) => {
    const key = norm(name);
    if (!zone.has(key)) zone.set(key, new Map());
    return zone.get(key)!;
  };

  socket.on("message", (msg, rinfo) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return; // not DNS: ignore, as a real server would
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = norm(question.name);
    queries.push({ name, type: question.type });
    const how = misbehaving.get(name) ?? misbehaving.get("*");
    if (how === "silent") return;
    let rcode: number = RCODE.NOERROR;
    const answers: dnsPacket.Answer[] = [];
    if (how) {
      rcode = how === "servfail" ? RCODE.SERVFAIL : how === "nxdomain" ? RCODE.NXDOMAIN : RCODE.REFUSED;
    } else if (!zone.has(name)) {
      rcode = RCODE.NXDOMAIN;
    } else {
      const type = question.type as RecordType;
      for (const data of zone.get(name)!.get(type) ?? []) {
        if (type === "TXT") answers.push({ type: "TXT", name: question.name, ttl: 1, data: Array.isArray(data) ? data : [data] });
        else answers.push({ type, name: question.name, ttl: 1, data: data as string });
      }
    }
    const reply = dnsPacket.encode({
      type: "response",
      id: query.id,
      // QR is set by type; AA | RD | RA, and the response code in the low four bits
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: query.questions,
      answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(opts.port ?? 0, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve();
    });
  });
  const port = (socket.address() as AddressInfo).port;

  return {
    address: `127.0.0.1:${port}`,
    port,
    setTxt: (name, list) => void records(name).set("TXT", [...list]),
    addTxt: (name, record) => {
      const r = records(name);
      r.set("TXT", [...(r.get("TXT") ?? []), record]);
    },
    setA: (name, addresses) => void records(name).set("A", [...addresses]),
    setAAAA: (name, addresses) => void records(name).set("AAAA", [...addresses]),
    remove: (name, type) => {
      if (type) zone.get(norm(name))?.delete(type);
      else zone.delete(norm(name));
    },
    misbehave: (name, how) => {
      const key = name === "*" ? "*" : norm(name);
      if (how) misbehaving.set(key, how);
      else misbehaving.delete(key);
    },
    queries,
    queryCount: (name) => queries.filter((q) => q.name === norm(name)).length,
    reset: () => {
      zone.clear();
      misbehaving.clear();
      queries.length = 0;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
