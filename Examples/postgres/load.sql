-- Upserts txfold's per-account report lines, read from standard input, into
-- txfold_accounts (schema.sql). Run by load.sh; by hand:
--
--   psql -X -v ON_ERROR_STOP=1 -v expected_accounts=80 -f load.sql < accounts.jsonl
--
-- With -v changed_only=1 (a --changed-only report, upsert.sh): the accounts it holds
-- are replaced, their old rows deleted first; every other row is left alone.
--
-- Standard input holds the account lines, as txfold writes them (a jsonl output holds
-- only its rows). expected_accounts (optional) is the "accounts" of the run's --stats
-- document: a different number of lines fails the load, and the error says both
-- numbers. Everything happens in one transaction, so a load that fails anywhere leaves
-- the table as it was.
\set ON_ERROR_STOP on

BEGIN;

TRUNCATE txfold_accounts_staging;

-- One line, one text value. The default text format would undo backslash escapes
-- (a description "a\\b" would lose a backslash, and "\\N" would become SQL NULL),
-- so CSV is used with quote and delimiter characters that never occur in txfold's
-- JSON: it escapes every control character inside strings, and control characters
-- cannot occur outside them. \copy … FROM pstdin reads psql's own standard input;
-- COPY … FROM STDIN would read from this script file instead.
\copy txfold_accounts_staging (line) FROM pstdin WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')

\if :{?expected_accounts}
-- psql does not put variables into a dollar-quoted body, so the number travels as a
-- setting of this transaction, and the message carries both real numbers.
SELECT set_config('txfold.expected_accounts', :'expected_accounts', true) AS expected_accounts_set \gset
DO $$
DECLARE
  received bigint := (SELECT count(*) FROM txfold_accounts_staging);
  expected text := current_setting('txfold.expected_accounts');
BEGIN
  IF expected !~ '^[0-9]+$' OR received <> expected::bigint THEN
    RAISE EXCEPTION 'load.sql: the input holds % account lines, but txfold''s --stats says % accounts; nothing was loaded',
      received, expected;
  END IF;
END $$;
\endif

-- jsonb cannot hold the character U+0000, which JSON text can (a description with
-- "\u0000"); such a line would fail the whole load. The escape is replaced by
-- "\ufffd" (the replacement character), only where it is an escape: after an even
-- number of backslashes, so a description holding a literal "\\u0000" stays as it is.
-- Parsed once here, for the delete and the upsert below; dropped at COMMIT.
CREATE TEMP TABLE txfold_tonight ON COMMIT DROP AS
SELECT CASE WHEN strpos(line, '\u0000') = 0 THEN line::jsonb
            ELSE regexp_replace(line, '(?<!\\)((?:\\\\)*)\\u0000', '\1\\ufffd', 'g')::jsonb
       END AS report
FROM txfold_accounts_staging;

\if :{?changed_only}
-- A --changed-only report holds each changed account whole and no other: its old rows go
-- first, so that the table holds tonight's report of it and nothing a report of it used to
-- have (one row per account here; a table of one row per group would keep stale groups
-- without this). Same transaction: a reader sees the old rows or the new, never neither.
DELETE FROM txfold_accounts WHERE account IN (SELECT report ->> 'account' FROM txfold_tonight);
\endif

-- The nightly rerun: a new account is inserted; an account already there gets
-- tonight's report, count and time. Accounts missing from tonight's output keep
-- their last report and loaded_at (README.md, "Accounts that disappear").
INSERT INTO txfold_accounts AS a (account, txn_count, report, loaded_at)
SELECT r.report ->> 'account', (r.report ->> 'count')::bigint, r.report, now()
FROM txfold_tonight AS r
ON CONFLICT (account) DO UPDATE SET
  txn_count = EXCLUDED.txn_count,
  report    = EXCLUDED.report,
  loaded_at = EXCLUDED.loaded_at;

TRUNCATE txfold_accounts_staging;

COMMIT;
