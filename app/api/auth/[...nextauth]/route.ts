// Auth.js endpoints (sign-in, callback, sign-out, session, csrf) under /api/auth, seen under the
// host the browser used (lib/auth/public-url.ts).
import type { NextRequest } from "next/server";
import { handlers } from "@/auth";
import { withPublicOrigin } from "@/lib/auth/public-url";

export const GET = (req: NextRequest) => handlers.GET(withPublicOrigin(req));
export const POST = (req: NextRequest) => handlers.POST(withPublicOrigin(req));
