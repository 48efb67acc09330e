#!/usr/bin/env python3
"""Checks notate's EGD against python-chess, an implementation that shares no code with it.

Usage: scripts/egd-crosscheck.py GAMES.pgn GAMES.egd.jsonl

Every EGD line is matched with the PGN game of the same number (games notate reported as
failed must be left out of both, or given as one file each). For every ply it recomputes the
FENs (en passant square after every double push), squares, LRAN, piece codes, move type,
captured piece, promotion and check/checkmate, and compares them field by field. It is how
the hand-checked expected files in crates/notate/tests/egd/ were verified.
"""
import json
import sys

import chess
import chess.pgn


def code(piece_type, square):
    if piece_type == chess.BISHOP:
        # a1 is dark: file + rank even.
        light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
        return "Bl" if light else "Bd"
    return "p" if piece_type == chess.PAWN else chess.piece_symbol(piece_type).upper()


def expected_move(board, move):
    from_sq, to_sq = move.from_square, move.to_square
    piece = board.piece_type_at(from_sq)
    name = chess.square_name
    if board.is_castling(move):
        short = chess.square_file(to_sq) > chess.square_file(from_sq)
        king_to = chess.square(6 if short else 2, chess.square_rank(from_sq))
        return {"lran": "O-O" if short else "O-O-O", "from_square": name(from_sq),
                "to_square": name(king_to), "piece": "K",
                "move_type": "short_castle" if short else "long_castle"}
    letter = "" if piece == chess.PAWN else chess.piece_symbol(piece).upper()
    out = {"from_square": name(from_sq), "to_square": name(to_sq),
           "piece": code(piece, to_sq)}
    if board.is_en_passant(move):
        out.update(lran=f"{name(from_sq)}x{name(to_sq)}", move_type="ep_capture",
                   captured_piece="p", piece="p")
        return out
    victim = board.piece_type_at(to_sq)
    promo = move.promotion
    lran = letter + name(from_sq)
    if victim:
        lran += "x" + ("" if victim == chess.PAWN else chess.piece_symbol(victim).upper())
    else:
        lran += "-"
    lran += name(to_sq)
    if promo:
        lran += "=" + chess.piece_symbol(promo).upper()
    out["lran"] = lran
    out["move_type"] = {(False, False): "move", (True, False): "capture",
                        (False, True): "promotion", (True, True): "promotion_capture"}[
        (victim is not None, promo is not None)]
    if victim:
        out["captured_piece"] = code(victim, to_sq)
    if promo:
        out["promotion"] = code(promo, to_sq)
    return out


def main():
    pgn_path, egd_path = sys.argv[1], sys.argv[2]
    problems = 0
    plies = 0
    with open(pgn_path, encoding="utf-8-sig") as pgn, open(egd_path) as egd:
        for number, line in enumerate(egd, 1):
            doc = json.loads(line)
            game = chess.pgn.read_game(pgn)
            board = game.board()
            moves = list(doc["moves"].items())
            mainline = list(game.mainline_moves())
            if len(moves) != len(mainline):
                print(f"game {number}: {len(moves)} EGD plies, python-chess reads {len(mainline)}")
                problems += 1
                continue
            for (key, ply), move in zip(moves, mainline):
                plies += 1
                want_key = f"{board.fullmove_number}{'w' if board.turn else 'b'}"
                fen_before = board.fen(en_passant="fen")
                want = expected_move(board, move)
                want["player"] = "w" if board.turn else "b"
                board.push(move)
                features = {}
                if board.is_check():
                    features["check"] = True
                if board.is_checkmate():
                    features["checkmate"] = True
                got = ply["move"]
                checks = [("key", key, want_key),
                          ("start fen", ply["start_position"]["fen"], fen_before),
                          ("end fen", ply["end_position"]["fen"], board.fen(en_passant="fen"))]
                checks += [(k, got.get(k), v) for k, v in want.items()]
                checks.append(("extra move keys", sorted(set(got) - set(want) - {"san"}), []))
                base = {k: v for k, v in ply["end_position"]["features"].items()
                        if k in ("check", "checkmate")}
                checks.append(("features", base, features))
                for what, have, should in checks:
                    if have != should:
                        print(f"game {number} {key}: {what} is {have!r}, python-chess says {should!r}")
                        problems += 1
    print(f"{plies} plies checked, {problems} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
