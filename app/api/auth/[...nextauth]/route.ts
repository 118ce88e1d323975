// Auth.js endpoints (sign-in, callback, sign-out, session, csrf) under /api/auth.
import { handlers } from "@/auth";

export const { GET, POST } = handlers;
