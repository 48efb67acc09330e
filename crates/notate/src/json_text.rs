//! JSON text written by hand, for the writers that write a game's JSON themselves (every
//! family's): strings as serde_json escapes them, numbers, and objects of text values.

/// A JSON string (quotes, escapes), as serde_json writes it.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        serde_json::to_writer(&mut *out, s).expect("writing JSON to memory");
    }
}

pub(crate) fn write_u32(out: &mut Vec<u8>, n: u32) {
    write_u64(out, u64::from(n));
}

pub(crate) fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// `{"key":"value",…}`: an object of text values, in the order given (tags, headers).
pub(crate) fn write_object<'a>(
    out: &mut Vec<u8>,
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) {
    out.push(b'{');
    for (i, (key, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(out, key);
        out.push(b':');
        write_str(out, value);
    }
    out.push(b'}');
}
