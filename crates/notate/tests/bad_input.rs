//! Bad input never panics, costs linear time, and every failure names its place.

use notate::chess::egd;
use notate::chess::pgn::{self, read_chunk, GameSplitter, Keep, ReadOptions};
use notate::chess::rows::{RowBatch, RowWriter};
use notate::chess::{json, replay};
use proptest::prelude::*;

/// Reads everything, replays every game, and checks that each error points into the input.
fn read_everything(bytes: &[u8]) -> usize {
    let mut games = 0;
    let mut splitter = GameSplitter::new(bytes, 1 << 16);
    let mut reads = Vec::new();
    while let Some(chunk) = splitter.next_chunk().expect("reading from memory") {
        reads.extend(read_chunk(&chunk, ReadOptions::default()));
    }
    for read in reads {
        games += 1;
        for warning in &read.warnings {
            let place = warning.place.expect("a warning has a place");
            assert!(place.line >= 1 && place.column >= 1);
        }
        match read.game.and_then(replay) {
            Ok(game) => {
                pgn::to_string(&game).unwrap();
                json::to_string(&game).unwrap();
                // EGD, extended, and back: whatever was read can be written.
                let options = egd::WriteOptions {
                    extended: true,
                    pretty: false,
                };
                if let Ok(line) = egd::to_string_with(&game, options) {
                    let back = egd::read_one(&line).unwrap();
                    assert_eq!(back.moves.plies.len(), game.moves.plies.len());
                }
                // Table rows: one per ply, each position the next one's start, or nothing
                // and an error saying why (a null move).
                let mut rows = RowBatch::new();
                match RowWriter::new().write(&game, &mut rows) {
                    Ok(()) => {
                        assert_eq!(rows.moves.len(), game.moves.plies.len());
                        for pair in rows.moves.windows(2) {
                            assert_eq!(rows.text(pair[0].fen_after), rows.text(pair[1].fen_before));
                        }
                    }
                    Err(e) => {
                        assert!(rows.is_empty() && rows.text_bytes() == 0);
                        assert!(!e.message.is_empty());
                    }
                }
            }
            Err(failed) => {
                assert!(failed.error.offset().unwrap() <= bytes.len(), "{failed:?}");
                assert!(!failed.error.message.is_empty());
            }
        }
    }
    games
}

/// Applies edits (where, what, how: 0 replaces, 1 inserts, 2 deletes) to a sequence.
fn mutate<T>(mut items: Vec<T>, edits: Vec<(prop::sample::Index, T, u8)>) -> Vec<T> {
    for (at, item, kind) in edits {
        let i = at.index(items.len().max(1));
        match kind {
            0 if i < items.len() => items[i] = item,
            1 => items.insert(i.min(items.len()), item),
            _ if i < items.len() => {
                items.remove(i);
            }
            _ => {}
        }
    }
    items
}

/// A reader that hands out its bytes in reads of the given sizes, in turn.
struct Trickle<'a> {
    bytes: &'a [u8],
    sizes: &'a [usize],
    reads: usize,
}

