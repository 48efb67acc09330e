#!/usr/bin/env python3
"""Runs SQL on the Parquet files of `notate load --db parquet:DIR`, through DuckDB.

    pip install duckdb
    scripts/duckdb-query.py DIR < examples/queries/results_by_opening.sql
    scripts/duckdb-query.py DIR "SELECT count(*) FROM moves"

The tables `games` and `moves` are views over DIR/games/**/*.parquet and
DIR/moves/**/*.parquet, with `year` and `month` read from the hive partition paths, so the
same SQL runs as on SQLite and PostgreSQL. Prints {"columns": [...], "rows": [[...], ...]}
as JSON (decimals as numbers).
"""
import decimal
import json
import sys

import duckdb


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    directory = sys.argv[1].replace("'", "''")
    sql = sys.argv[2] if len(sys.argv) == 3 else sys.stdin.read()
    con = duckdb.connect()
    for table in ("games", "moves"):
        # By name: games files written before `id_check` lack that last column.
        con.execute(
            f"CREATE VIEW {table} AS SELECT * FROM read_parquet("
            f"'{directory}/{table}/**/*.parquet', hive_partitioning = true, "
            "union_by_name = true, hive_types = {'year': INTEGER, 'month': INTEGER})"
        )
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]

    def plain(value):
        return float(value) if isinstance(value, decimal.Decimal) else value

    rows = [[plain(v) for v in row] for row in cursor.fetchall()]
    json.dump({"columns": columns, "rows": rows}, sys.stdout, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
