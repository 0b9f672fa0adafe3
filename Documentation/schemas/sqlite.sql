-- The column types of every csv and jsonl output of txfold, for SQLite
-- (Documentation/schemas/README.md: how to load each file with them, and why).
--
-- Amounts are TEXT, exactly as txfold wrote them: SQLite has no decimal type, and a column
-- declared DECIMAL or NUMERIC would store "12.34" as a binary double (inexact, and "3839.90"
-- would lose its scale). Sum them with an exact aggregate (Examples/postgres/load_sqlite.py's
-- dsum over Python's decimal.Decimal), never with sum(). The CHECKs keep them decimal text.
-- Instants stay TEXT as written; the *_utc column (ISO 8601 in UTC, milliseconds) is computed
-- from it; a timestamp without an offset is taken as UTC, as txfold takes it without
-- --timezone. A jsonl output's lists are JSON text (json_valid), read with json_each.
-- Text cells of a csv may start with ' (txfold's guard against spreadsheet formulas).

-- txfold group --format csv: one row per group and currency.
CREATE TABLE IF NOT EXISTS txfold_group_csv (
  state                TEXT NOT NULL,
  date                 TEXT NOT NULL CHECK (date IS strftime('%Y-%m-%d', date)),
  creditDebitIndicator TEXT NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                INTEGER NOT NULL,
  currency             TEXT,             -- NULL only for a group without totals
  currencyCount        INTEGER,
  amount               TEXT CHECK (amount GLOB '[0-9]*' OR amount GLOB '-[0-9]*'),
  latest               TEXT NOT NULL,
  latest_utc           TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ',
                         CASE WHEN latest GLOB '*T*[+-][0-9][0-9][0-9][0-9]'
                              THEN substr(latest, 1, length(latest) - 2) || ':' || substr(latest, -2)
                              ELSE latest END)) VIRTUAL
);

-- txfold group --per-account --format csv: the same after a first column account.
CREATE TABLE IF NOT EXISTS txfold_group_accounts_csv (
  account              TEXT NOT NULL,
  state                TEXT NOT NULL,
  date                 TEXT NOT NULL CHECK (date IS strftime('%Y-%m-%d', date)),
  creditDebitIndicator TEXT NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                INTEGER NOT NULL,
  currency             TEXT,
  currencyCount        INTEGER,
  amount               TEXT CHECK (amount GLOB '[0-9]*' OR amount GLOB '-[0-9]*'),
  latest               TEXT NOT NULL,
  latest_utc           TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ',
                         CASE WHEN latest GLOB '*T*[+-][0-9][0-9][0-9][0-9]'
                              THEN substr(latest, 1, length(latest) - 2) || ':' || substr(latest, -2)
                              ELSE latest END)) VIRTUAL
);

-- txfold group --format jsonl (and merge): one line per group.
CREATE TABLE IF NOT EXISTS txfold_group_jsonl (
  state                TEXT NOT NULL,
  date                 TEXT NOT NULL CHECK (date IS strftime('%Y-%m-%d', date)),
  creditDebitIndicator TEXT NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  count                INTEGER NOT NULL,
  totals               TEXT NOT NULL CHECK (json_valid(totals)),        -- [{"currency", "amount"}]
  latest               TEXT NOT NULL,
  transactions         TEXT NOT NULL CHECK (json_valid(transactions)),  -- [{"id", "description"?, "amount", "currency", "instant"}]
  latest_utc           TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ',
                         CASE WHEN latest GLOB '*T*[+-][0-9][0-9][0-9][0-9]'
                              THEN substr(latest, 1, length(latest) - 2) || ':' || substr(latest, -2)
                              ELSE latest END)) VIRTUAL
);

-- txfold group --per-account --format jsonl: one line per account.
CREATE TABLE IF NOT EXISTS txfold_group_accounts_jsonl (
  account              TEXT PRIMARY KEY,
  count                INTEGER NOT NULL,
  sections             TEXT NOT NULL CHECK (json_valid(sections))
);

