// The registry version: bumped on every change to capabilities, read by every instance to know
// when its in-memory copy (and search index) is stale.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";

export async function bumpRegistryVersion(db: Db): Promise<number> {
  const [row] = await queryRows<{ value: number }>(
    db,
    sql`insert into meta (key, value) values ('registry_version', 1)
        on conflict (key) do update set value = meta.value + 1, updated_at = now()
        returning value`,
  );
  return Number(row.value);
}

export async function getRegistryVersion(db: Db): Promise<number> {
  const [row] = await queryRows<{ value: number }>(db, sql`select value from meta where key = 'registry_version'`);
  return Number(row?.value ?? 0);
}
