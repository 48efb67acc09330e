-- How each opening ends, for openings with at least 20 games: share of white wins, draws
-- and black wins, in percent.
SELECT eco, opening, count(*) AS games,
    ROUND(CAST(100.0 * sum(CASE WHEN result = '1-0' THEN 1 ELSE 0 END) / count(*)
               AS DECIMAL(38, 10)), 1) AS white_pct,
    ROUND(CAST(100.0 * sum(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END) / count(*)
               AS DECIMAL(38, 10)), 1) AS draw_pct,
    ROUND(CAST(100.0 * sum(CASE WHEN result = '0-1' THEN 1 ELSE 0 END) / count(*)
               AS DECIMAL(38, 10)), 1) AS black_pct
FROM games
WHERE opening IS NOT NULL
GROUP BY eco, opening
HAVING count(*) >= 20
ORDER BY games DESC, eco, opening;