-- txfold list --format csv and --format jsonl: one row per transaction (the same columns).
CREATE TABLE IF NOT EXISTS txfold_list (
  id                   TEXT NOT NULL,
  instant              TEXT NOT NULL,
  date                 TEXT NOT NULL CHECK (date IS strftime('%Y-%m-%d', date)),
  state                TEXT NOT NULL,
  creditDebitIndicator TEXT NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  amount               TEXT NOT NULL CHECK (amount GLOB '[0-9]*' OR amount GLOB '-[0-9]*'),
  currency             TEXT NOT NULL,
  fee                  TEXT CHECK (fee GLOB '[0-9]*' OR fee GLOB '-[0-9]*'),
  total                TEXT NOT NULL CHECK (total GLOB '[0-9]*' OR total GLOB '-[0-9]*'),
  description          TEXT,
  category             TEXT,
  counterparty         TEXT,
  instant_utc          TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ',
                         CASE WHEN instant GLOB '*T*[+-][0-9][0-9][0-9][0-9]'
                              THEN substr(instant, 1, length(instant) - 2) || ':' || substr(instant, -2)
                              ELSE instant END)) VIRTUAL
);

-- txfold list --per-account --format csv.
CREATE TABLE IF NOT EXISTS txfold_list_accounts_csv (
  account              TEXT NOT NULL,
  id                   TEXT NOT NULL,
  instant              TEXT NOT NULL,
  date                 TEXT NOT NULL CHECK (date IS strftime('%Y-%m-%d', date)),
  state                TEXT NOT NULL,
  creditDebitIndicator TEXT NOT NULL CHECK (creditDebitIndicator IN ('CRDT', 'DBIT')),
  amount               TEXT NOT NULL CHECK (amount GLOB '[0-9]*' OR amount GLOB '-[0-9]*'),
  currency             TEXT NOT NULL,
  fee                  TEXT CHECK (fee GLOB '[0-9]*' OR fee GLOB '-[0-9]*'),
  total                TEXT NOT NULL CHECK (total GLOB '[0-9]*' OR total GLOB '-[0-9]*'),
  description          TEXT,
  category             TEXT,
  counterparty         TEXT,
  instant_utc          TEXT GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ',
                         CASE WHEN instant GLOB '*T*[+-][0-9][0-9][0-9][0-9]'
                              THEN substr(instant, 1, length(instant) - 2) || ':' || substr(instant, -2)
                              ELSE instant END)) VIRTUAL
);

-- txfold list --per-account --format jsonl: one line per account, its page of transactions.
CREATE TABLE IF NOT EXISTS txfold_list_accounts_jsonl (
  account              TEXT PRIMARY KEY,
  count                INTEGER NOT NULL,
  transactions         TEXT NOT NULL CHECK (json_valid(transactions)),
  sum                  TEXT NOT NULL CHECK (json_valid(sum)),
  page                 TEXT NOT NULL CHECK (json_valid(page))
);

-- txfold summary --format csv: one row per key and currency.
CREATE TABLE IF NOT EXISTS txfold_summary_csv (
  key                  TEXT NOT NULL,    -- (none) for transactions without one
  currency             TEXT NOT NULL,
  count                INTEGER NOT NULL,
  income               TEXT NOT NULL CHECK (income GLOB '[0-9]*'),
  expense              TEXT NOT NULL CHECK (expense GLOB '[0-9]*' OR expense GLOB '-[0-9]*')
);

-- txfold summary --per-account --format csv.
CREATE TABLE IF NOT EXISTS txfold_summary_accounts_csv (
  account              TEXT NOT NULL,
  key                  TEXT NOT NULL,
  currency             TEXT NOT NULL,
  count                INTEGER NOT NULL,
  income               TEXT NOT NULL CHECK (income GLOB '[0-9]*'),
  expense              TEXT NOT NULL CHECK (expense GLOB '[0-9]*' OR expense GLOB '-[0-9]*')
);

-- txfold summary --format jsonl: one line per key.
CREATE TABLE IF NOT EXISTS txfold_summary_jsonl (
  key                  TEXT,             -- NULL for transactions without one
  count                INTEGER NOT NULL,
  currencies           TEXT NOT NULL CHECK (json_valid(currencies))
);

-- txfold summary --per-account --format jsonl: one line per account.
CREATE TABLE IF NOT EXISTS txfold_summary_accounts_jsonl (
  account              TEXT PRIMARY KEY,
  count                INTEGER NOT NULL,
  "by"                 TEXT NOT NULL,
  entries              TEXT NOT NULL CHECK (json_valid(entries)),
  totals               TEXT NOT NULL CHECK (json_valid(totals))
);
