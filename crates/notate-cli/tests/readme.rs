//! The README's shell sessions are true: every `$ ` command of its code blocks that needs
//! nothing beyond the repository runs, and prints what the README shows under it.
//!
//! What a command prints is what a terminal shows: its standard output and error together,
//! in the order written. The README may leave out the summary line that ends it
//! (`converted 1 game, 0 failed`), shorten with `…` (any text, over lines too), and wrap a
//! long line: a line break followed by spaces that is not in the output is a wrap.
//!
//! Not run, because they need what the repository does not hold or a process that stays up:
//! commands that read `../shared/` (the PGN corpus), `notate serve`, PostgreSQL, `pip`,
//! `python` and the `scripts/` (whose own tests cover them), and the commands after one of
//! those in its block (which may need what it made). Every other command runs, in
//! order, in a folder of its own holding a copy of `examples/` (so that `load` then `query`
//! see the same database), with this build's `notate` first on the `PATH`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A command of the README and the output shown under it.
#[derive(Debug)]
struct Example {
    /// The number of its code block in the README.
    block: usize,
    line: usize,
    command: String,
    shown: String,
}

/// What a command needs that the test does not give it.
const NOT_RUN: &[&str] = &[
    "../shared",
    "notate serve",
    "postgres://",
    "pip ",
    "python",
    "scripts/",
];

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `$ ` commands of the README's fenced blocks, with the lines under each. A command
/// whose double quotes are left open goes on over the next lines, as the shell reads it.
fn examples(readme: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    // The indentation of the open block's fence, and whether a command of it is open to take
    // the lines under it.
    let mut fence: Option<usize> = None;
    let mut blocks = 0;
    let mut taking = false;
    let mut open_quote = false;
    for (i, line) in readme.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        if line.trim_start().starts_with("```") {
            fence = match fence {
                None => Some(indent),
                Some(_) => None,
            };
            blocks += usize::from(fence.is_some());
            (taking, open_quote) = (false, false);
            continue;
        }
        let Some(indent) = fence else { continue };
        let text = line.get(indent..).unwrap_or(line.trim_start());
        if open_quote {
            let last = examples.last_mut().expect("a command is open");
            last.command.push('\n');
            last.command.push_str(text);
            open_quote = last.command.matches('"').count() % 2 == 1;
        } else if let Some(command) = text.strip_prefix("$ ") {
            open_quote = command.matches('"').count() % 2 == 1;
            taking = true;
            examples.push(Example {
                block: blocks,
                line: i + 1,
                command: command.to_owned(),
                shown: String::new(),
            });
        } else if taking {
            // A line under a command, up to the next command or the end of its block.
            let last = examples.last_mut().expect("a command is open");
            last.shown.push_str(text);
            last.shown.push('\n');
        }
    }
    examples
}

/// Whether `shown` is what the command printed (`out`: standard output and error together),
/// or that without its summary line.
fn matches(shown: &str, out: &str) -> bool {
    let out = out.trim_end();
    let without_summary = out
        .rsplit_once('\n')
        .filter(|(_, last)| SUMMARIES.iter().any(|s| last.starts_with(s)))
        .map(|(rest, _)| rest.trim_end());
    std::iter::once(out)
        .chain(without_summary)
        .any(|out| fits(shown.trim_end(), out))
}

/// How the summary line that ends a command's output begins.
const SUMMARIES: &[&str] = &["converted ", "checked ", "read "];

/// The shell script that runs `command` with what it prints in one pipe, in the order
/// written, as a terminal shows it. When notate's output goes on to another program (`|
/// head -3`), its error output would land anywhere among that program's lines (and inside
/// them: standard error is written unbuffered, a piece at a time), and the README shows
/// that program's output: notate's error output is left out.
fn script(command: &str) -> String {
    let mut quote = None;
    let mut piped_on = false;
    let mut seen_notate = false;
    for (i, c) in command.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '|') if seen_notate => piped_on = true,
            _ => {}
        }
        seen_notate |= quote.is_none() && command[i..].starts_with("notate ");
    }
    let errors = if piped_on { "/dev/null" } else { "&1" };
    format!("exec 2>{errors}\n{command}")
}

