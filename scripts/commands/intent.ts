// `npm run cli -- intent "<text>" ["<text>" ...]`: what the intent resolver answers for a need, with
// the runners-up, against the registry in the database (capabilities added at run time included),
// read as discover reads it (the sentence encoder's help, refusals, other jobs).
import { settledIntentIndexOf } from "@/lib/discovery/resolve";
import { readNeed } from "@/lib/discovery/intent";
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
        const r = await readNeed(index, text);
        if (r.refused) {
          console.log(`${JSON.stringify(text)}\n  refused (${r.refused.category})`);
          continue;
        }
        const runnersUp = r.candidates.map((c) => `${c.capability_id} ${c.confidence}`).join(", ");
        const also = r.also_needed?.length ? `  (also needed: ${r.also_needed.map((c) => `${c.capability_id} ${c.confidence}`).join(", ")})` : "";
        console.log(`${JSON.stringify(text)}\n  ${r.best ? `${r.best.capability_id} ${r.best.confidence}` : "unresolved"}${runnersUp ? `  (runners-up: ${runnersUp})` : ""}${also}`);
      }
      return 0;
    } finally {
      await h.close();
    }
  },
});
