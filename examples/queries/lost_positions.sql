-- The positions one player (change the name on the next line) most often had on the board,
-- to move, in games they went on to lose; after the first five moves, at least two games.
WITH player AS (SELECT 'german11' AS name),
lost AS (
    SELECT g.id, CASE WHEN g.white = p.name THEN 'w' ELSE 'b' END AS side
    FROM games g, player p
    WHERE (g.white = p.name AND g.result = '0-1')
       OR (g.black = p.name AND g.result = '1-0')
)
SELECT m.fen_before AS position, count(DISTINCT m.game_id) AS lost_games
FROM lost l
JOIN moves m ON m.game_id = l.id AND m.player = l.side
WHERE m.ply > 10
GROUP BY m.fen_before
HAVING count(DISTINCT m.game_id) > 1
ORDER BY lost_games DESC, position
LIMIT 10;
