-- The column types of every csv and jsonl output of txfold, for PostgreSQL
-- (Documentation/schemas/README.md: how to load each file with them, and why).
--
-- Amounts are numeric without a typmod: exact for every amount and total txfold writes, and
-- they keep the scale as written ("3839.90" stays 3839.90); never real or double precision.
-- Instants stay text, as txfold wrote them; the *_utc column next to one is computed from it
-- by txfold_utc() below. Column names are the outputs' own, folded to lower case by PostgreSQL
-- (creditdebitindicator); COPY … (FORMAT csv, HEADER) matches columns by position.
-- A jsonl output is nested: its lists are jsonb columns, and the views *_totals and
-- *_cells unnest them with typed amounts. Text cells of a csv may start with ' (txfold's
-- guard against spreadsheet formulas, Formats.md).

-- The UTC instant of a timestamp as txfold writes it: with an offset (Z, +02:00, +0200) that
-- instant; without one (or a bare date) the wall time in `zone` — UTC, as txfold takes it,
-- unless the run had --timezone ZONE. Fractions past microseconds are rounded.
CREATE OR REPLACE FUNCTION txfold_utc(written text, zone text DEFAULT 'UTC') RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE WHEN written ~ 'T.*(Z|[+-][0-9]{2}(:?[0-9]{2})?)$'
              THEN written::timestamptz
              ELSE written::timestamp AT TIME ZONE zone
         END
$$;

-- txfold group --format csv: one row per group and currency.
CREATE TABLE IF NOT EXISTS txfold_group_csv (
  state                text NOT NULL,
  date                 date NOT NULL,
  creditDebitIndicator text NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                bigint NOT NULL,
  currency             text,             -- NULL only for a group without totals
  currencyCount        bigint,
  amount               numeric,          -- sum of magnitudes in this currency
  latest               text NOT NULL,    -- as written
  latest_utc           timestamptz GENERATED ALWAYS AS (txfold_utc(latest)) STORED
);

-- txfold group --per-account --format csv: the same after a first column account.
CREATE TABLE IF NOT EXISTS txfold_group_accounts_csv (
  account              text NOT NULL,
  state                text NOT NULL,
  date                 date NOT NULL,
  creditDebitIndicator text NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                bigint NOT NULL,
  currency             text,
  currencyCount        bigint,
  amount               numeric,
  latest               text NOT NULL,
  latest_utc           timestamptz GENERATED ALWAYS AS (txfold_utc(latest)) STORED
);

-- txfold group --format jsonl (and merge): one line per group.
CREATE TABLE IF NOT EXISTS txfold_group_jsonl (
  state                text NOT NULL,
  date                 date NOT NULL,
  creditDebitIndicator text NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                bigint NOT NULL,
  totals               jsonb NOT NULL,   -- [{"currency": text, "amount": numeric as a string}]
  latest               text NOT NULL,
  transactions         jsonb NOT NULL,   -- [{"id", "description"?, "amount", "currency", "instant"}]
  latest_utc           timestamptz GENERATED ALWAYS AS (txfold_utc(latest)) STORED
);
CREATE OR REPLACE VIEW txfold_group_jsonl_totals AS
  SELECT g.state, g.date, g.creditDebitIndicator, g.count, t.currency, t.amount, g.latest, g.latest_utc
  FROM txfold_group_jsonl AS g, jsonb_to_recordset(g.totals) AS t(currency text, amount numeric);

-- txfold group --per-account --format jsonl: one line per account.
CREATE TABLE IF NOT EXISTS txfold_group_accounts_jsonl (
  account              text PRIMARY KEY,
  count                bigint NOT NULL,
  sections             jsonb NOT NULL    -- [{"state", "groups": [group as in txfold_group_jsonl]}]
);
CREATE OR REPLACE VIEW txfold_group_accounts_jsonl_totals AS
  SELECT a.account, s.state, g.date, g.creditDebitIndicator, g.count, t.currency, t.amount, g.latest,
         txfold_utc(g.latest) AS latest_utc
  FROM txfold_group_accounts_jsonl AS a,
       jsonb_to_recordset(a.sections) AS s(state text, groups jsonb),
       jsonb_to_recordset(s.groups) AS g(date date, creditDebitIndicator text, count bigint, totals jsonb, latest text),
       jsonb_to_recordset(g.totals) AS t(currency text, amount numeric);

