-- Tables for txfold's per-account reports (Examples/postgres/README.md). Safe to run
-- again; load.sh runs it when the tables are missing.

SET client_min_messages = warning;  -- no "already exists, skipping" notices on reruns

-- One row per customer account: the account's whole report as txfold wrote it, as
-- jsonb so that it can be queried and indexed, and the transaction count beside it
-- for the queries that need nothing else.
CREATE TABLE IF NOT EXISTS txfold_accounts (
  account   text PRIMARY KEY,                        -- txfold's account id (Backbase: arrangementId)
  txn_count bigint NOT NULL CHECK (txn_count >= 0),  -- the report's "count": transactions folded in
  report    jsonb NOT NULL,                          -- {"account", "count", "sections": [...]}
  loaded_at timestamptz NOT NULL DEFAULT now()       -- the last load whose output held the account
);

-- Where load.sql COPYs the raw lines before they are parsed. UNLOGGED: it is emptied
-- at the start of every load and holds nothing worth writing to the WAL (nor worth
-- replicating). Loads take it with TRUNCATE, so two overlapping loads run one after
-- the other instead of mixing their lines.
CREATE UNLOGGED TABLE IF NOT EXISTS txfold_accounts_staging (
  line text NOT NULL
);
