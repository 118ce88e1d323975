// The chaos test's load: a steady, bounded mix of discover, report_outcome, the x402 resource list and a
// portal page, each request with a client-side timeout (a hang is measured, never waited on), every
// answer kept with the fault it was sent under.
export type Op = "discover" | "report_outcome" | "x402_resources" | "portal";

const EXPECTED: Record<Op, number> = { discover: 200, report_outcome: 202, x402_resources: 200, portal: 200 };
export const CLIENT_TIMEOUT_MS = 15_000;

export type Answer = {
  phase: string;
  op: Op;
  status: number | null;
  retryAfter: boolean;
  code?: string;
  sentAt: number;
  doneAt: number;
  error?: string;
};

export class Load {
  phase = "warm-up";
  readonly answers: Answer[] = [];
  /** report_id of every report answered 202, with the phase it was sent in. */
  readonly accepted: Array<{ id: string; phase: string }> = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private n = 0;

  constructor(
    public url: string,
    private readonly fx: { capabilityIds: string[]; endpointIds: string[] },
    private readonly opts = { workers: 6, intervalMs: 200 },
  ) {}

  /** `workers` loops, each sending a request every `intervalMs` at most (30 requests/s by default). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.opts.workers }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop() {
    while (this.running) {
      const t0 = Date.now();
      await this.send(this.n++);
      await new Promise((r) => setTimeout(r, Math.max(0, this.opts.intervalMs - (Date.now() - t0))));
    }
  }

  /** `count` requests at once (`concurrency` in flight), of the same mix: a burst. */
  async burst(count: number, concurrency = 16, only?: Op): Promise<void> {
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await this.send(this.n++, only);
      }),
    );
  }

  private request(n: number, only?: Op): { op: Op; path: string; init: RequestInit } {
    const headers = { "content-type": "application/json", "x-forwarded-for": `198.18.${(n >> 8) & 31}.${n & 255}` };
    const slot = only ? { discover: 0, report_outcome: 4, x402_resources: 8, portal: 9 }[only] : n % 10;
    if (slot < 4) {
      const capability_id = this.fx.capabilityIds[n % this.fx.capabilityIds.length];
      return { op: "discover", path: "/api/discover", init: { method: "POST", headers, body: JSON.stringify({ capability_id }) } };
    }
    if (slot < 8) {
      const body = { endpoint_id: this.fx.endpointIds[n % this.fx.endpointIds.length], success: n % 5 !== 0, latency_ms: 30 + (n % 400), status_code: n % 5 ? 200 : 502 };
      return { op: "report_outcome", path: "/api/report_outcome", init: { method: "POST", headers, body: JSON.stringify(body) } };
    }
    if (slot < 9) return { op: "x402_resources", path: `/api/x402/discovery/resources?limit=5&offset=${n % 50}`, init: { headers } };
    return { op: "portal", path: "/capabilities", init: { headers } };
  }

  async send(n: number, only?: Op): Promise<Answer> {
    const { op, path, init } = this.request(n, only);
    const phase = this.phase;
    const sentAt = Date.now();
    let answer: Answer;
    try {
      const res = await fetch(this.url + path, { ...init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
      const text = await res.text();
      let body: { report_id?: string; code?: string } = {};
      if ((res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
      // A portal page the database failed is sent to /unavailable (lib/portal/unavailable.ts): an
      // HTML 503, the page's own reading of code `unavailable`.
      else if (res.status === 503 && new URL(res.url).pathname === "/unavailable") body = { code: "unavailable" };
      answer = { phase, op, status: res.status, retryAfter: res.headers.has("retry-after"), code: body.code, sentAt, doneAt: Date.now() };
      if (op === "report_outcome" && res.status === 202 && body.report_id) this.accepted.push({ id: body.report_id, phase });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const name = (err as Error).name;
      answer = { phase, op, status: null, retryAfter: false, sentAt, doneAt: Date.now(), error: name === "TimeoutError" ? "client_timeout" : (cause?.code ?? cause?.message ?? String(err)) };
    }
    this.answers.push(answer);
    return answer;
  }
}

/** An answer other than the one the operation gives when all is well (429s are the limiter doing its job). */
export function failed(a: Answer): boolean {
  return a.status !== EXPECTED[a.op] && a.status !== 429;
}
