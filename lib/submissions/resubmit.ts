// Re-submitting: the same URL and capability sent again by the same contact while a submission is
// still pending returns that submission (its id and DNS record stay), updated with the new details,
// instead of a second one with a second record to publish.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { submissions, type Submission } from "@/lib/db/schema";

export type PendingDetails = Pick<
  Submission,
  "providerName" | "pricePerCall" | "method" | "network" | "networks" | "acceptedAssets" | "paymentType" | "description" | "call"
>;

/**
 * The pending, unexpired submission of this URL and capability by the same contact e-mail (and, when
 * both are signed in, the same account), updated with the details just sent; null when there is none.
 * Another contact gets a submission of its own: handing out someone else's record would let the first
 * submitter's details be listed by whoever publishes it.
 */
export async function takeOverPending(
  db: Db,
  key: { url: string; capabilityId: string; contactEmail: string; userId: string | null },
  details: PendingDetails,
): Promise<Submission | null> {
  const [row] = await db
    .update(submissions)
    .set({ ...details, userId: sql`coalesce(${submissions.userId}, ${key.userId})`, updatedAt: sql`now()` })
    .where(
      and(
        sql`${submissions.id} = (
          select s.id from submissions s
          where s.endpoint_url = ${key.url} and s.capability_id = ${key.capabilityId} and s.status = 'pending_verification'
            and s.expires_at > now() and lower(s.contact_email) = lower(${key.contactEmail})
            and (s.user_id is null or ${key.userId}::text is null or s.user_id = ${key.userId})
          order by s.created_at desc limit 1)`,
        eq(submissions.status, "pending_verification"),
      ),
    )
    .returning();
  return row ?? null;
}
