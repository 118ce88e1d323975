// Background job of accounts: drop expired sessions and unused sign-in links (Auth.js leaves them).
import { lt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sessions, verificationTokens } from "@/lib/db/schema";

export const authCleanupJob = {
  name: "auth.cleanup",
  everyMs: 60 * 60_000,
  run: async (db: Db) => {
    const now = new Date();
    const s = await db.delete(sessions).where(lt(sessions.expires, now)).returning({ t: sessions.sessionToken });
    const v = await db.delete(verificationTokens).where(lt(verificationTokens.expires, now)).returning({ t: verificationTokens.token });
    return { sessions: s.length, verificationTokens: v.length };
  },
};