impl<'a> Trickle<'a> {
    fn new(bytes: &'a [u8], sizes: &'a [usize]) -> Self {
        Trickle {
            bytes,
            sizes,
            reads: 0,
        }
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.sizes[self.reads % self.sizes.len()]
            .min(out.len())
            .min(self.bytes.len());
        self.reads += 1;
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Generated games with every PGN feature (tags, clocks, evals, variations, NAGs, FEN starts).
static SAMPLE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| notate_testdata::pgn(10, 40));
const EGD_SAMPLE: &str = include_str!("../../../vectors/egd/c05_en_passant_both_sides.json");
const ANNOTATED: &str = include_str!("../../../vectors/egd/c10_annotated_nags_variations.pgn");

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        read_everything(&bytes);
    }

    #[test]
    fn pgn_alphabet_never_panics(text in "[\\[\\]{}()$!?;%*.0-9a-hNBRQKOx=+#\\- \\n\"\\\\]{0,400}") {
        read_everything(text.as_bytes());
    }

    #[test]
    fn mutated_games_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..12),
        annotated in any::<bool>(),
    ) {
        let bytes = mutate(if annotated { ANNOTATED } else { SAMPLE.as_str() }.as_bytes().to_vec(), edits);
        read_everything(&bytes);
    }

    #[test]
    fn validating_finds_what_reading_then_replaying_finds(
        text in "(\\[White \"[a-z]{0,3}\"\\]\n|\n|[ {};()]|\\$[0-9]|[0-9]\\. |(e4|e5|d4|d5|Nf3|Nc6|Ke2|Ke5|Zz9x|--) |\\{ \\[%clk 0:05:00\\] \\} |(1-0|\\*)\n){0,120}",
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..8),
        sample in 0u8..3,
    ) {
        // `notate check` validates as it reads (moves played, not kept); `convert` reads,
        // then replays. Both must find the same games, failing at the same place and ply,
        // with as many warnings.
        let bytes = match sample {
            0 => mutate(ANNOTATED.as_bytes().to_vec(), edits),
            1 => mutate(SAMPLE.as_bytes().to_vec(), edits),
            _ => mutate(text.into_bytes(), edits),
        };
        let verdicts = |keep: Keep| {
            let options = ReadOptions { keep, ..ReadOptions::default() };
            let mut splitter = GameSplitter::with_limits(bytes.as_slice(), 1 << 16, options);
            let mut out = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                for read in read_chunk(&chunk, options) {
                    let warnings = read.warnings.len();
                    out.push(match read.game.and_then(replay) {
                        Ok(_) => (None, None, None, warnings),
                        Err(mut f) => {
                            f.error.locate(&mut chunk.locator());
                            (f.error.offset(), f.error.ply, f.error.token, warnings)
                        }
                    });
                }
            }
            out
        };
        prop_assert_eq!(verdicts(Keep::Nothing), verdicts(Keep::Moves));
    }

    #[test]
    fn chunking_never_changes_what_is_read(cut in 1usize..4096) {
        // However the stream is cut into chunks, the same games come out.
        let whole: Vec<_> = read_chunk(
            &GameSplitter::new(SAMPLE.as_bytes(), 1 << 30).next_chunk().unwrap().unwrap(),
            ReadOptions::default(),
        ).into_iter().map(|r| r.game.map(|g| g.moves.plies.len()).map_err(|f| f.error)).collect();
        let mut splitter = GameSplitter::new(SAMPLE.as_bytes(), cut);
        let mut pieces = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            pieces.extend(read_chunk(&chunk, ReadOptions::default()).into_iter().map(|r| r.game.map(|g| g.moves.plies.len()).map_err(|f| f.error)));
        }
        prop_assert_eq!(whole.len(), pieces.len());
    }

    #[test]
    fn reads_in_any_sizes_cut_the_same_games(
        text in "(\\[[a-zA-Z]{1,5} \"[^\"\n]{0,8}\"\\]\n|\n|[ {};%(\\[]|[0-9]{1,2}\\. |[a-h][1-8] |\\{ \\[%clk 0:05:00\\] \\} |1-0\n){0,300}",
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..6),
        sizes in proptest::collection::vec(1usize..200, 1..16),
        chunk_bytes in 1usize..2000,
        bom in any::<bool>(),
        first_bytes in 1usize..500,
        told_length in proptest::option::of(0u64..10_000),
    ) {
        // Where games start must not depend on how the input arrives: in one read, or in
        // reads of any sizes, which end anywhere in a line, a comment, a byte-order mark or
        // a block of the scan; nor on the sizes chunks are cut at (a first chunk of any size,
        // the last ones cut smaller for a length told, right or wrong).
        let mut bytes = mutate(text.into_bytes(), edits);
        if bom {
            bytes.splice(0..0, *b"\xEF\xBB\xBF");
        }
        let games_of = |reader: &mut dyn std::io::Read, chunk_bytes: usize, told: Option<u64>| {
            let mut splitter = GameSplitter::new(reader, chunk_bytes);
            if let Some(length) = told {
                splitter = splitter.starting_at(first_bytes).input_bytes(length);
            }
            let mut games = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                let first = chunk.first_byte as usize;
                games.extend(chunk.games.iter().map(|g| g.start + first..g.end + first));
            }
            games
        };
        let whole = games_of(&mut &bytes[..], 1 << 20, None);
        let mut trickle = Trickle { bytes: &bytes, sizes: &sizes, reads: 0 };
        prop_assert_eq!(&games_of(&mut trickle, chunk_bytes, None), &whole);
        let mut trickle = Trickle { bytes: &bytes, sizes: &sizes, reads: 0 };
        // The true length, or any other.
        let told = told_length.unwrap_or(bytes.len() as u64);
        prop_assert_eq!(games_of(&mut trickle, chunk_bytes, Some(told)), whole);
    }

    #[test]
    fn reads_in_any_sizes_skip_games_too_large_alike(
        text in "(\\[[a-zA-Z]{1,3} \"[^\"\n]{0,6}\"\\]\n|\n|\n\n| {1,40}|[ {};%\\[]|[{}] \\[A \"b\"\\]\n|1\\. |[a-h][1-8] |1-0 |\\* |\\{ [a-z ]{0,30} \\} |1-0\n){0,400}",
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..6),
        sizes in proptest::collection::vec(1usize..200, 1..16),
        chunk_bytes in 1usize..2000,
        max_game_bytes in 0usize..600,
        max_tag_bytes in 0usize..80,
    ) {
        // A game over the size limit is handed out as its head and its rest skipped without
        // being kept: where the skip ends (the next game's start) must not depend on how the
        // input arrives either, however much of the skipped text is gone when it is decided.
        // Small limits make the skip drop bytes often (it keeps the longest tag line's worth).
        let bytes = mutate(text.into_bytes(), edits);
        let limits = ReadOptions { max_game_bytes, max_tag_bytes, ..ReadOptions::default() };
        let games_of = |reader: &mut dyn std::io::Read, chunk_bytes: usize| {
            let mut splitter = GameSplitter::with_limits(reader, chunk_bytes, limits);
            let mut games = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                let first = chunk.first_byte as usize;
                games.extend(chunk.games.iter().enumerate().map(|(k, g)| {
                    (g.start + first..g.end + first, chunk.oversized.contains(&k))
                }));
            }
            games
        };
        let whole = games_of(&mut &bytes[..], 1 << 20);
        let mut trickle = Trickle { bytes: &bytes, sizes: &sizes, reads: 0 };
        prop_assert_eq!(games_of(&mut trickle, chunk_bytes), whole);
    }

    #[test]
    fn blanks_between_games_count_for_neither_and_no_game_is_lost(
        leading in "[ \t\n]{0,30}",
        games in proptest::collection::vec(
            (1usize..4, proptest::option::of(0usize..12), "[ \t\n]{0,50}"),
            1..8,
        ),
        max_game_bytes in 0usize..60,
        sizes in proptest::collection::vec(1usize..40, 1..8),
    ) {
        // Games without tags, each ending with its result and a line break, perhaps a
        // comment after it, then blanks. A game is too large when its text (to its last byte
        // that is not blank) is over the limit, or its blanks after it take it past twice the
        // limit; the next game is read either way, whole or in reads of any sizes.
        let limits = ReadOptions { max_game_bytes, ..ReadOptions::default() };
        let mut text = leading;
        let mut expected = Vec::new();
        for (moves, note, blanks) in &games {
            let start = text.len();
            text.push_str(&"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 "[..[9, 20, 30][moves - 1]]);
            text.push_str("*\n");
            if let Some(n) = note {
                text.push_str(&format!("{{{}}}\n", "x".repeat(*n)));
            }
            let content = text.trim_end().len() - start;
            text.push_str(blanks);
            // (The next game starts here; the last one runs to the end of the input.)
            let bytes = text.len() - start;
            let too_large = content > max_game_bytes || bytes > 2 * max_game_bytes;
            expected.push(if too_large {
                format!("game longer than {max_game_bytes} bytes, skipped")
            } else {
                "None".to_string()
            });
        }
        prop_assert_eq!(&events_of(text.as_bytes(), 1 << 20, limits), &expected, "{:?}", text);
        let events = events_of(Trickle::new(text.as_bytes(), &sizes), 64, limits);
        prop_assert_eq!(&events, &expected, "{:?}, reads {:?}", text, sizes);
    }

    #[test]
    fn json_reader_takes_any_string(text in ".{0,300}") {
        let _ = json::read_str(&text);
    }

    #[test]
    fn egd_reader_takes_any_string(text in ".{0,300}") {
        for game in egd::Reader::new(text.as_bytes()) {
            if let Err(e) = game {
                prop_assert!(e.place.is_some_and(|p| p.line >= 1 && p.column >= 1), "{:?}", e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn egd_reader_takes_mutated_egd(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0u8..3), 1..8),
    ) {
        let text: String = mutate(EGD_SAMPLE.trim_end().chars().collect(), edits).into_iter().collect();
        if let Err(e) = egd::read_one(&text) {
            prop_assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn hostile_inputs_are_linear() {
    // Each is 4 MB of one pathological pattern; all must finish quickly (a quadratic scan of
    // any of them would take minutes). No timing asserted: a hang is the failure.
    for pattern in [
        &b"{"[..],
        b"(",
        b")",
        b"[",
        b"1. ",
        b"e4 ",
        b"$1 ",
        b"\n",
        b"[a \"",
        b"{ [\n",
        // Comments left open before the next game's tags: each `{` searched the rest of
        // the buffer for a `}` (9.7 s for 4 MB), whether there was one or not.
        b"{\n\n[A \"b\"]\n1. e4 ",
        &[&b"{\n\n[A \"b\"]\n1. e4 ".repeat(10_000)[..], b"}\n"].concat(),
    ] {
        let input: Vec<u8> = pattern.iter().copied().cycle().take(4 << 20).collect();
        read_everything(&input);
    }
    // A line of games long enough to be looked through for each game's start, then a word,
    // a comment and a `;` comment of megabytes, read 1 KiB at a time: each read goes on
    // where the search for the token's end stopped (from its start, 4,000 reads of 4 MB).
    for tail in [&b"a"[..], b"{", b";"] {
        let mut input = b"1. e4 e5 1-0 ".repeat(6_000);
        input.extend_from_slice(b"1. e4 ");
        input.extend(
            tail.iter()
                .copied()
                .cycle()
                .take(1)
                .chain(std::iter::repeat_n(b'a', 4 << 20)),
        );
        let mut splitter = GameSplitter::new(Trickle::new(&input, &[1024]), 1 << 16);
        let mut ranges = 0;
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            ranges += chunk.games.len();
        }
        assert_eq!(ranges, 6_001);
    }
    // A tag left open on its line, then a line of megabytes that may go on with it, in a
    // line long enough to be looked through: each read looks at the new bytes only (it
    // looked through the tag's first line again).
    let mut input = b"1. e4 e5 1-0 ".repeat(6_000);
    input.extend_from_slice(b"\n[A \"");
    input.extend(std::iter::repeat_n(b'x', 4 << 20));
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b'y', 4 << 20));
    let mut splitter = GameSplitter::new(Trickle::new(&input, &[1024]), 1 << 16);
    while splitter.next_chunk().unwrap().is_some() {}
    // A comment never closed, whose line after a blank line may be a tag line until its end
    // is read: each read looks at the new bytes only.
    let mut input = b"1. e4 {\n\n[".to_vec();
    input.resize(4 << 20, b'a');
    read_everything(&input);
}

/// Every game of `bytes`, split into chunks of about `chunk_bytes`.
fn read_in_chunks(
    bytes: &[u8],
    chunk_bytes: usize,
    limits: ReadOptions,
) -> Vec<notate::chess::pgn::ReadGame> {
    let mut splitter = GameSplitter::with_limits(bytes, chunk_bytes, limits);
    let mut results = Vec::new();
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        results.extend(read_chunk(&chunk, limits));
    }
    results
}

