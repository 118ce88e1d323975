// `npm run cli -- keys create|list|revoke`: API keys for operators and scripts. `keys create` prints
// the new key alone on its last line, so `... | tail -n 1` captures it.
import { createApiKey, listApiKeys } from "@/lib/auth/keys";
import { findKeysByRef, revokeKeyAsOperator } from "@/lib/auth/operator-keys";
import { findOrCreateUserByEmail, findUserByEmail } from "@/lib/auth/users";
import { flag, registerCommand } from "../cli";

const USAGE = "keys create --email E [--name N] | list --email E | revoke <id|prefix>";

registerCommand("keys", {
  summary: "API keys: create one for an address (printed once, last line), list an address's keys, revoke one",
  usage: USAGE,
  run: async (args, { open }) => {
    const [action, ref] = args;
    const email = flag(args, "--email");
    if (action === "create" || action === "list") {
      if (!email) throw new Error(`--email is required (usage: ${USAGE})`);
    } else if (action !== "revoke" || !ref) {
      console.error(`usage: npm run cli -- ${USAGE}`);
      return 2;
    }
    const h = await open();
    try {
      if (action === "create") {
        const { user, created } = await findOrCreateUserByEmail(h.db, email!);
        const { key, apiKey } = await createApiKey(h.db, user.id, flag(args, "--name") ?? "cli");
        console.log(`${created ? "created user" : "user"} ${user.email}; key "${apiKey.name}" ${apiKey.prefix}… (id ${apiKey.id}). It is shown only now:`);
        console.log(key);
        return 0;
      }
      if (action === "list") {
        const user = await findUserByEmail(h.db, email!);
        if (!user) throw new Error(`no user with the address ${email}`);
        const keys = await listApiKeys(h.db, user.id);
        for (const k of keys) {
          const used = k.lastUsedAt ? k.lastUsedAt.toISOString() : "never";
          const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active";
          console.log([k.id, `${k.prefix}…`, k.createdAt.toISOString(), `last used ${used}`, state, JSON.stringify(k.name)].join("  "));
        }
        if (!keys.length) console.log("no keys");
        return 0;
      }
      const matches = await findKeysByRef(h.db, ref!);
      const active = matches.filter((m) => !m.revokedAt);
      if (!matches.length) throw new Error(`no key with the id or prefix ${ref}`);
      if (!active.length) throw new Error(`the key ${ref} is already revoked`);
      if (active.length > 1) {
        throw new Error(`${active.length} active keys start with ${ref}: ${active.map((m) => `${m.id} (${m.prefix}…, ${m.email})`).join(", ")}; give the id`);
      }
      await revokeKeyAsOperator(h.db, active[0].id);
      console.log(`revoked ${active[0].prefix}… (id ${active[0].id}, ${active[0].email}); every instance refuses it within 5 s`);
      return 0;
    } finally {
      await h.close();
    }
  },
});
