// Limits on sign-in e-mails, so the form cannot be used to flood someone's inbox: per address and
// per client address, counted with the same atomic counter as the API's limits.
import type { Db } from "@/lib/db/client";
import { hit } from "@/lib/ratelimit/store";

export const SIGNIN_EMAILS_PER_ADDRESS_PER_HOUR = 5;
export const SIGNIN_EMAILS_PER_CLIENT_PER_HOUR = 20;

/** True when one more sign-in e-mail may be sent; counts it. */
export async function allowSignInEmail(db: Db, email: string, client: string): Promise<boolean> {
  const [byAddress, byClient] = await Promise.all([
    hit(db, `signin:email:${email.toLowerCase()}`, 3600),
    hit(db, `signin:ip:${client}`, 3600),
  ]);
  return byAddress.count <= SIGNIN_EMAILS_PER_ADDRESS_PER_HOUR && byClient.count <= SIGNIN_EMAILS_PER_CLIENT_PER_HOUR;
}
