// Loads the starter registry (lib/registry/capabilities.json) into the database.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { capabilities, categories } from "@/lib/db/schema";
import catalogue from "@/lib/registry/capabilities.json";
import { bumpRegistryVersion } from "@/lib/registry/version";

export type CatalogueCapability = {
  id: string;
  title: string;
  description: string;
  tags: string[];
  aliases?: string[];
  examples?: string[];
};

export type Catalogue = {
  categories: Array<{ id: string; title: string; description: string }>;
  capabilities: CatalogueCapability[];
};

export const CATALOGUE = catalogue as Catalogue;

/** The catalogue's capabilities as rows of the capabilities table (the seed's, and eval-mapping's registry in memory). */
export function catalogueCapabilityRows(data: Catalogue = CATALOGUE) {
  return data.capabilities.map((c) => ({
    id: c.id,
    categoryId: c.id.split(".")[0],
    title: c.title,
    description: c.description,
    tags: c.tags,
    aliases: c.aliases ?? [],
    examples: c.examples ?? [],
    source: "catalogue",
  }));
}

/** Upserts every category and capability of the catalogue; capabilities added since are left alone. */
export async function seedCatalogue(db: Db, data: Catalogue = CATALOGUE): Promise<number> {
  await db
    .insert(categories)
    .values(data.categories.map((c, i) => ({ ...c, position: i })))
    .onConflictDoUpdate({
      target: categories.id,
      set: { title: sql`excluded.title`, description: sql`excluded.description`, position: sql`excluded.position` },
    });
  await db
    .insert(capabilities)
    .values(catalogueCapabilityRows(data))
    .onConflictDoUpdate({
      target: capabilities.id,
      set: {
        title: sql`excluded.title`,
        description: sql`excluded.description`,
        tags: sql`excluded.tags`,
        aliases: sql`excluded.aliases`,
        examples: sql`excluded.examples`,
        updatedAt: sql`now()`,
      },
    });
  await bumpRegistryVersion(db);
  return data.capabilities.length;
}
