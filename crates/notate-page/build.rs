//! Builds the scripts of notate's pages. `viewer.js`, for the page `notate render` writes: the
//! D3 modules the viewer uses (their UMD builds from the npm package's `node_modules`, listed
//! in `js/scripts/d3-modules.txt`) run in a scope of their own, then the viewer
//! (`js/src/board.js`) reading D3 from that scope instead of importing it. The npm package's
//! build (`js/scripts/build.mjs`) joins the same files into `dist/d3.js`. `live.js`, for the
//! page `notate serve` gives: the viewer's script, then the live client (`js/src/live.js`) in
//! a function of its own (the two files share names such as `STYLE`), started on the page.
//!
//! Without `npm ci` in `js/`, D3 is missing: the scripts are left empty, and `notate render`
//! and `notate serve`'s page say how to get them (everything else works).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let js = manifest.join("../../js");
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    let list = js.join("scripts/d3-modules.txt");
    let board = js.join("src/board.js");
    let client = js.join("src/live.js");
    for path in [&list, &board, &client] {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let viewer = script(&js, &list, &board).unwrap_or_default();
    let live = if viewer.is_empty() {
        String::new()
    } else {
        live(&viewer, &client)
    };
    fs::write(out.join("viewer.js"), viewer).expect("OUT_DIR is writable");
    fs::write(out.join("live.js"), live).expect("OUT_DIR is writable");
}

/// The viewer's script, then the live client with its import of the viewer taken out and
/// `export` dropped (a function body cannot export), started on `#notate-live`.
fn live(viewer: &str, client: &Path) -> String {
    let source = fs::read_to_string(client).expect("js/src/live.js is readable");
    let import = "import { mount } from './board.js';";
    assert!(
        source.contains(import),
        "{} imports the viewer as `{import}`",
        client.display()
    );
    let body: String = source
        .replacen(import, "", 1)
        .lines()
        .map(|line| line.strip_prefix("export ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        "{viewer}\n// The live client (js/src/live.js).\n(() => {{\n{body}\nlive(document.getElementById('notate-live'));\n}})();\n"
    )
}

fn script(js: &Path, list: &Path, board: &Path) -> Option<String> {
    let names: Vec<String> = fs::read_to_string(list)
        .ok()?
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(String::from)
        .collect();
    let mut d3 = String::new();
    for name in &names {
        let path = js.join(format!("node_modules/{name}/dist/{name}.min.js"));
        // Watched even when missing, so that `npm ci` is noticed by the next build.
        println!("cargo:rerun-if-changed={}", path.display());
        d3.push_str(&fs::read_to_string(&path).ok()?);
        d3.push('\n');
    }
    let viewer = fs::read_to_string(board).ok()?;
    let import = "import { d3 } from './d3.js';";
    assert!(
        viewer.contains(import),
        "{} imports D3 as `{import}`",
        board.display()
    );
    let scope = format!(
        "// D3 (ISC licence, https://d3js.org): {}.\nconst d3 = (function (globalThis, exports, module, define) {{\n{d3}return globalThis.d3;\n}}).call({{}}, {{}});\n",
        names.join(", ")
    );
    Some(viewer.replacen(import, &scope, 1))
}
