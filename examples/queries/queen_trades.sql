-- Results with and without a queen trade, for one player (change the name on the next
-- line). A queen trade: both queens captured within three plies of each other.
WITH player AS (SELECT 'german11' AS name),
trades AS (
    SELECT DISTINCT a.game_id
    FROM moves a
    JOIN moves b ON b.game_id = a.game_id
        AND b.ply > a.ply AND b.ply <= a.ply + 3
        AND b.player <> a.player
    WHERE a.captured_piece = 'Q' AND b.captured_piece = 'Q'
),
mine AS (
    SELECT g.id,
        CASE WHEN g.result = '1/2-1/2' THEN 'draw'
             WHEN (g.white = p.name AND g.result = '1-0')
               OR (g.black = p.name AND g.result = '0-1') THEN 'win'
             WHEN g.result IN ('1-0', '0-1') THEN 'loss'
             ELSE 'unfinished' END AS outcome
    FROM games g, player p
    WHERE g.white = p.name OR g.black = p.name
)
SELECT CASE WHEN t.game_id IS NULL THEN 'no queen trade' ELSE 'queen trade' END AS games,
    count(*) AS played,
    sum(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS won,
    sum(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS drawn,
    sum(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END) AS lost,
    ROUND(CAST(100.0 * sum(CASE WHEN outcome = 'win' THEN 1.0
                               WHEN outcome = 'draw' THEN 0.5 ELSE 0 END) / count(*)
               AS DECIMAL(38, 10)), 1) AS score_pct
FROM mine m
LEFT JOIN trades t ON t.game_id = m.id
GROUP BY 1
ORDER BY 1;
