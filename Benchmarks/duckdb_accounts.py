# DuckDB's side of Benchmarks/compare-accounts.sh: the per-account grouping of `txfold group
# --per-account --format jsonl` as one query, one JSON line per account ordered by account.
import sys, duckdb
source, target = sys.argv[1], sys.argv[2]
limit = sys.argv[3] if len(sys.argv) > 3 else None
con = duckdb.connect()
if limit: con.execute(f"SET memory_limit = '{limit}'")
con.execute("""
COPY (
  WITH r AS (
    SELECT * FROM read_json($source, format = 'newline_delimited', columns = {
      'arrangementId': 'VARCHAR', 'id': 'VARCHAR', 'description': 'VARCHAR',
      'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
      'creditDebitIndicator': 'VARCHAR', 'creationTime': 'VARCHAR', 'state': 'VARCHAR'})),
  totals AS (
    SELECT arrangementId a, upper(state) s, substr(creationTime, 1, 10) d, creditDebitIndicator i,
           transactionAmountCurrency.currencyCode c,
           sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18))) amount
    FROM r GROUP BY ALL),
  groups AS (
    SELECT arrangementId a, upper(state) s, substr(creationTime, 1, 10) d, creditDebitIndicator i,
           count(*) n, max(creationTime) latest,
           max_by({id: id, description: description, amount: transactionAmountCurrency.amount,
                   currency: transactionAmountCurrency.currencyCode}, creationTime, 20) members
    FROM r GROUP BY ALL),
  joined AS (
    SELECT g.a, g.s, g.d, g.i, any_value(g.n) n, any_value(g.latest) latest, any_value(g.members) members,
           list({currency: t.c, amount: t.amount} ORDER BY t.c) totals
    FROM groups g JOIN totals t ON g.a = t.a AND g.s = t.s AND g.d = t.d AND g.i = t.i
    GROUP BY g.a, g.s, g.d, g.i)
  SELECT a AS account, sum(n) AS count,
         list({state: s, date: d, creditDebitIndicator: i, count: n, totals: totals, latest: latest,
               members: members} ORDER BY s, d DESC, i) AS groups
  FROM joined GROUP BY a ORDER BY a
) TO '""" + target.replace("'", "''") + """' (FORMAT json)
""", {"source": source})
