-- Rate-limit counters are written on every limited request and are worth nothing after a crash
-- (limits simply restart), so they skip the write-ahead log: no fsync per check. Postgres empties
-- an unlogged table after a crash; replicas do not carry it (the limiter only uses the primary).
ALTER TABLE "rate_limits" SET UNLOGGED;
