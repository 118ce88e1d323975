// The daily budgets of paid test calls, kept in the database so that any number of instances share
// them: one row per network and UTC day; a payment is reserved before it is made by one conditional
// UPDATE (spent + amount <= budget), which row locking makes exact however many run at once, and
// released only when no payment was signed.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";

/** Today's UTC day on the database's clock, as the budgets table keys it. */
const today = sql`to_char(now() at time zone 'utc', 'YYYY-MM-DD')`;

export type Reservation = { network: string; day: string; micros: number };

/** Reserves `micros` of today's budget on the network; null when it would go past `budgetMicros`. */
export async function reserve(db: Db, network: string, micros: number, budgetMicros: number): Promise<Reservation | null> {
  if (!Number.isSafeInteger(micros) || micros < 0) return null;
  await db.execute(
    sql`insert into paid_check_budgets (network, day, budget_micros) values (${network}, ${today}, ${budgetMicros})
        on conflict (network, day) do nothing`,
  );
  // The budget is the configured one now (a changed setting applies at once, to what is left of the day).
  const rows = await queryRows<{ day: string }>(
    db,
    sql`update paid_check_budgets
        set spent_micros = spent_micros + ${micros}, budget_micros = ${budgetMicros}, payments = payments + 1, updated_at = now()
        where network = ${network} and day = ${today} and spent_micros + ${micros} <= ${budgetMicros}
        returning day`,
  );
  return rows.length ? { network, day: rows[0].day, micros } : null;
}

/** Gives back a reservation whose payment was never signed. */
export async function release(db: Db, r: Reservation): Promise<void> {
  await db.execute(
    sql`update paid_check_budgets
        set spent_micros = greatest(0, spent_micros - ${r.micros}), payments = greatest(0, payments - 1), updated_at = now()
        where network = ${r.network} and day = ${r.day}`,
  );
}

export type BudgetRow = { network: string; day: string; budget_micros: number; spent_micros: number; payments: number };

/** Today's rows (networks without one have spent nothing today). */
export async function budgetsToday(db: Db): Promise<BudgetRow[]> {
  const rows = await queryRows<BudgetRow>(
    db,
    sql`select network, day, budget_micros, spent_micros, payments from paid_check_budgets where day = ${today} order by network`,
  );
  return rows.map((r) => ({ ...r, budget_micros: Number(r.budget_micros), spent_micros: Number(r.spent_micros), payments: Number(r.payments) }));
}

/** What is left today per network, given the configured budgets. */
export async function remainingToday(db: Db, budgets: Map<string, number>): Promise<Map<string, number>> {
  const spent = new Map((await budgetsToday(db)).map((r) => [r.network, r.spent_micros]));
  return new Map([...budgets].map(([net, b]) => [net, Math.max(0, b - (spent.get(net) ?? 0))]));
}