/// `shown` read as the README writes output: `…` is any text, and a line break followed by
/// spaces where `out` goes on with no line break is a wrapped line.
fn fits(shown: &str, out: &str) -> bool {
    let (mut shown, mut out) = (shown, out);
    loop {
        if let Some(rest) = shown.strip_prefix('…') {
            return out
                .char_indices()
                .map(|(i, _)| i)
                .chain(std::iter::once(out.len()))
                .any(|i| fits(rest, &out[i..]));
        }
        let Some(want) = shown.chars().next() else {
            return out.is_empty();
        };
        let wrapped = shown
            .strip_prefix('\n')
            .map(|rest| rest.trim_start_matches(' '))
            .filter(|rest| rest.len() + 1 < shown.len() && !out.starts_with('\n'));
        if let Some(rest) = wrapped {
            shown = rest;
        } else if out.starts_with(want) {
            shown = &shown[want.len_utf8()..];
            out = &out[want.len_utf8()..];
        } else {
            return false;
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_shell_session_of_the_readme_prints_what_it_shows() {
    let readme = readme();
    let all = examples(&readme);
    // A command that is not run, and the commands after it in its block.
    let mut run: Vec<&Example> = Vec::new();
    let mut stopped_block = None;
    for example in &all {
        if NOT_RUN.iter().any(|n| example.command.contains(n)) {
            stopped_block = Some(example.block);
        } else if stopped_block != Some(example.block) {
            run.push(example);
        }
    }
    // The README has forty commands, thirty of which need nothing but the repository. Far
    // fewer found means the reading above broke, not that the README got shorter.
    assert!(all.len() >= 35, "found only {} commands", all.len());
    assert!(
        run.len() >= 30,
        "only {} commands to run: {run:#?}",
        run.len()
    );

    let scratch = notate_testdata::scratch_dir("notate-readme");
    let dir = scratch.path().to_path_buf();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples"),
        &dir.join("examples"),
    );
    let bin: PathBuf = Path::new(env!("CARGO_BIN_EXE_notate"))
        .parent()
        .unwrap()
        .into();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();

    let mut wrong = Vec::new();
    for example in &run {
        let out = Command::new("bash")
            .args(["-c", &script(&example.command)])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        if !matches(&example.shown, &printed) {
            wrong.push(format!(
                "README.md:{}: $ {}\n--- shown:\n{}--- printed:\n{printed}",
                example.line, example.command, example.shown
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reading_of_the_readme_finds_commands_their_output_and_open_quotes() {
    let text = "Text.\n\n```\nno command\n```\n```\n$ notate a\none\ntwo\n$ notate b \"x\n  y\"\nthree\n```\n\n  ```\n  $ notate c\n  four\n  ```\nafter\n";
    let found = examples(text);
    let got: Vec<(usize, &str, &str)> = found
        .iter()
        .map(|e| (e.line, e.command.as_str(), e.shown.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (7, "notate a", "one\ntwo\n"),
            (10, "notate b \"x\n  y\"", "three\n"),
            (16, "notate c", "four\n"),
        ]
    );
    assert!(matches("a\n…\nd\n", "a\nb\nc\nd\n"));
    assert!(!matches("a\n…\nd\n", "a\nb\nc\n"));
    assert!(matches(
        "{\"a\":[1,…],\n \"b\":2}",
        "{\"a\":[1,2,3],\"b\":2}"
    ));
    assert!(!matches(
        "{\"a\":1,\n \"b\":2}",
        "{\"a\":1,\n\"b\":2}\nmore"
    ));
    assert!(matches("line 1\n  line 2", "line 1\n  line 2"));
    assert!(matches("e2e4\n", "e2e4\nconverted 1 game, 0 failed\n"));
    assert!(matches(
        "e2e4\nconverted 1 game, 0 failed",
        "e2e4\nconverted 1 game, 0 failed\n"
    ));
    assert!(!matches("e2e4\n", "e2e5\nconverted 1 game, 0 failed\n"));
    assert!(!matches(
        "e2e4\n",
        "warning\ne2e4\nconverted 1 game, 0 failed\n"
    ));
    assert!(matches(
        "[Result \"*\"]\n",
        "[Result \"*\"]\n\nconverted 1 game, 0 failed\n"
    ));
    assert_eq!(
        script("notate check a.pgn"),
        "exec 2>&1\nnotate check a.pgn"
    );
    assert_eq!(
        script("printf 'a | b' | notate convert --to uci"),
        "exec 2>&1\nprintf 'a | b' | notate convert --to uci"
    );
    assert_eq!(
        script("notate convert \"a|b.pgn\" --to fen | head -3"),
        "exec 2>/dev/null\nnotate convert \"a|b.pgn\" --to fen | head -3"
    );
}