/// Each game of `input` as its `Event` tag (`Some("b")`), or its error message.
fn events_of(input: impl std::io::Read, chunk_bytes: usize, limits: ReadOptions) -> Vec<String> {
    let mut splitter = GameSplitter::with_limits(input, chunk_bytes, limits);
    let mut events = Vec::new();
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        for read in read_chunk(&chunk, limits) {
            events.push(match read.game {
                Ok(game) => format!("{:?}", game.tags.get("Event")),
                Err(failed) => failed.error.message,
            });
        }
    }
    events
}

#[test]
fn oversized_game_is_reported_and_skipped() {
    let mut text = String::from("[Event \"big\"]\n\n1. e4 {");
    text.push_str(&"x".repeat(3000));
    text.push_str("} e5 *\n\n[Event \"next\"]\n\n1. d5 *\n");
    let limits = ReadOptions {
        max_game_bytes: 1000,
        ..ReadOptions::default()
    };
    let results = read_in_chunks(text.as_bytes(), 512, limits);
    assert_eq!(results.len(), 2);
    let failed = results[0].game.as_ref().unwrap_err();
    assert_eq!(failed.tags.get("Event"), Some("big"));
    assert!(failed.error.message.contains("longer than 1000 bytes"));
    let next = results[1].game.as_ref().unwrap();
    assert_eq!(next.tags.get("Event"), Some("next"));
    // Places after the skipped game are still right.
    let next = replay(next.clone()).unwrap_err();
    assert_eq!(next.error.offset(), Some(results[1].start + 19));
    // Found too large where the scan stopped at a line start to see more (`1` and the end of
    // a read: `1.` or `1...`?): it took bytes it had not scanned out of the buffer, and
    // panicked; then, skipping, it waited for bytes it never read. And found too large at
    // its last byte: what was left of it to skip was the blank line before the next game,
    // which the skip took for part of the game, so it skipped that game too.
    let limits = ReadOptions {
        max_game_bytes: 100,
        ..limits
    };
    for (head, rest) in [
        (format!("1. e4 {{{}}}\n1", "x".repeat(300)), ". e5 *"),
        ("1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 ".repeat(8) + "1-0", ""),
    ] {
        let head = format!("[Event \"big\"]\n\n{head}");
        let text = format!("{head}{rest}\n\n[Event \"next\"]\n\n1. d4 *\n");
        let sizes = [head.len(), 1000];
        let events = events_of(Trickle::new(text.as_bytes(), &sizes), 4096, limits);
        let expected = ["game longer than 100 bytes, skipped", "Some(\"next\")"];
        assert_eq!(events, expected, "{head}");
    }
}

