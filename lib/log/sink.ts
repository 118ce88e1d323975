// Where the log's lines go: a file descriptor (stdout or stderr) written so that no log write can
// block the process or its exit. Lines wait in a bounded queue and go out together with one
// asynchronous write at a time; a full pipe (EAGAIN: nobody reads) waits and tries again while new
// lines queue, and once the queue holds MAX_QUEUED_BYTES the newest lines are dropped and counted;
// a reader gone (EPIPE) or any other write error stops the log for good, counting every line after.
// Exit never waits: what is still queued gets one non-blocking write attempt, then the process ends.
// (pino's own destination, sonic-boom, retries a failed write in a loop at exit, sleeping on a
// futex between tries: with the reader of stdout gone, SIGTERM left the server hanging for ever.)
import fs from "node:fs";

const MAX_QUEUED_BYTES = 1 << 20;
/** A full pipe is tried again after this long, doubling up to RETRY_MAX_MS while it stays full. */
const RETRY_MIN_MS = 10;
const RETRY_MAX_MS = 1_000;
const TRANSIENT = new Set(["EAGAIN", "EWOULDBLOCK", "EBUSY", "EINTR", "ENOSPC"]);

export type LogSinkStats = { written: number; dropped: number; droppedFull: number; droppedClosed: number; stopped: string | null };

export class LogSink {
  private queue: string[] = [];
  /** Bytes taken from the queue for the write in flight (or the one to try again), and their lines. */
  private pending: Buffer | null = null;
  private pendingLines = 0;
  private queuedBytes = 0;
  private writing = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private stoppedBy: string | null = null;
  private readonly stats = { written: 0, droppedFull: 0, droppedClosed: 0 };

  constructor(
    readonly fd: number,
    private readonly io: Pick<typeof fs, "write" | "writeSync"> = fs,
    /** Runs before every write: puts a pipe back in non-blocking mode (see openLogSink). */
    private readonly beforeWrite: () => void = () => {},
  ) {}

  /** pino's destination interface: one serialised line (with its newline) at a time. */
  write(line: string): boolean {
    if (this.stoppedBy) {
      this.stats.droppedClosed++;
      return true;
    }
    const bytes = Buffer.byteLength(line);
    if (this.queuedBytes + bytes > MAX_QUEUED_BYTES) {
      this.stats.droppedFull++;
      return true;
    }
    this.queue.push(line);
    this.queuedBytes += bytes;
    if (!this.writing && !this.retryTimer && this.queue.length === 1) setImmediate(() => this.writeNext());
    return true;
  }

  /** What happened to the lines so far (metrics: capdex_log_lines_dropped_total). */
  snapshot(): LogSinkStats {
    const { written, droppedFull, droppedClosed } = this.stats;
    return { written, droppedFull, droppedClosed, dropped: droppedFull + droppedClosed, stopped: this.stoppedBy };
  }

  /**
   * Synchronous attempts to write what is queued (shutdown, exit), for as long as each one makes
   * progress: the descriptor is non-blocking for pipes (see openLogSink), so a full one answers
   * EAGAIN at once and the rest is given up, never waited on.
   */
  flushOnce(): void {
    if (this.writing || this.stoppedBy) return;
    this.takeQueue();
    while (this.pending && !this.stoppedBy) {
      try {
        this.beforeWrite();
        const n = this.io.writeSync(this.fd, this.pending);
        this.wrote(n);
        if (n === 0) return;
      } catch (err) {
        this.failed(err);
        return;
      }
    }
  }

  private takeQueue(): void {
    if (this.queue.length === 0) return;
    const lines = Buffer.from(this.queue.join(""));
    this.pending = this.pending ? Buffer.concat([this.pending, lines]) : lines;
    this.pendingLines += this.queue.length;
    this.queue = [];
  }

  private writeNext(): void {
    if (this.writing || this.stoppedBy) return;
    if (!this.pending) this.takeQueue();
    const data = this.pending;
    if (!data) return;
    this.writing = true;
    this.beforeWrite();
    this.io.write(this.fd, data, 0, data.length, null, (err, n) => {
      this.writing = false;
      if (err) this.failed(err);
      else this.wrote(n);
      if (this.stoppedBy || (!this.pending && this.queue.length === 0)) return;
      if (!err) return this.writeNext();
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.writeNext();
      }, this.retryMs);
      // A log waiting for a reader must not keep the process alive.
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    });
  }

  private wrote(n: number): void {
    if (!this.pending) return;
    this.retryMs = RETRY_MIN_MS;
    this.queuedBytes -= n;
    if (n < this.pending.length) {
      this.pending = this.pending.subarray(n);
      return;
    }
    this.stats.written += this.pendingLines;
    this.pending = null;
    this.pendingLines = 0;
  }

  private failed(err: unknown): void {
    const code = (err as { code?: string }).code ?? "unknown";
    if (TRANSIENT.has(code)) return;
    // EPIPE (the reader is gone), EBADF, EIO...: nothing will ever be read; stop trying.
    this.stoppedBy = code;
    this.stats.droppedClosed += this.pendingLines + this.queue.length;
    this.pending = null;
    this.pendingLines = 0;
    this.queue = [];
    this.queuedBytes = 0;
  }
}

/**
 * The sink of stdout (1) or stderr (2). Both, when they are pipes or sockets, are put in
 * non-blocking mode before every write: Next's SWC loader makes stdout and stderr blocking (next/dist/build/swc), and a blocking
 * write to a pipe nobody reads parks its thread for ever; the main thread, or a thread-pool thread
 * that Node's exit then waits to join (the SIGTERM that never ended). Non-blocking, a full pipe
 * answers EAGAIN at once, and Next's own writes to process.stdout queue in memory instead of
 * blocking. The stream's write errors (EPIPE once the reader is gone) are ignored rather than
 * thrown as an uncaught exception: the log is not worth the process.
 */
export function openLogSink(fd: 1 | 2): LogSink {
  const unblock = [unblocker(1), unblocker(2)].filter((f) => f !== null);
  const sink = new LogSink(fd, fs, () => unblock.forEach((f) => f()));
  unblock.forEach((f) => f());
  process.once("exit", () => sink.flushOnce());
  return sink;
}

/** For stdout or stderr on a pipe or socket: a function that makes it non-blocking (see above); else null. */
function unblocker(fd: 1 | 2): (() => void) | null {
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFIFO() && !st.isSocket()) return null;
  } catch {
    return null; // closed: the first write fails with EBADF and stops the sink
  }
  const stream = fd === 1 ? process.stdout : process.stderr;
  stream.on("error", () => {});
  const handle = (stream as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
  return () => void handle?.setBlocking?.(false);
}
