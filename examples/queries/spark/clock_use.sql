-- clock_use.sql for Spark SQL: the same query, with TRIM(TRAILING ... FROM ...) where SQLite,
-- PostgreSQL and DuckDB take RTRIM(text, characters) (Spark's two-argument RTRIM takes its
-- arguments the other way round). The other three queries run on Spark SQL as they are.
-- Average thinking time per move number, in seconds: the mover's clock before the move
-- minus the clock after it, plus the increment of the game's time control (`180+2`).
WITH timed AS (
    SELECT m.move_number,
        LAG(m.clock) OVER (PARTITION BY m.game_id, m.player ORDER BY m.ply) - m.clock
        + CASE WHEN g.time_control LIKE '%+%'
                    AND TRIM(TRAILING '0123456789' FROM g.time_control) LIKE '%+'
                    AND g.time_control NOT LIKE '%+'
               THEN CAST(SUBSTR(g.time_control,
                                LENGTH(TRIM(TRAILING '0123456789' FROM g.time_control)) + 1) AS INTEGER)
               ELSE 0 END AS spent
    FROM moves m
    JOIN games g ON g.id = m.game_id
    WHERE m.clock IS NOT NULL
)
SELECT move_number, count(*) AS moves, ROUND(CAST(avg(spent) AS DECIMAL(38, 10)), 2) AS avg_seconds
FROM timed
WHERE spent IS NOT NULL AND move_number <= 40
GROUP BY move_number
ORDER BY move_number;