#[test]
fn a_game_that_ends_within_the_limit_is_not_too_large_while_its_end_is_read() {
    // An unclosed comment ends at the next game's tags after a blank line, which are known to
    // be tags only once their line is read: past the limit, but the game ends before it.
    let limits = ReadOptions {
        max_game_bytes: 200,
        ..ReadOptions::default()
    };
    let text = format!(
        "[Event \"a\"]\n\n1. e4 {{open {}\n\n[Event \"b, a tag line that ends past the limit\"]\n\n1. d4 *\n",
        "x".repeat(160)
    );
    for sizes in [&[1][..], &[7], &[1 << 20]] {
        let mut splitter =
            GameSplitter::with_limits(Trickle::new(text.as_bytes(), sizes), 64, limits);
        let mut events = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            for read in read_chunk(&chunk, limits) {
                events.push(
                    read.game
                        .map(|game| game.moves.plies.len())
                        .map_err(|f| f.error.message),
                );
            }
        }
        assert_eq!(
            events,
            [Err("comment is not closed by `}`".to_string()), Ok(1)],
            "reads {sizes:?}"
        );
    }
}

#[test]
fn a_comment_over_the_limit_is_read_to_its_end() {
    // The comment fails its game, whatever the sizes of the reads and chunks; a tag line
    // in it (no blank line before) starts no game, and its `}` fails no other.
    let limits = ReadOptions {
        max_comment_bytes: 1000,
        max_game_bytes: 8000,
        ..ReadOptions::default()
    };
    let read = |text: &str, sizes: &[usize], chunk_bytes: usize| -> Vec<Result<String, String>> {
        let trickle = Trickle::new(text.as_bytes(), sizes);
        let mut splitter = GameSplitter::with_limits(trickle, chunk_bytes, limits);
        let mut games = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            games.extend(
                read_chunk(&chunk, limits)
                    .into_iter()
                    .map(|read| match read.game {
                        Ok(game) => Ok(game.tags.get("Event").unwrap_or_default().to_string()),
                        Err(failed) => Err(format!(
                            "{}: {}",
                            failed.tags.get("Event").unwrap_or_default(),
                            failed.error.message
                        )),
                    }),
            );
        }
        games
    };
    let long = "x".repeat(3000);
    let closed = format!(
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 {{{long}\n[Event \"inside\"]\n\
         1. d4 *\n}} e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n"
    );
    // Left open before the next game's tags, after a blank line: that game starts there.
    let open = format!(
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 {{{long}\n\n[Event \"c\"]\n\n\
         1. d4 *\n"
    );
    // Left open with no blank line before the next tags: the comment runs on, and the game
    // is too large before its end.
    let swallowing =
        format!("[Event \"b\"]\n\n1. e4 {{{long}{long}{long}\n[Event \"c\"]\n\n1. d4 *\n");
    for sizes in [&[1][..], &[7, 300], &[4096], &[1 << 20]] {
        for chunk_bytes in [64, 512, 1 << 20] {
            let place = format!("reads {sizes:?}, chunks of {chunk_bytes}");
            for (text, why) in [
                (&closed, "comment longer than 1000 bytes"),
                (&open, "comment is not closed by `}`"),
            ] {
                let expected = [Ok("a".into()), Err(format!("b: {why}")), Ok("c".into())];
                assert_eq!(read(text, sizes, chunk_bytes), expected, "{place}");
            }
            assert_eq!(
                read(&swallowing, sizes, chunk_bytes),
                [Err("b: game longer than 8000 bytes, skipped".to_string())],
                "{place}"
            );
        }
    }
}

#[test]
fn games_without_tags_are_cut_apart_after_the_notes_that_end_them() {
    // Each game its own range, so a file of them streams (and is read on every core), and
    // none is too large: a comment, `;` comment or `%` line after a result ends its game too.
    let game = |k: usize| {
        let notes = ["{won}", "; won", "{a} {b}\n% escaped"][k % 3];
        format!("1. e4 e5 2. Nf3 1-0 {notes}\n")
    };
    let text: String = (0..60).map(game).collect();
    let limits = ReadOptions {
        max_game_bytes: 100,
        ..ReadOptions::default()
    };
    for sizes in [&[1][..], &[7, 300], &[1 << 20]] {
        for chunk_bytes in [64, 512, 1 << 20] {
            let trickle = Trickle::new(text.as_bytes(), sizes);
            let mut splitter = GameSplitter::with_limits(trickle, chunk_bytes, limits);
            let mut ranges = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                assert!(chunk.oversized.is_empty());
                let first = chunk.first_byte as usize;
                ranges.extend(chunk.games.iter().map(|g| g.start + first..g.end + first));
                assert!(read_chunk(&chunk, limits)
                    .iter()
                    .all(|read| read.game.is_ok()));
            }
            let starts: Vec<usize> = ranges.iter().map(|range| range.start).collect();
            let lines: Vec<usize> = (0..60)
                .map(|k| (0..k).map(|j| game(j).len()).sum())
                .collect();
            assert_eq!(starts, lines, "reads {sizes:?}, chunks of {chunk_bytes}");
        }
    }
    // A result inside a comment cuts nothing.
    for text in [
        "; won 1-0\n1. e4 e5 *\n",
        "1. e4 e5 2. Nf3 ; won 1-0\n1. d4 *\n",
        "1. e4 e5 2. Nf3 {won 1-0}\n1. d4 *\n",
    ] {
        let mut splitter = GameSplitter::new(text.as_bytes(), 1 << 20);
        let games = splitter.next_chunk().unwrap().unwrap().games;
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(games[0], 0..text.len());
    }
}

#[test]
fn games_without_tags_on_one_line_are_cut_apart_when_too_large_together() {
    // The scan cuts games only at line starts; a line of games larger than a game may be
    // is cut at each `1.` after a result, so that each game is read as it is without limit.
    // Not in a comment or a variation, nor a `1...`.
    let game = |k: usize| match k % 4 {
        0 => "1. e4 e5 1-0 ".to_string(),
        1 => "1. d4 {1-0 1. c4} d5 0-1 {won} ".to_string(),
        2 => "1. c4 (1. d4 d5 1-0 1. e4) 1... e5 1/2-1/2 ".to_string(),
        _ => format!("1. Nf3 Nf6 2. g3 * ; game {k}\n"),
    };
    let header = "[Event \"a 1-0 1. d4\"]\n[Site\n\"1-0 1. c4\"]\n\n".to_string();
    let text: String = [header.clone(), (0..40).map(game).collect()].concat();
    let read = |text: &str, limits, sizes: &[usize], chunk_bytes| -> Vec<Result<String, String>> {
        let trickle = Trickle::new(text.as_bytes(), sizes);
        let mut splitter = GameSplitter::with_limits(trickle, chunk_bytes, limits);
        let mut games = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            for read in read_chunk(&chunk, limits) {
                let game = read.game.and_then(replay);
                games.push(match game {
                    Ok(game) => Ok(notate::chess::uci::to_string(&game)
                        .unwrap()
                        .trim_end()
                        .into()),
                    Err(failed) => Err(failed.error.message),
                });
            }
        }
        games
    };
    let whole = read(&text, ReadOptions::default(), &[1 << 20], 1 << 20);
    assert_eq!(whole.len(), 40);
    assert_eq!(whole[0], Ok("e2e4 e7e5".into()));
    assert_eq!(whole[2], Ok("c2c4 e7e5".into()));
    let limits = ReadOptions {
        max_game_bytes: 60,
        ..ReadOptions::default()
    };
    // A game over the limit fails, and takes the rest of its line with it (its end is not
    // looked for past the limit); the games of the next lines are read.
    let big = |k: usize| match k {
        17 => format!("1. e4 {{{}}} e5 1-0 ", "x".repeat(80)),
        _ => game(k),
    };
    let with_big: String = [header, (0..40).map(big).collect()].concat();
    let mut expected = read(&with_big, ReadOptions::default(), &[1 << 20], 1 << 20);
    assert_eq!(expected.len(), 40);
    expected.splice(17..20, [Err("game longer than 60 bytes, skipped".into())]);
    for sizes in [&[1][..], &[7, 300], &[1 << 20]] {
        for chunk_bytes in [64, 512, 1 << 20] {
            let place = format!("reads {sizes:?}, chunks of {chunk_bytes}");
            assert_eq!(read(&text, limits, sizes, chunk_bytes), whole, "{place}");
            assert_eq!(
                read(&with_big, limits, sizes, chunk_bytes),
                expected,
                "{place}"
            );
        }
    }
}

#[test]
fn a_long_line_of_games_is_read_a_game_at_a_time() {
    // 10,000 games without tags on one line, 130 KB, well under the limit: the scan finds
    // no game at a line's start in them, and handed out the line as one range, whose games
    // a worker then read all at once (16 MiB of them took 5.7 GB). A stretch longer than
    // 64 KiB is cut at each game, however the bytes arrive; the games are the same.
    let text = "1. e4 e5 1-0 ".repeat(10_000) + "\n[Event \"b\"]\n\n1. d4 *\n";
    let whole: Vec<_> = read_in_chunks(text.as_bytes(), 1 << 20, ReadOptions::default())
        .into_iter()
        .map(|read| read.game.map(|game| game.moves.plies.len()).is_ok())
        .collect();
    assert_eq!(whole.len(), 10_001);
    assert!(whole.iter().all(|&ok| ok));
    for sizes in [&[1 << 20][..], &[7, 300], &[1]] {
        for chunk_bytes in [4096, 1 << 20] {
            let trickle = Trickle::new(text.as_bytes(), sizes);
            let mut splitter = GameSplitter::new(trickle, chunk_bytes);
            let (mut ranges, mut largest_chunk) = (0, 0);
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                ranges += chunk.games.len();
                largest_chunk = largest_chunk.max(chunk.bytes.len());
            }
            let place = format!("reads {sizes:?}, chunks of {chunk_bytes}");
            assert_eq!(ranges, 10_001, "{place}");
            assert!(
                largest_chunk <= chunk_bytes.max(64 << 10) + (300 << 10),
                "{place}"
            );
        }
    }
}

#[test]
fn a_game_that_fails_on_a_line_of_games_takes_only_itself() {
    // A syntax error failed the rest of its stretch, so the games after it on the same line
    // were read only when the line was long enough for the splitter to cut it apart. The
    // failed game now runs to the next game on its line, found as the splitter finds it: a
    // `[` after a result on the same line is no tag line.
    let limits = ReadOptions {
        max_comment_bytes: 16,
        ..ReadOptions::default()
    };
    let long_comment = format!(
        "1. e4 e5 1-0 1. d4 {{{}}} d5 0-1 {{a long comment}} 1. c4 * ",
        "x".repeat(20)
    );
    let bracket = "1. e4 e5 2. Nf3 Nc6 1-0 [ ] 1-0 1. d4 * ".to_string();
    for (line, plies) in [(long_comment, [2, 1]), (bracket, [4, 1])] {
        let read = |copies: usize| -> Vec<Result<usize, String>> {
            let text = line.repeat(copies) + "\n";
            read_in_chunks(text.as_bytes(), 1 << 20, limits)
                .into_iter()
                .map(|read| {
                    read.game
                        .map(|game| game.moves.plies.len())
                        .map_err(|e| e.error.message)
                })
                .collect()
        };
        let one = read(1);
        assert_eq!(one.len(), 3, "{line}: {one:?}");
        assert_eq!((&one[0], &one[2]), (&Ok(plies[0]), &Ok(plies[1])), "{line}");
        assert!(one[1].is_err(), "{line}");
        // 2,000 copies are over 64 KiB: the splitter cuts them apart.
        let many = read(2000);
        assert_eq!(many.len(), 6000, "{line}");
        assert!(many.chunks(3).all(|three| three == one), "{line}");
    }
    // A forum's `[pgn]` before a game's tags, which the parser skips: its tags are a tag
    // line (the `(` in them opens no variation), on a short line of games and a long one.
    for copies in [1, 6000] {
        let text = format!(
            "[pgn][Event \"(\"]\n1. e4 {{{}}} e5 1-0 {}\n",
            "x".repeat(20),
            "1. d4 * ".repeat(copies)
        );
        let games: Vec<_> = read_in_chunks(text.as_bytes(), 1 << 20, limits)
            .into_iter()
            .map(|read| read.game.map(|game| game.moves.plies.len()).is_ok())
            .collect();
        assert_eq!(games.len(), 1 + copies, "{copies} copies");
        assert!(
            !games[0] && games[1..].iter().all(|&ok| ok),
            "{copies} copies"
        );
    }
}

#[test]
fn whether_a_game_is_too_large_does_not_depend_on_the_reads() {
    // The next game on the line starts within the limit (200, at byte 193), and its first
    // word ends at byte 216 - 21 + n: found, the first game is read; past the limit's worth
    // and 16 bytes more, the first game is too large. Read whole, the next game was found
    // whatever the word's length; in small reads, not when its end came too late.
    let limits = ReadOptions {
        max_game_bytes: 200,
        ..ReadOptions::default()
    };
    for n in [20, 21, 40] {
        let text = format!(
            "1. e4 e5 {}1-0 1.{} *\n[Event \"b\"]\n\n1. d4 *\n",
            "a6 ".repeat(60),
            "a".repeat(n)
        );
        let whole = events_of(text.as_bytes(), 64, limits);
        let too_large = whole[0] == "game longer than 200 bytes, skipped";
        assert_eq!(too_large, n > 20, "{n}: {whole:?}");
        assert_eq!(whole.last().map(String::as_str), Some("Some(\"b\")"));
        for sizes in [&[7, 300][..], &[1], &[3], &[2, 5]] {
            let events = events_of(Trickle::new(text.as_bytes(), sizes), 64, limits);
            assert_eq!(events, whole, "{n}, reads {sizes:?}");
        }
    }
}

#[test]
fn a_game_after_one_too_large_is_held_to_the_limit_too() {
    // The skip of a game too large ended at the next game, but the games found in the same
    // scan after it were let through without their size checked: whether the second game
    // here was read or failed depended on where the reads ended.
    let text = format!(
        "[Event \"a\"]\n\n1. e4 {{{}}} *\n\n[Event \"b\"]\n\n1. d4 {{{}}} *\n\n[Event \"c\"]\n\n1. c4 *\n",
        "x".repeat(300),
        "y".repeat(150),
    );
    let limits = ReadOptions {
        max_game_bytes: 100,
        ..ReadOptions::default()
    };
    for sizes in [&[1 << 20][..], &[7, 300], &[1]] {
        for chunk_bytes in [64, 4096] {
            let events = events_of(Trickle::new(text.as_bytes(), sizes), chunk_bytes, limits);
            let too_large = "game longer than 100 bytes, skipped";
            let expected = [too_large, too_large, "Some(\"c\")"];
            assert_eq!(events, expected, "reads {sizes:?}, chunks of {chunk_bytes}");
        }
    }
}

#[test]
fn where_a_game_too_large_ends_does_not_depend_on_the_reads() {
    // A game too large ends with its result, then comments (9 KiB) before the next line's
    // `1.`, which starts a game without tags; or a tag line of it starts in the head that
    // goes out with the error. The skip of its rest kept the last 4 KiB it had scanned: in
    // small reads it no longer saw the result (the next game was skipped with the rest), or
    // judged the tag line without its start (closed), where read whole it was judged whole
    // (left open, so the `[Event "b"]` line after it was a tag of the same game). Now both
    // readings judge with the head (the skip keeps it), and look back as far as the longest
    // tag line.
    let limits = ReadOptions {
        max_game_bytes: 1000,
        ..ReadOptions::default()
    };
    let too_large = "game longer than 1000 bytes, skipped";
    let after_notes = format!(
        "1. e4 e5 {} 1-0\n{{{}}}\n; {}\n1. d4 d5 *\n",
        "Nf3 Nc6 Ng1 Nb8 ".repeat(100),
        "c".repeat(5000),
        "d".repeat(4000),
    );
    // `[Round "` opens in the head's last bytes and its line ends 2 KB later, open: the next
    // line goes on with the tag, and the `[Event "b"]` line after it is a tag of the same
    // game, whole or in reads (judged without the head, the line was closed, and `b` a game
    // of its own).
    let open_tag = format!(
        "[Event \"a\"]\n[Annotator \"{}\"]\n[Round \"{}\nend\"]\n[Event \"b\"]\n\n1. c4 *\n",
        "x".repeat(480),
        "z".repeat(2000),
    );
    for (text, expected) in [
        (&after_notes, &[too_large, "None"][..]),
        (&open_tag, &[too_large]),
    ] {
        assert_eq!(events_of(text.as_bytes(), 1 << 20, limits), expected);
        for sizes in [&[1][..], &[7, 300], &[4096], &[100, 5000, 3]] {
            for chunk_bytes in [64, 4096] {
                let events = events_of(Trickle::new(text.as_bytes(), sizes), chunk_bytes, limits);
                assert_eq!(events, expected, "reads {sizes:?}, chunks of {chunk_bytes}");
            }
        }
    }
}

#[test]
fn blanks_around_a_game_are_no_part_of_its_size() {
    // A game of 11 bytes, limit 11: the blank lines after it made it too large, and the game
    // without tags after it was lost with it (its `1.` looked back at the blanks alone, the
    // result having gone out with the head). The blank lines before a file's first game
    // counted towards it too, and those after a game with tags.
    let limits = ReadOptions {
        max_game_bytes: 11,
        ..ReadOptions::default()
    };
    let too_large = "game longer than 11 bytes, skipped";
    let game = "1. e4 e5 *\n";
    assert_eq!(game.len(), 11);
    let blanks = |n: usize| " \n\t\r".chars().cycle().take(n).collect::<String>();
    let cases = [
        (format!("{game}\n\n1. d4 d5 *\n"), vec!["None", "None"]),
        (format!("{}{game}", blanks(5000)), vec!["None"]),
        (
            format!("{}\u{feff}{game}\n\u{feff}", blanks(100)),
            vec!["None"],
        ),
        // Up to as many blank bytes again after it (11: 22 in all), the game is within the
        // limit; past them, it is too large (the reader holds blanks up to there), and
        // either way the next game is read.
        (
            format!("{game}{}1. d4 d5 *\n", blanks(11)),
            vec!["None", "None"],
        ),
        (
            format!("{game}{}1. d4 d5 *\n", blanks(12)),
            vec![too_large, "None"],
        ),
        (format!("{game}{}", blanks(5000)), vec![too_large]),
        // Past the limit, a byte that is not blank makes it too large: the next game, whose
        // `1.` looks back at the result in the head that went out with the error, is read.
        (
            format!("{game}{{x}}\n\n1. d4 d5 *\n"),
            vec![too_large, "None"],
        ),
        (
            format!("{game}   \n   {{x}}\n1. d4 d5 *\n"),
            vec![too_large, "None"],
        ),
        // A line tabulation and a byte-order mark are blanks too, as the scan and the parser
        // read them: they cut games without tags apart, and alone they are no game.
        (format!("{game}\x0b\n1. d4 d5 *\n"), vec!["None", "None"]),
        (format!("{game}\u{feff}1. d4 d5 *\n"), vec!["None", "None"]),
        ("\x0b\n\n\n\u{feff}\u{feff}\n".to_string(), vec![]),
    ];
    // A mark glued to a result is part of its word, as the parser reads it (`cat` of a file
    // without a last line break): no result, so no next game there, whatever the limit and
    // however long the line (a long one is looked through for games on it).
    let glued = "1. d4 d5 1-0\u{feff} 1. e4 e5 2. Ke2 Ke7 3. Ke3 *\n";
    for max_game_bytes in [60, 1000] {
        let limits = ReadOptions {
            max_game_bytes,
            ..limits
        };
        assert_eq!(
            events_of(glued.as_bytes(), 64, limits),
            ["None"],
            "{max_game_bytes}"
        );
    }
    for (text, expected) in &cases {
        for sizes in [&[1 << 20][..], &[1], &[2, 5], &[7, 300]] {
            for chunk_bytes in [1, 64, 4096] {
                let events = events_of(Trickle::new(text.as_bytes(), sizes), chunk_bytes, limits);
                assert_eq!(
                    &events, expected,
                    "{text:?}, reads {sizes:?}, chunks of {chunk_bytes}"
                );
            }
        }
    }
    // With tags: a game of 20 bytes and blank lines after it, limit 20.
    let limits = ReadOptions {
        max_game_bytes: 20,
        ..limits
    };
    let text = format!(
        "[Event \"a\"]\n\n1. e4 *{}[Event \"b\"]\n\n1. d4 *\n",
        blanks(20)
    );
    for sizes in [&[1 << 20][..], &[1], &[7, 300]] {
        let events = events_of(Trickle::new(text.as_bytes(), sizes), 64, limits);
        assert_eq!(events, ["Some(\"a\")", "Some(\"b\")"], "reads {sizes:?}");
    }
}

#[test]
fn a_long_run_of_blanks_before_a_game_is_not_held_and_places_stay_right() {
    // Blanks before a game are no game's: a run of them is dropped as it is read (a stream
    // of nothing else must not fill the memory), the lines it held still counted. A chunk
    // that starts inside a line (blanks dropped up to there, or a game after blanks on its
    // line) counts its columns on from that line's start.
    let limits = ReadOptions::default();
    let places = |text: &str, sizes: &[usize], chunk_bytes: usize| {
        let input = Trickle::new(text.as_bytes(), sizes);
        let mut splitter = GameSplitter::with_limits(input, chunk_bytes, limits);
        let mut places = Vec::new();
        let mut largest = 0;
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            largest = largest.max(chunk.bytes.len());
            let mut locator = chunk.locator();
            for read in read_chunk(&chunk, limits) {
                let failed = replay(read.game.unwrap()).err();
                let offset = failed.map(|failed| failed.error.offset().unwrap());
                places.push(
                    offset
                        .map(|at| locator.place(at))
                        .map(|p| (p.line, p.column)),
                );
            }
        }
        assert!(largest < 200 << 10, "a chunk of {largest} bytes");
        places
    };
    let lines = format!("{}1. e4 *\n\n1. e4 e5 2. Ke3 *\n", "\n".repeat(300_000));
    let spaces = format!("{}1. e4 Ke7 *\n", " ".repeat(300_000));
    let indented = "1. e4 *\n   1. e4 e5 2. Ke3 *\n  [Event \"b\"] 1. d4 Kd7 *\n";
    for sizes in [&[4096][..], &[1 << 20], &[7, 300]] {
        assert_eq!(places(&lines, sizes, 4096), [None, Some((300_003, 13))]);
        assert_eq!(places(&spaces, sizes, 4096), [Some((1, 300_007))]);
        let expected = [None, Some((2, 16)), Some((3, 21))];
        assert_eq!(places(indented, sizes, 1), expected, "reads {sizes:?}");
    }
}

#[test]
fn oversized_game_names_its_players_when_validating() {
    // The head of the game reads cleanly (it is cut after a whole move): validating must
    // still find the names for the message.
    let mut text = String::from("[Event \"big\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 e5 ");
    text.push_str(&"2. Nf3 Nc6 3. Ng1 Nb8 ".repeat(100));
    text.push_str("*\n");
    let limits = ReadOptions {
        max_game_bytes: 1000,
        keep: Keep::Nothing,
        ..ReadOptions::default()
    };
    let results = read_in_chunks(text.as_bytes(), 512, limits);
    assert_eq!(results.len(), 1);
    let failed = results[0].game.as_ref().unwrap_err();
    assert!(failed.error.message.contains("longer than 1000 bytes"));
    assert_eq!(failed.tags.get("White"), Some("W"));
    assert_eq!(failed.tags.get("Black"), Some("B"));
}

#[test]
fn a_byte_order_mark_read_a_byte_at_a_time_is_still_taken_out() {
    let text = b"\xEF\xBB\xBF[Event \"a\"]\n[White \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n";
    let mut trickle = Trickle {
        bytes: text,
        sizes: &[1],
        reads: 0,
    };
    let chunk = GameSplitter::new(&mut trickle, 1 << 20)
        .next_chunk()
        .unwrap()
        .unwrap();
    // The mark is bytes of the stream before the chunk: the chunk starts after it.
    assert_eq!((chunk.first_byte, chunk.first_line), (3, 1));
    assert!(chunk.bytes.starts_with(b"[Event"));
    let games: Vec<_> = read_chunk(&chunk, ReadOptions::default())
        .into_iter()
        .map(|read| read.game.unwrap().tags.get("Event").map(str::to_string))
        .collect();
    assert_eq!(games, [Some("a".to_string()), Some("c".to_string())]);
}

/// A reader that gives `bytes` (in reads of at most `step`), then fails.
struct FailsAfter<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for FailsAfter<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(std::io::Error::other("disk gone"));
        }
        let n = self.step.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// A read that fails after whole games (or lines) were read: those games are given, then