-- txfold list --format csv and --format jsonl: one row per transaction (the same columns;
-- load jsonl with jsonb_populate_record, README).
CREATE TABLE IF NOT EXISTS txfold_list (
  id                   text NOT NULL,
  instant              text NOT NULL,    -- as written
  date                 date NOT NULL,    -- its day (in --timezone)
  state                text NOT NULL,
  creditDebitIndicator text NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  amount               numeric NOT NULL, -- signed
  currency             text NOT NULL,
  fee                  numeric,          -- NULL without a fee
  total                numeric NOT NULL, -- amount + fee
  description          text,
  category             text,
  counterparty         text,
  instant_utc          timestamptz GENERATED ALWAYS AS (txfold_utc(instant)) STORED
);

-- txfold list --per-account --format csv.
CREATE TABLE IF NOT EXISTS txfold_list_accounts_csv (
  account              text NOT NULL,
  id                   text NOT NULL,
  instant              text NOT NULL,
  date                 date NOT NULL,
  state                text NOT NULL,
  creditDebitIndicator text NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  amount               numeric NOT NULL,
  currency             text NOT NULL,
  fee                  numeric,
  total                numeric NOT NULL,
  description          text,
  category             text,
  counterparty         text,
  instant_utc          timestamptz GENERATED ALWAYS AS (txfold_utc(instant)) STORED
);

-- txfold list --per-account --format jsonl: one line per account, its page of transactions.
CREATE TABLE IF NOT EXISTS txfold_list_accounts_jsonl (
  account              text PRIMARY KEY,
  count                bigint NOT NULL,  -- matched before paging
  transactions         jsonb NOT NULL,   -- [transaction as in txfold_list]
  sum                  jsonb NOT NULL,   -- [{"currency", "count", "amount", "fees", "total"}]
  page                 jsonb NOT NULL    -- {"offset", "limit" (null: none), "shown", "matched"}
);

-- txfold summary --format csv: one row per key and currency.
CREATE TABLE IF NOT EXISTS txfold_summary_csv (
  key                  text NOT NULL,    -- (none) for transactions without one
  currency             text NOT NULL,
  count                bigint NOT NULL,
  income               numeric NOT NULL, -- zero or positive
  expense              numeric NOT NULL  -- zero or negative
);

-- txfold summary --per-account --format csv.
CREATE TABLE IF NOT EXISTS txfold_summary_accounts_csv (
  account              text NOT NULL,
  key                  text NOT NULL,
  currency             text NOT NULL,
  count                bigint NOT NULL,
  income               numeric NOT NULL,
  expense              numeric NOT NULL
);

-- txfold summary --format jsonl: one line per key.
CREATE TABLE IF NOT EXISTS txfold_summary_jsonl (
  key                  text,             -- NULL for transactions without one
  count                bigint NOT NULL,
  currencies           jsonb NOT NULL    -- [{"currency", "count", "income", "expense"}]
);
CREATE OR REPLACE VIEW txfold_summary_jsonl_cells AS
  SELECT s.key, c.currency, c.count, c.income, c.expense
  FROM txfold_summary_jsonl AS s,
       jsonb_to_recordset(s.currencies) AS c(currency text, count bigint, income numeric, expense numeric);

-- txfold summary --per-account --format jsonl: one line per account.
CREATE TABLE IF NOT EXISTS txfold_summary_accounts_jsonl (
  account              text PRIMARY KEY,
  count                bigint NOT NULL,
  "by"                 text NOT NULL,
  entries              jsonb NOT NULL,   -- [entry as in txfold_summary_jsonl]
  totals               jsonb NOT NULL    -- [{"currency", "count", "income", "expense"}]
);
