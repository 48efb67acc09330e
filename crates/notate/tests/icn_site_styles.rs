//! notate's 2025 ICN output pinned, byte for byte, to what infinitechess.org's converter
//! (`icnconverter.ts`, `LongToShort_Format`) writes for the same games in its styles. The
//! games are our own; each input is the site's text in its fullest style (pieces, `x`, `+`,
//! `#`, comments and clocks), and each expected text is the site's output for that game and
//! style (obtained with the site's converter: see `scripts/icn-site-compare`, which compares
//! generated games in all 64 styles).

use notate::infinite::short::{self, SiteStyle};

/// The styles: the site's own callers (copy game, board editor, server log) and others.
const COPY_GAME: SiteStyle = SiteStyle {
    compact: false,
    spaces: false,
    comments: false,
    move_numbers: false,
    make_new_lines: false,
    skip_position: false,
};
const EDITOR: SiteStyle = SiteStyle {
    compact: true,
    spaces: false,
    comments: false,
    move_numbers: false,
    make_new_lines: false,
    skip_position: false,
};
const SERVER_LOG: SiteStyle = SiteStyle {
    compact: true,
    spaces: false,
    comments: true,
    move_numbers: false,
    make_new_lines: false,
    skip_position: true,
};
const PRETTY: SiteStyle = SiteStyle {
    compact: false,
    spaces: true,
    comments: true,
    move_numbers: true,
    make_new_lines: true,
    skip_position: false,
};
const NUMBERED_COMPACT: SiteStyle = SiteStyle {
    compact: true,
    spaces: false,
    comments: false,
    move_numbers: true,
    make_new_lines: false,
    skip_position: false,
};
const SPACED_COMPACT: SiteStyle = SiteStyle {
    compact: true,
    spaces: true,
    comments: true,
    move_numbers: false,
    make_new_lines: true,
    skip_position: false,
};
const FULL_ONE_LINE: SiteStyle = SiteStyle {
    compact: false,
    spaces: false,
    comments: true,
    move_numbers: false,
    make_new_lines: false,
    skip_position: false,
};
const SPACED_NO_NUMBERS: SiteStyle = SiteStyle {
    compact: false,
    spaces: true,
    comments: false,
    move_numbers: false,
    make_new_lines: true,
    skip_position: false,
};

