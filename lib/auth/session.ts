// The signed-in person of the current page or server action (from the Auth.js database session).
import { cache } from "react";
import { auth } from "@/auth";
import { isAdmin } from "./admin";

export type SessionUser = { id: string; email: string | null; name: string | null; isAdmin: boolean };

/** The signed-in user, or null. One session lookup per request however often it is called. */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return { id: user.id, email: user.email ?? null, name: user.name ?? null, isAdmin: isAdmin(user.email) };
});
