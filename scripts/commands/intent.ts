// `npm run cli -- intent "<text>" ["<text>" ...]`: what the intent resolver answers for a need, with
// the runners-up, against the registry in the database (capabilities added at run time included).
import { settledIntentIndexOf } from "@/lib/discovery/resolve";
import { resolveIntent } from "@/lib/discovery/intent";
import { getRegistry } from "@/lib/registry";
import { registerCommand } from "../cli";

registerCommand("intent", {
  summary: "resolve needs written in plain words to capabilities, with confidence and runners-up",
  usage: 'intent "<text>" ["<text>" ...]',
  run: async (args, { open }) => {
    if (!args.length) {
      console.error('usage: npm run cli -- intent "<text>" ["<text>" ...]');
      return 2;
    }
    const h = await open();
    try {
      const index = await settledIntentIndexOf(await getRegistry(h.db));
      for (const text of args) {
        const r = resolveIntent(index, text);
        const runnersUp = r.candidates.map((c) => `${c.capability_id} ${c.confidence}`).join(", ");
        console.log(`${JSON.stringify(text)}\n  ${r.best ? `${r.best.capability_id} ${r.best.confidence}` : "unresolved"}${runnersUp ? `  (runners-up: ${runnersUp})` : ""}`);
      }
      return 0;
    } finally {
      await h.close();
    }
  },
});