/// Reads `input`, writes it in each style, and compares with the site's text (`None`: the
/// site refuses that style for this game; notate's output is then not compared).
fn check(input: &str, expected: &[(SiteStyle, Option<&str>)]) {
    let game = short::read_one(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    for (style, want) in expected {
        let Some(want) = want else { continue };
        let got = short::to_string_with(&game, (*style).into()).unwrap();
        assert_eq!(got, format!("{want}\n"), "{style:?}");
        // The site's text reads back to the same game.
        let again = short::read_one(want).unwrap_or_else(|e| panic!("{want}: {e}"));
        assert_eq!(
            short::to_string_with(&again, (*style).into()).unwrap(),
            got,
            "{style:?}"
        );
    }
}

/// Classical with every known tag, a move rule, special rights, comments (one with two inner blanks, one of blanks only) and clocks (rounded up; 0).
#[test]
fn site_styles_classical_clock() {
    check(
        r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7 P4,2>4,4{[%clk 0:09:56.7] Queen's pawn,  two spaces}|p3,7>3,5{[%clk 0:09:59.1]}|P4,4x3,5{takes}|q4,8>4,1+{[%clk 0:00:00.0]}|K5,1x4,1"#,
        &[
            (
                COPY_GAME,
                Some(
                    r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7 P4,2>4,4|p3,7>3,5|P4,4x3,5|q4,8>4,1+|K5,1x4,1"#,
                ),
            ),
            (
                EDITOR,
                Some(
                    r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7 4,2>4,4|3,7>3,5|4,4>3,5|4,8>4,1|5,1>4,1"#,
                ),
            ),
            (
                SERVER_LOG,
                Some(
                    r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) 4,2>4,4{[%clk 0:09:56.7] Queen's pawn,  two spaces}|3,7>3,5{[%clk 0:09:59.1]}|4,4>3,5{takes}|4,8>4,1{[%clk 0:00:00.0]}|5,1>4,1"#,
                ),
            ),
            (
                PRETTY,
                Some(
                    r#"[Event "Rated Classical"]
[Site "https://www.infinitechess.org/"]
[Variant "Classical"]
[UTCDate "2025.03.04"]
[UTCTime "18:02:11"]
[TimeControl "600+5"]
[White "alice"]
[Black "bob"]
[WhiteElo "1500"]
[BlackElo "1488?"]
[Result "1-0"]
[Termination "Checkmate"]

w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7

1. P4,2 > 4,4 {[%clk 0:09:56.7] Queen's pawn,  two spaces} | p3,7 > 3,5 {[%clk 0:09:59.1]}
2. P4,4 x 3,5 {takes} | q4,8 > 4,1 + {[%clk 0:00:00.0]}
3. K5,1 x 4,1"#,
                ),
            ),
            (
                NUMBERED_COMPACT,
                Some(
                    r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7 1. 4,2>4,4 | 3,7>3,5 2. 4,4>3,5 | 4,8>4,1 3. 5,1>4,1"#,
                ),
            ),
            (
                SPACED_COMPACT,
                Some(
                    r#"[Event "Rated Classical"]
[Site "https://www.infinitechess.org/"]
[Variant "Classical"]
[UTCDate "2025.03.04"]
[UTCTime "18:02:11"]
[TimeControl "600+5"]
[White "alice"]
[Black "bob"]
[WhiteElo "1500"]
[BlackElo "1488?"]
[Result "1-0"]
[Termination "Checkmate"]

w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7

4,2 > 4,4 {[%clk 0:09:56.7] Queen's pawn,  two spaces} | 3,7 > 3,5 {[%clk 0:09:59.1]} | 4,4 > 3,5 {takes} | 4,8 > 4,1 {[%clk 0:00:00.0]} | 5,1 > 4,1"#,
                ),
            ),
            (
                FULL_ONE_LINE,
                Some(
                    r#"[Event "Rated Classical"] [Site "https://www.infinitechess.org/"] [Variant "Classical"] [UTCDate "2025.03.04"] [UTCTime "18:02:11"] [TimeControl "600+5"] [White "alice"] [Black "bob"] [WhiteElo "1500"] [BlackElo "1488?"] [Result "1-0"] [Termination "Checkmate"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7 P4,2>4,4{[%clk 0:09:56.7] Queen's pawn,  two spaces}|p3,7>3,5{[%clk 0:09:59.1]}|P4,4x3,5{takes}|q4,8>4,1+{[%clk 0:00:00.0]}|K5,1x4,1"#,
                ),
            ),
            (
                SPACED_NO_NUMBERS,
                Some(
                    r#"[Event "Rated Classical"]
[Site "https://www.infinitechess.org/"]
[Variant "Classical"]
[UTCDate "2025.03.04"]
[UTCTime "18:02:11"]
[TimeControl "600+5"]
[White "alice"]
[Black "bob"]
[WhiteElo "1500"]
[BlackElo "1488?"]
[Result "1-0"]
[Termination "Checkmate"]

w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|q4,8|p3,7

P4,2 > 4,4 | p3,7 > 3,5 | P4,4 x 3,5 | q4,8 > 4,1 + | K5,1 x 4,1"#,
                ),
            ),
        ],
    );
}

/// Black first from move 12: fairy and neutral pieces, 10^40 coordinates, en passant, several promotion ranks and other pieces for White only, a world border with `_`, the same win conditions in another order, `Squares:` and `Rays:`, a promotion with mate, a comment holding `{` and `|`.
#[test]
fn site_styles_fairy_big() {
    check(
        r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8 ha-3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001+{[%clk 1:00:00.1] hawk {leaps | far}|P1,7x2,8=AM#{underpromotion? no: amazon!}|NR8,8>9,10"#,
        &[
            (
                COPY_GAME,
                Some(
                    r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8 ha-3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001+|P1,7x2,8=AM#|NR8,8>9,10"#,
                ),
            ),
            (
                EDITOR,
                Some(
                    r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8 -3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001|1,7>2,8=AM|8,8>9,10"#,
                ),
            ),
            (
                SERVER_LOG,
                Some(
                    r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 -3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001{[%clk 1:00:00.1] hawk {leaps | far}|1,7>2,8=AM{underpromotion? no: amazon!}|8,8>9,10"#,
                ),
            ),
            (
                PRETTY,
                Some(
                    r#"[Variant "Omega_Squared"]
[UTCDate "2025.12.01"]
[UTCTime "00:00:00"]

b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8

12. ha-3,-10000000000000000000000000000000000000000 > -3,10000000000000000000000000000000000000001 + {[%clk 1:00:00.1] hawk {leaps | far} | P1,7 x 2,8 =AM # {underpromotion? no: amazon!}
13. NR8,8 > 9,10"#,
                ),
            ),
            (
                NUMBERED_COMPACT,
                Some(
                    r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8 12. -3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001 | 1,7>2,8=AM 13. 8,8>9,10"#,
                ),
            ),
            (
                SPACED_COMPACT,
                Some(
                    r#"[Variant "Omega_Squared"]
[UTCDate "2025.12.01"]
[UTCTime "00:00:00"]

b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8

-3,-10000000000000000000000000000000000000000 > -3,10000000000000000000000000000000000000001 {[%clk 1:00:00.1] hawk {leaps | far} | 1,7 > 2,8 =AM {underpromotion? no: amazon!} | 8,8 > 9,10"#,
                ),
            ),
            (
                FULL_ONE_LINE,
                Some(
                    r#"[Variant "Omega_Squared"] [UTCDate "2025.12.01"] [UTCTime "00:00:00"] b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8 ha-3,-10000000000000000000000000000000000000000>-3,10000000000000000000000000000000000000001+{[%clk 1:00:00.1] hawk {leaps | far}|P1,7x2,8=AM#{underpromotion? no: amazon!}|NR8,8>9,10"#,
                ),
            ),
            (
                SPACED_NO_NUMBERS,
                Some(
                    r#"[Variant "Omega_Squared"]
[UTCDate "2025.12.01"]
[UTCTime "00:00:00"]

b -3,6 7/50 12 (8,16;am,ha,n|) -10000000000000000000000000000000000000000,_,0,10000000000000000000000000000000000000000 (royalcapture,koth|koth,royalcapture) Squares:-42,76|16,86 Rays:23,94>-1,0|10000000000000000000000000000000000000000,-7>0,0 P1,7+|AM10000000000000000000000000000000000000000,-7|ha-3,-10000000000000000000000000000000000000000|ob0,0|vo2,2|k5,5|RO6,6|hu7,7|NR8,8

ha-3,-10000000000000000000000000000000000000000 > -3,10000000000000000000000000000000000000001 + | P1,7 x 2,8 =AM # | NR8,8 > 9,10"#,
                ),
            ),
        ],
    );
}

/// No tags (the server-log style is refused by the site), asymmetric win conditions, negative and several promotion ranks, rays only, one move with a clock only.
#[test]
fn site_styles_bare_position() {
    check(
        r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3 K1,1>1,2{[%clk 0:01:01.0]}"#,
        &[
            (
                COPY_GAME,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3 K1,1>1,2"#,
                ),
            ),
            (
                EDITOR,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3 1,1>1,2"#,
                ),
            ),
            (SERVER_LOG, None),
            (
                PRETTY,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3

3. K1,1 > 1,2 {[%clk 0:01:01.0]}"#,
                ),
            ),
            (
                NUMBERED_COMPACT,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3 3. 1,1>1,2"#,
                ),
            ),
            (
                SPACED_COMPACT,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3

1,1 > 1,2 {[%clk 0:01:01.0]}"#,
                ),
            ),
            (
                FULL_ONE_LINE,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3 K1,1>1,2{[%clk 0:01:01.0]}"#,
                ),
            ),
            (
                SPACED_NO_NUMBERS,
                Some(
                    r#"w 3 (-4;q,n|9,-9) (checkmate,allpiecescaptured|royalcapture) Rays:1,1>1,1 K1,1|k5,5|CH-1,3|ce2,-3

K1,1 > 1,2"#,
                ),
            ),
        ],
    );
}
