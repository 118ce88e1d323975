// Auth.js v5 for Capdex: e-mail sign-in links (nodemailer), GitHub when configured, users and
// database sessions in our own tables through the Drizzle adapter. Exports { auth, handlers, signIn, signOut }.
import NextAuth from "next-auth";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import Nodemailer from "next-auth/providers/nodemailer";
import { headers } from "next/headers";
import { authConfig } from "./auth.config";
import { getDb } from "@/lib/server/db";
import { accounts, sessions, users, verificationTokens } from "@/lib/db/schema";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { emailFrom, sendVerificationRequest } from "@/lib/auth/email";
import { allowSignInEmail } from "@/lib/auth/signin-limits";
import { clientAddress } from "@/lib/auth/client-address";

/** Sign-in links work once, for an hour. */
export const SIGNIN_LINK_MAX_AGE_SECONDS = 60 * 60;

export const { auth, handlers, signIn, signOut } = NextAuth(async () => {
  const db = await getDb();
  return {
    ...authConfig,
    secret: resolveAuthSecret(),
    adapter: DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: accounts,
      sessionsTable: sessions,
      verificationTokensTable: verificationTokens,
    }),
    providers: [
      Nodemailer({
        // Unused without EMAIL_SERVER (the link goes to the log), but the provider insists on one.
        server: process.env.EMAIL_SERVER || "smtp://127.0.0.1:25",
        from: emailFrom(),
        maxAge: SIGNIN_LINK_MAX_AGE_SECONDS,
        sendVerificationRequest: (params) => sendVerificationRequest(params),
      }),
      ...authConfig.providers,
    ],
    callbacks: {
      async signIn({ user, email }) {
        if (!email?.verificationRequest) return true;
        const h = await headers();
        const client = clientAddress(new Request("http://capdex.invalid/", { headers: h }));
        if (!(await allowSignInEmail(db, user.email ?? "", client))) return "/signin?error=TooManyEmails";
        return true;
      },
      session({ session, user }) {
        if (session.user && user) session.user.id = user.id;
        return session;
      },
    },
  };
});
