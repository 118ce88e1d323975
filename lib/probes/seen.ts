// Keeping what a 402 showed: the payment requirements offered (for the x402 discovery API and the
// asset and scheme filters) and the last valid bazaar declaration with the call made of it. A later
// answer without a declaration, or with one that does not validate, keeps the last valid one.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import type { PaymentSeenValue } from "@/lib/db/schema";
import type { SeenChallenge } from "./evaluate";

export async function recordSeenChallenge(db: Db, endpointId: string, seen: SeenChallenge): Promise<void> {
  const payment: PaymentSeenValue = { x402_version: seen.version, accepts: seen.accepts, resource: seen.resource, via: "probe" };
  const d = seen.declaration;
  const paymentSql = sql`payment_seen = ${JSON.stringify(payment)}::jsonb, payment_seen_at = now()`;
  if (d.status === "valid") {
    const decl = JSON.stringify(d.declaration);
    const call = JSON.stringify({ source: "declared", ...d.call, updated_at: new Date().toISOString() });
    // The call (and its updated_at) changes only when the declaration does.
    await queryRows(
      db,
      sql`update endpoints set ${paymentSql}, declaration_issue = null,
            call = case when declaration is not distinct from ${decl}::jsonb and call->>'source' = 'declared' then call else ${call}::jsonb end,
            declaration = ${decl}::jsonb
          where id = ${endpointId}`,
    );
  } else if (d.status === "rejected") {
    const issue = JSON.stringify({ reason: d.reason, problem: d.problem, at: new Date().toISOString() });
    await queryRows(db, sql`update endpoints set ${paymentSql}, declaration_issue = ${issue}::jsonb where id = ${endpointId}`);
  } else {
    await queryRows(db, sql`update endpoints set ${paymentSql}, declaration_issue = null where id = ${endpointId}`);
  }
}
