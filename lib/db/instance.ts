// Who this process is, as the other instances and the database see it: job claims are held in its
// name, and its connections carry it in application_name, so pg_stat_activity tells instances apart.
// One value per process, whichever bundle asks (hence globalThis).
import os from "node:os";

const shared = globalThis as unknown as { __capdexInstanceId?: string };

export function instanceId(): string {
  return (shared.__capdexInstanceId ??= `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`);
}

/** application_name of this process's connections (Postgres keeps 63 bytes). */
export function applicationName(): string {
  return `capdex ${instanceId()}`.slice(0, 63);
}
