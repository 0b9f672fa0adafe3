-- What txfold_accounts holds, per account, computed from the jsonb reports alone.
--
--   psql -X -f check.sql                      # two tables on the terminal
--   psql -X --csv -v counts_csv=counts.csv -v totals_csv=totals.csv -f check.sql
--
-- With counts_csv / totals_csv each result goes to that file instead (test.sh compares
-- them with expected.py). Amounts are cast from their JSON strings to numeric and
-- summed as numeric: exact, never through floating point.
\set ON_ERROR_STOP on

-- Per account: the stored count, and the sum of its groups' counts (the same number
-- unless the row is inconsistent).
\if :{?counts_csv}
\o :counts_csv
\endif
SELECT a.account,
       a.txn_count,
       (SELECT sum((g ->> 'count')::bigint)
        FROM jsonb_array_elements(a.report -> 'sections') AS s,
             jsonb_array_elements(s -> 'groups') AS g) AS groups_count
FROM txfold_accounts AS a
ORDER BY a.account COLLATE "C";   -- byte-wise, as txfold orders accounts
\o

-- Per account and currency: money in (CRDT), money out (DBIT) and the net. A group's
-- totals are magnitudes; its creditDebitIndicator gives the sign.
\if :{?totals_csv}
\o :totals_csv
\endif
SELECT a.account,
       t ->> 'currency' AS currency,
       coalesce(sum((t ->> 'amount')::numeric) FILTER (WHERE g ->> 'creditDebitIndicator' = 'CRDT'), 0) AS credit,
       coalesce(sum((t ->> 'amount')::numeric) FILTER (WHERE g ->> 'creditDebitIndicator' = 'DBIT'), 0) AS debit,
       sum(CASE g ->> 'creditDebitIndicator' WHEN 'DBIT' THEN -(t ->> 'amount')::numeric
                                             ELSE (t ->> 'amount')::numeric END) AS net
FROM txfold_accounts AS a,
     jsonb_array_elements(a.report -> 'sections') AS s,
     jsonb_array_elements(s -> 'groups') AS g,
     jsonb_array_elements(g -> 'totals') AS t
GROUP BY a.account, t ->> 'currency'
ORDER BY a.account COLLATE "C", (t ->> 'currency') COLLATE "C";
\o