/// the error, which ends the games (it was given at once, and the games read before it were
/// lost).
#[test]
fn the_games_read_before_a_failing_read_are_given_then_the_error() {
    use notate::chess::{egd::Egd, pgn::Pgn};
    use notate::format::Reader;
    // The last game is cut short by the failure: not a game, never given.
    let pgn = "1. e4 e5 *\n\n".repeat(10) + "1. d4 d5 2. c4";
    for step in [1, 7, 1 << 20] {
        let input = FailsAfter {
            bytes: pgn.as_bytes(),
            step,
        };
        let results: Vec<_> = Reader::<Pgn, _>::new(input).collect();
        assert_eq!(results.len(), 11, "reads of {step}");
        assert!(results[..10].iter().all(Result::is_ok));
        let error = results[10].as_ref().unwrap_err();
        assert_eq!(
            (error.kind, error.message.as_str()),
            (notate::ErrorKind::Io, "disk gone")
        );
    }
    let line = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../vectors/egd/c05_en_passant_both_sides.json"),
    )
    .unwrap();
    let egd = format!("{}\n{}\n{{\"game_tags\":", line.trim(), line.trim());
    for step in [7, 1 << 20] {
        let input = FailsAfter {
            bytes: egd.as_bytes(),
            step,
        };
        let results: Vec<_> = Reader::<Egd, _>::new(input).collect();
        assert_eq!(results.len(), 3, "reads of {step}");
        assert!(results[0].is_ok() && results[1].is_ok());
        assert_eq!(results[2].as_ref().unwrap_err().message, "disk gone");
    }
}

