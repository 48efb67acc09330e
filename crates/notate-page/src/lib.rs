//! The scripts of notate's web pages, built from the npm package's sources (`js/src/board.js`,
//! `js/src/live.js`) and D3 by this crate's build script, so that the command line's
//! `notate render` and `notate serve`'s page carry the same viewer.
//!
//! ```
//! // Empty only in a build made without `npm ci` in js/.
//! if notate_page::available() {
//!     assert!(notate_page::VIEWER_SCRIPT.contains("export function mount"));
//!     assert!(notate_page::live_page().contains("<main id=\"notate-live\">"));
//! }
//! ```

/// The viewer's script: D3's modules in a scope of their own, then `js/src/board.js`
/// (its `mount` then shows viewer documents).
pub const VIEWER_SCRIPT: &str = include_str!(concat!(env!("OUT_DIR"), "/viewer.js"));

/// The live client's script: the viewer's, then `js/src/live.js`, which starts on the
/// element `#notate-live`.
pub const LIVE_SCRIPT: &str = include_str!(concat!(env!("OUT_DIR"), "/live.js"));

/// What to do when this build has no scripts.
pub const MISSING: &str = "this notate was built without the viewer's script (D3 comes from npm): run `npm ci` in js/ and build again";

/// Whether this build has the scripts (D3 was there when it was built).
pub fn available() -> bool {
    !VIEWER_SCRIPT.is_empty()
}

/// The Content-Security-Policy of a page that runs only its own inline script and style;
/// `connect` adds what it may connect to (`'self'` for the live page's WebSocket).
pub fn content_security_policy(connect: Option<&str>) -> String {
    let mut policy =
        String::from("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    if let Some(source) = connect {
        policy.push_str("; connect-src ");
        policy.push_str(source);
    }
    policy
}

/// The page `notate serve` gives at `/`: the live client, whole, with nothing to load but its
/// WebSocket (or, in a build without the scripts, a page that says so).
pub fn live_page() -> String {
    let body = if available() {
        format!(
            "<main id=\"notate-live\"><noscript>This page plays with JavaScript.</noscript></main>\n\
             <script type=\"module\">\n{LIVE_SCRIPT}</script>\n"
        )
    } else {
        format!("<main id=\"notate-live\"><p>{MISSING}.</p></main>\n")
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"generator\" content=\"notate {}\">\n<title>notate serve</title>\n\
         <style>body{{margin:0;background:#fff}}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        content_security_policy(Some("'self'")),
        env!("CARGO_PKG_VERSION"),
    )
}
