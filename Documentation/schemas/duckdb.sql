-- The column types of every csv and jsonl output of txfold, for DuckDB
-- (Documentation/schemas/README.md: how to load each file with them, and why).
--
-- Amounts are DECIMAL(38, 18): exact for every amount and total below 10^20 (txfold accepts
-- up to 38 digits; a larger one fails the load, never rounds); never DOUBLE. Instants stay VARCHAR, as txfold
-- wrote them (offsets and fractions kept); the *_utc column next to one is filled on load
-- with CAST(… AS TIMESTAMPTZ) under SET TimeZone = 'UTC' (or the run's --timezone).
-- Column names are the outputs' own (csv header, json keys). Text cells of a csv may
-- start with ' (txfold's guard against spreadsheet formulas, Formats.md).
-- Scripts/schema-check.sh loads every output with these tables and checks exact totals.

-- txfold group --format csv: one row per group and currency.
CREATE TABLE txfold_group_csv (
  state                VARCHAR NOT NULL,
  date                 DATE NOT NULL,
  creditDebitIndicator VARCHAR NOT NULL,         -- CRDT or DBIT
  count                BIGINT NOT NULL,          -- the group's, repeated on each currency row
  currency             VARCHAR,                  -- NULL only for a group without totals
  currencyCount        BIGINT,
  amount               DECIMAL(38, 18),          -- sum of magnitudes in this currency
  latest               VARCHAR NOT NULL,         -- as written
  latest_utc           TIMESTAMPTZ               -- filled on load
);

-- txfold group --per-account --format csv: the same after a first column account.
CREATE TABLE txfold_group_accounts_csv (
  account              VARCHAR NOT NULL,
  state                VARCHAR NOT NULL,
  date                 DATE NOT NULL,
  creditDebitIndicator VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  currency             VARCHAR,
  currencyCount        BIGINT,
  amount               DECIMAL(38, 18),
  latest               VARCHAR NOT NULL,
  latest_utc           TIMESTAMPTZ
);

-- txfold group --format jsonl (and merge): one line per group.
CREATE TABLE txfold_group_jsonl (
  state                VARCHAR NOT NULL,
  date                 DATE NOT NULL,
  creditDebitIndicator VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  totals               STRUCT(currency VARCHAR, amount DECIMAL(38, 18))[] NOT NULL,
  latest               VARCHAR NOT NULL,
  transactions         STRUCT(id VARCHAR, description VARCHAR, amount DECIMAL(38, 18), currency VARCHAR, instant VARCHAR)[] NOT NULL,
  latest_utc           TIMESTAMPTZ
);

-- txfold group --per-account --format jsonl: one line per account.
CREATE TABLE txfold_group_accounts_jsonl (
  account              VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  sections             STRUCT(
                         state VARCHAR,
                         groups STRUCT(
                           date DATE, creditDebitIndicator VARCHAR, count BIGINT,
                           totals STRUCT(currency VARCHAR, amount DECIMAL(38, 18))[],
                           latest VARCHAR,
                           transactions STRUCT(id VARCHAR, description VARCHAR, amount DECIMAL(38, 18), currency VARCHAR, instant VARCHAR)[]
                         )[]
                       )[] NOT NULL
);

-- txfold list --format csv and --format jsonl: one row per transaction (the same columns).
CREATE TABLE txfold_list (
  id                   VARCHAR NOT NULL,
  instant              VARCHAR NOT NULL,         -- as written
  date                 DATE NOT NULL,            -- its day (in --timezone)
  state                VARCHAR NOT NULL,
  creditDebitIndicator VARCHAR NOT NULL,
  amount               DECIMAL(38, 18) NOT NULL, -- signed
  currency             VARCHAR NOT NULL,
  fee                  DECIMAL(38, 18),          -- NULL without a fee
  total                DECIMAL(38, 18) NOT NULL, -- amount + fee
  description          VARCHAR,
  category             VARCHAR,
  counterparty         VARCHAR,
  instant_utc          TIMESTAMPTZ               -- filled on load
);

-- txfold list --per-account --format csv.
CREATE TABLE txfold_list_accounts_csv (
  account              VARCHAR NOT NULL,
  id                   VARCHAR NOT NULL,
  instant              VARCHAR NOT NULL,
  date                 DATE NOT NULL,
  state                VARCHAR NOT NULL,
  creditDebitIndicator VARCHAR NOT NULL,
  amount               DECIMAL(38, 18) NOT NULL,
  currency             VARCHAR NOT NULL,
  fee                  DECIMAL(38, 18),
  total                DECIMAL(38, 18) NOT NULL,
  description          VARCHAR,
  category             VARCHAR,
  counterparty         VARCHAR,
  instant_utc          TIMESTAMPTZ
);

-- txfold list --per-account --format jsonl: one line per account, its page of transactions.
CREATE TABLE txfold_list_accounts_jsonl (
  account              VARCHAR NOT NULL,
  count                BIGINT NOT NULL,          -- matched before paging
  transactions         STRUCT(
                         id VARCHAR, instant VARCHAR, date DATE, state VARCHAR, creditDebitIndicator VARCHAR,
                         amount DECIMAL(38, 18), currency VARCHAR, fee DECIMAL(38, 18), total DECIMAL(38, 18),
                         description VARCHAR, category VARCHAR, counterparty VARCHAR
                       )[] NOT NULL,
  sum                  STRUCT(currency VARCHAR, count BIGINT, amount DECIMAL(38, 18), fees DECIMAL(38, 18), total DECIMAL(38, 18))[] NOT NULL,
  page                 STRUCT("offset" BIGINT, "limit" BIGINT, shown BIGINT, matched BIGINT) NOT NULL
);

-- txfold summary --format csv: one row per key and currency.
CREATE TABLE txfold_summary_csv (
  key                  VARCHAR NOT NULL,         -- (none) for transactions without one
  currency             VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  income               DECIMAL(38, 18) NOT NULL, -- zero or positive
  expense              DECIMAL(38, 18) NOT NULL  -- zero or negative
);

-- txfold summary --per-account --format csv.
CREATE TABLE txfold_summary_accounts_csv (
  account              VARCHAR NOT NULL,
  key                  VARCHAR NOT NULL,
  currency             VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  income               DECIMAL(38, 18) NOT NULL,
  expense              DECIMAL(38, 18) NOT NULL
);

-- txfold summary --format jsonl: one line per key.
CREATE TABLE txfold_summary_jsonl (
  key                  VARCHAR,                  -- NULL for transactions without one
  count                BIGINT NOT NULL,
  currencies           STRUCT(currency VARCHAR, count BIGINT, income DECIMAL(38, 18), expense DECIMAL(38, 18))[] NOT NULL
);

-- txfold summary --per-account --format jsonl: one line per account.
CREATE TABLE txfold_summary_accounts_jsonl (
  account              VARCHAR NOT NULL,
  count                BIGINT NOT NULL,
  "by"                 VARCHAR NOT NULL,
  entries              STRUCT(
                         key VARCHAR, count BIGINT,
                         currencies STRUCT(currency VARCHAR, count BIGINT, income DECIMAL(38, 18), expense DECIMAL(38, 18))[]
                       )[] NOT NULL,
  totals               STRUCT(currency VARCHAR, count BIGINT, income DECIMAL(38, 18), expense DECIMAL(38, 18))[] NOT NULL
);
