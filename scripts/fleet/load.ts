// The fleet test's load: a steady mix of discover, report_outcome, capabilities, listing status and
// submissions from many anonymous callers (X-Forwarded-For from a pool of addresses, as an edge proxy
// in front of the balancer would send), each answer kept with the phase it was sent in.
export type Op = "discover" | "report_outcome" | "capabilities" | "capability" | "listing" | "submit" | "submission";

/** The operation names the instances count under (capdex_http_requests_total). */
export const OPERATION: Record<Op, string> = {
  discover: "POST /discover",
  report_outcome: "POST /report_outcome",
  capabilities: "GET /capabilities",
  capability: "GET /capabilities/{id}",
  listing: "GET /listing_status",
  submit: "POST /submit",
  submission: "GET /submit/{id}",
};

const EXPECTED: Record<Op, number> = { discover: 200, report_outcome: 202, capabilities: 200, capability: 200, listing: 200, submit: 202, submission: 200 };

export type Answer = { phase: string; op: Op; status: number | null; retryAfter: boolean; sentAt: number; doneAt: number; error?: string; detail?: string };

export type Fixtures = { capabilityIds: string[]; endpointIds: string[]; endpointUrls: string[] };

type Sent = { op: Op; path: string; init: RequestInit };

export class Load {
  phase = "warm-up";
  readonly answers: Answer[] = [];
  /** report_id of every report answered 202. */
  readonly accepted: string[] = [];
  /** Requests not yet answered, by the phase they were sent in. */
  readonly inFlightByPhase = new Map<string, number>();
  /** Requests not yet answered. */
  get inFlight(): number {
    let n = 0;
    for (const k of this.inFlightByPhase.values()) n += k;
    return n;
  }
  private running = false;
  private workers: Promise<void>[] = [];
  private n = 0;
  private submissions: string[] = [];

  constructor(
    private readonly url: string,
    private readonly fx: Fixtures,
    private readonly opts = { workers: 8, intervalMs: 200 },
  ) {}

  /** Starts `workers` loops, each sending a request every `intervalMs` at most (40 requests/s by default). */
  start(): void {
    this.running = true;
    this.workers = Array.from({ length: this.opts.workers }, () => this.loop());
  }

  /** Stops sending and waits for every request in flight. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async loop() {
    while (this.running) {
      const t0 = Date.now();
      await this.send(this.next(this.n++));
      await new Promise((r) => setTimeout(r, Math.max(0, this.opts.intervalMs - (Date.now() - t0))));
    }
  }

  private next(n: number): Sent {
    const ip = `198.18.${(n >> 8) & 7}.${n & 255}`;
    const headers = { "content-type": "application/json", "x-forwarded-for": ip };
    const slot = n % 20;
    if (slot < 8) {
      const capability_id = this.fx.capabilityIds[n % this.fx.capabilityIds.length];
      return { op: "discover", path: "/api/discover", init: { method: "POST", headers, body: JSON.stringify({ capability_id }) } };
    }
    if (slot < 15) {
      const body = { endpoint_id: this.fx.endpointIds[n % this.fx.endpointIds.length], success: n % 7 !== 0, latency_ms: 40 + (n % 300), status_code: n % 7 ? 200 : 502 };
      return { op: "report_outcome", path: "/api/report_outcome", init: { method: "POST", headers, body: JSON.stringify(body) } };
    }
    if (slot < 17) return { op: "capabilities", path: "/api/capabilities?limit=5", init: { headers } };
    if (slot < 18) return { op: "capability", path: `/api/capabilities/${this.fx.capabilityIds[n % this.fx.capabilityIds.length]}`, init: { headers } };
    if (slot < 19) return { op: "listing", path: `/api/listing_status?url=${encodeURIComponent(this.fx.endpointUrls[n % this.fx.endpointUrls.length])}`, init: { headers } };
    const known = this.submissions[n % 7];
    if (n % 40 === 39 && known) return { op: "submission", path: `/api/submit/${known}`, init: { headers } };
    const body = {
      endpoint_url: `https://api.fleet-${n}.com/v1/run`,
      capability_id: this.fx.capabilityIds[n % this.fx.capabilityIds.length],
      contact_email: `ops@fleet-${n}.com`,
      provider_name: `Fleet ${n}`,
      price_per_call: 0.01,
    };
    return { op: "submit", path: "/api/submit", init: { method: "POST", headers, body: JSON.stringify(body) } };
  }

  async send({ op, path, init }: Sent, phase = this.phase): Promise<Answer> {
    this.inFlightByPhase.set(phase, (this.inFlightByPhase.get(phase) ?? 0) + 1);
    const sentAt = Date.now();
    let answer: Answer;
    try {
      const res = await fetch(this.url + path, { ...init, signal: AbortSignal.timeout(15_000) });
      const body = (await res.json().catch(() => ({}))) as { report_id?: string; submission_id?: string; code?: string; detail?: string };
      answer = { phase, op, status: res.status, retryAfter: res.headers.has("retry-after"), sentAt, doneAt: Date.now(), error: body.code, detail: body.detail };
      if (op === "report_outcome" && res.status === 202 && body.report_id) this.accepted.push(body.report_id);
      if (op === "submit" && res.status === 202 && body.submission_id) this.submissions.push(body.submission_id);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      answer = { phase, op, status: null, retryAfter: false, sentAt, doneAt: Date.now(), error: cause?.code ?? cause?.message ?? String(err) };
    } finally {
      this.inFlightByPhase.set(phase, (this.inFlightByPhase.get(phase) ?? 1) - 1);
    }
    this.answers.push(answer);
    return answer;
  }

  /** `n` listing-status reads at once, beside the steady load (right after a replica dies, before a check can see it). */
  async readBurst(n: number): Promise<Answer[]> {
    const headers = { "x-forwarded-for": "198.18.9.1" };
    return Promise.all(
      Array.from({ length: n }, (_, i) =>
        this.send({ op: "listing", path: `/api/listing_status?url=${encodeURIComponent(this.fx.endpointUrls[i % this.fx.endpointUrls.length])}`, init: { headers } }),
      ),
    );
  }

  /** `perCaller` discover requests from each of `callers` fresh addresses, `concurrency` at a time. */
  async quota(callers: number, perCaller: number, concurrency = 6): Promise<Map<string, number[]>> {
    const statuses = new Map<string, number[]>();
    for (let c = 0; c < callers; c++) {
      const ip = `198.19.${c >> 8}.${c & 255}`;
      const init = { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ capability_id: this.fx.capabilityIds[0] }) };
      let sent = 0;
      const got: number[] = [];
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (sent < perCaller) {
            sent++;
            got.push((await this.send({ op: "discover", path: "/api/discover", init }, "quota")).status ?? 0);
          }
        }),
      );
      statuses.set(ip, got);
    }
    return statuses;
  }
}

/** An answer that is not what the operation answers when all is well. */
export function failed(a: Answer): boolean {
  return a.status !== EXPECTED[a.op];
}
