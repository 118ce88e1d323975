// Once per test run: with DATABASE_URL, build a migrated template database that every test file
// copies (CREATE DATABASE ... TEMPLATE), and drop it at the end.
import postgres from "postgres";
import { openDb } from "@/lib/db/client";
import { TEMPLATE_DB_ENV, withDatabase } from "./pg";

export default async function setup() {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  const name = `capdex_tpl_${process.pid}`;
  const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const h = await openDb({ url: withDatabase(base, name) });
  await h.close();
  process.env[TEMPLATE_DB_ENV] = name;
  await admin.end();
  return async () => {
    const a = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${name} with (force)`);
    await a.end();
  };
}
