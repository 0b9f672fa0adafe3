# DuckDB's side of Benchmarks/per-account-queries.sh: `summary --per-account --by category` (count
# and exact sums per account, category, currency and indicator) or `list --per-account` (every
# transaction, by account then newest first), each as one query written to CSV. Prints the
# query's seconds in-process.
import sys
import time

import duckdb

job, source, target = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
columns = """{
  'arrangementId': 'VARCHAR', 'id': 'VARCHAR', 'description': 'VARCHAR', 'category': 'VARCHAR',
  'counterPartyName': 'VARCHAR', 'transactionAmountCurrency': 'STRUCT(amount VARCHAR, currencyCode VARCHAR)',
  'creditDebitIndicator': 'VARCHAR', 'creationTime': 'VARCHAR', 'state': 'VARCHAR'}"""
rows = f"read_json($source, format = 'newline_delimited', columns = {columns})"
target = target.replace("'", "''")
if job == "summary":
    query = f"""
    COPY (
      SELECT arrangementId AS account, category, transactionAmountCurrency.currencyCode AS currency,
             creditDebitIndicator, count(*) AS count,
             sum(CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18))) AS amount
      FROM {rows} GROUP BY ALL ORDER BY ALL
    ) TO '{target}' (HEADER, DELIMITER ',')"""
else:
    query = f"""
    COPY (
      SELECT arrangementId AS account, id, creationTime AS instant, substr(creationTime, 1, 10) AS date,
             upper(state) AS state, creditDebitIndicator,
             CAST(transactionAmountCurrency.amount AS DECIMAL(38, 18)) AS amount,
             upper(transactionAmountCurrency.currencyCode) AS currency, description, category,
             counterPartyName AS counterparty
      FROM {rows} ORDER BY account, creationTime::TIMESTAMPTZ DESC, id
    ) TO '{target}' (HEADER, DELIMITER ',')"""
started = time.perf_counter()
con.execute(query, {"source": source})
print("%.3f" % (time.perf_counter() - started))