/// A game's warnings come with it, across chunks, and for a failed game too: numbered as
/// the game, placed on its line, never another game's.
#[test]
fn each_games_warnings_come_with_it_across_chunks() {
    use notate::chess::pgn::Pgn;
    use notate::format::Reader;
    // 40,000 games of about 100 bytes: several chunks. Every third game has a skipped
    // token; every third after it also fails (an illegal move after the skipped token).
    let mut text = String::new();
    for i in 0..40_000 {
        let padding = "{ a comment to make the game longer than a few bytes } ";
        text.push_str(&match i % 3 {
            0 => format!("[Round \"{i}\"]\n\n1. e4 {padding}e5 *\n\n"),
            1 => format!("[Round \"{i}\"]\n\n1. e4 ^{i} {padding}e5 *\n\n"),
            _ => format!("[Round \"{i}\"]\n\n1. e4 ^{i} {padding}Ke7 *\n\n"),
        });
    }
    let mut games = Reader::<Pgn, _>::new(text.as_bytes());
    let mut number = 0u64;
    while let Some(game) = games.next() {
        number += 1;
        let i = number - 1;
        let warnings = games.take_warnings();
        assert_eq!(game.is_ok(), i % 3 != 2, "game {number}");
        if i.is_multiple_of(3) {
            assert!(warnings.is_empty(), "game {number}: {warnings:?}");
            continue;
        }
        assert_eq!(warnings.len(), 1, "game {number}");
        let w = &warnings[0];
        assert_eq!(w.game, Some(number));
        assert_eq!(w.token.as_deref(), Some(format!("^{i}").as_str()));
        // Each game takes four lines: its moves are on the third.
        assert_eq!(w.place.map(|p| p.line), Some(4 * i + 3));
    }
    assert_eq!(number, 40_000);
}
