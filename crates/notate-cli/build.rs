//! Builds the script of the page `notate render` writes: the D3 modules the viewer uses
//! (their UMD builds from the npm package's `node_modules`, listed in
//! `js/scripts/d3-modules.txt`) run in a scope of their own, then the viewer (`js/src/board.js`)
//! reading D3 from that scope instead of importing it. The npm package's build
//! (`js/scripts/build.mjs`) joins the same files into `dist/d3.js`.
//!
//! Without `npm ci` in `js/`, D3 is missing: the script is left empty, and `notate render`
//! says how to get it (every other command works).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let js = manifest.join("../../js");
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("viewer.js");
    let list = js.join("scripts/d3-modules.txt");
    let board = js.join("src/board.js");
    println!("cargo:rerun-if-changed={}", list.display());
    println!("cargo:rerun-if-changed={}", board.display());
    let script = script(&js, &list, &board).unwrap_or_default();
    fs::write(&out, script).expect("OUT_DIR is writable");
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
