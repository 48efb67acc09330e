//! `notate render`: one self-contained HTML page that shows every game of the input on a
//! board. The page holds the viewer's script (D3 and `js/src/board.js`, joined by the build
//! script), its styles and piece images, and the games as viewer documents (`--to view`), so
//! it makes no network request; its Content-Security-Policy forbids any.

use std::io::{self, Write};

use notate_page::VIEWER_SCRIPT;

/// Why the page cannot be written, when this build has no viewer script.
pub fn unavailable() -> Option<&'static str> {
    (!notate_page::available()).then_some(notate_page::MISSING)
}

/// The page around the games: writes its head when made, the games (each a JSON line, with
/// `<` escaped so that no text can close the script element) as they come, and its end on
/// [`Page::finish`].
pub struct Page<W: Write> {
    out: W,
    /// The number of the first game in its input (`--game N` of one input: N), which the
    /// page's titles count from.
    first_number: u64,
}

impl<W: Write> Page<W> {
    pub fn new(mut out: W, title: &str, first_number: u64) -> io::Result<Page<W>> {
        write!(
            out,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
             <meta name=\"generator\" content=\"notate {}\">\n<title>{}</title>\n\
             <style>body{{margin:16px;background:#fff}}</style>\n</head>\n<body>\n\
             <main id=\"notate\"><noscript>This page shows its games with JavaScript.</noscript></main>\n\
             <script type=\"application/x-ndjson\" id=\"notate-games\">\n",
            notate_page::content_security_policy(None),
            env!("CARGO_PKG_VERSION"),
            escape_html(title)
        )?;
        Ok(Page { out, first_number })
    }

    /// Ends the page (the viewer's script, run on the games) and flushes it.
    pub fn finish(mut self) -> io::Result<()> {
        self.out
            .write_all(b"</script>\n<script type=\"module\">\n")?;
        self.out.write_all(VIEWER_SCRIPT.as_bytes())?;
        write!(
            self.out,
            "\nmount(document.getElementById('notate'), document.getElementById('notate-games').textContent, \
             {{ firstNumber: {} }});\n</script>\n</body>\n</html>\n",
            self.first_number
        )?;
        self.out.flush()
    }
}

impl<W: Write> Write for Page<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        // `<` appears in JSON only inside strings, where `\u003c` means the same.
        for (i, part) in bytes.split(|&b| b == b'<').enumerate() {
            if i > 0 {
                self.out.write_all(b"\\u003c")?;
            }
            self.out.write_all(part)?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_cannot_close_the_script() {
        let mut page = Page::new(Vec::new(), "a <b> & c", 1).unwrap();
        page.write_all(br#"{"c":"</script><!--"}"#).unwrap();
        let text = String::from_utf8(page.out).unwrap();
        assert!(text.contains("<title>a &lt;b&gt; &amp; c</title>"));
        assert!(text.ends_with(r#"{"c":"\u003c/script>\u003c!--"}"#));
    }
}
