//! How the protocol's values are read from JSON: inside serde's visitors, so that serde_json
//! gives every failure the place of the value it could not take, which the message reader
//! turns into the field's path (`data.history[3]`; see `messages::data`).

use serde::Deserializer;

/// `Serialize` and `Deserialize` for an enum of unit variants written as names: a string
/// that is not one of them is refused inside serde's visitor (see [`read_str`]), with the
/// names it could be.
macro_rules! wire_names {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let (index, name) = match self {
                    $($ty::$variant => ($ty::$variant as u32, $name)),+
                };
                s.serialize_unit_variant(stringify!($ty), index, name)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let index = $crate::protocol::wire::read_variant(d, &[$($name),+])?;
                Ok([$($ty::$variant),+][index])
            }
        }
    };
}
pub(crate) use wire_names;

/// Reads a string and makes it a `T` inside serde's visitor, so that serde_json gives a
/// failure the string's place, which `messages::data` turns into its field's path (an error made
/// after `String::deserialize` has returned has no place of its own: serde_json gives it
/// the end of the object or array around it).
pub(crate) fn read_str<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, D::Error> {
    struct Text<F>(F);
    impl<'de, T, F: FnOnce(&str) -> Result<T, String>> serde::de::Visitor<'de> for Text<F> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<T, E> {
            (self.0)(text).map_err(E::custom)
        }
    }
    d.deserialize_str(Text(parse))
}

/// [`read_str`] for one of `names`: its index.
pub(crate) fn read_variant<'de, D: Deserializer<'de>>(
    d: D,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    struct Variant(&'static [&'static str]);
    impl<'de> serde::de::Visitor<'de> for Variant {
        type Value = usize;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("one of ")?;
            for (i, name) in self.0.iter().enumerate() {
                write!(f, "{}`{name}`", if i > 0 { ", " } else { "" })?;
            }
            Ok(())
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<usize, E> {
            self.0
                .iter()
                .position(|name| *name == text)
                .ok_or_else(|| E::unknown_variant(text, self.0))
        }
    }
    d.deserialize_str(Variant(names))
}

/// [`read_str`] for a whole number from 0 to `max`, with the messages of serde's own reader
/// of the integer type named `expecting` for other values.
pub(crate) fn read_number<'de, D: Deserializer<'de>, T>(
    d: D,
    expecting: &'static str,
    max: u64,
    check: impl FnOnce(u64) -> Result<T, String>,
) -> Result<T, D::Error> {
    struct Number<F> {
        check: F,
        expecting: &'static str,
        max: u64,
    }
    impl<'de, T, F: FnOnce(u64) -> Result<T, String>> serde::de::Visitor<'de> for Number<F> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<T, E> {
            if n > self.max {
                return Err(E::invalid_value(serde::de::Unexpected::Unsigned(n), &self));
            }
            (self.check)(n).map_err(E::custom)
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<T, E> {
            match u64::try_from(n) {
                Ok(n) => self.visit_u64(n),
                Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(n), &self)),
            }
        }
    }
    d.deserialize_u64(Number {
        check,
        expecting,
        max,
    })
}

/// Where a reader is in a JSON text's nesting: an open object or array.
struct Level {
    is_array: bool,
    /// The key read last (objects).
    key: String,
    /// The element's index (arrays).
    index: usize,
    /// Whether the reader is at a key or element of this level (from the key, or the
    /// element's first byte, to the blank or comma after its value).
    open: bool,
    /// Whether that value has ended.
    ended: bool,
}

/// The path (`.gameDetails.history[3]`) of the value a reader of the valid JSON `text` was
/// reading when it stopped at byte `at`, as serde_json reports the place of a failure: just
/// after a number, string or literal it could not take, at the `[` or `{` of a value that
/// should have been something else, after a key it does not know, at the `}` of an object
/// missing a field. Written by hand, on the text, so that no reader is copied per type.
pub(crate) fn path_at(text: &str, at: usize) -> String {
    let bytes = text.as_bytes();
    let end = at.min(bytes.len());
    let mut levels: Vec<Level> = Vec::new();
    // A value starts in the innermost level, or has ended there.
    fn value(levels: &mut [Level], ended: bool) {
        if let Some(level) = levels.last_mut() {
            level.open = true;
            level.ended = ended;
        }
    }
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' | b'[' => {
                value(&mut levels, false);
                levels.push(Level {
                    is_array: bytes[i] == b'[',
                    key: String::new(),
                    index: 0,
                    open: false,
                    ended: false,
                });
            }
            b'}' | b']' => {
                levels.pop();
                value(&mut levels, true);
            }
            b',' | b' ' | b'\n' | b'\t' | b'\r' => {
                if let Some(level) = levels.last_mut().filter(|l| l.ended) {
                    level.index += usize::from(level.is_array);
                    level.open = false;
                    level.ended = false;
                }
            }
            b'"' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                match levels.last_mut() {
                    // A key: in an object, before its value.
                    Some(level) if !level.is_array && !level.open => {
                        let token = &text[i..(j + 1).min(text.len())];
                        level.key = serde_json::from_str(token).unwrap_or_default();
                        level.open = true;
                    }
                    _ => value(&mut levels, true),
                }
                i = j;
            }
            b':' => {}
            _ => {
                // A number or literal.
                while i + 1 < bytes.len() && !b",]} \n\t\r".contains(&bytes[i + 1]) {
                    i += 1;
                }
                value(&mut levels, true);
            }
        }
        i += 1;
    }
    // At the first byte of an array's element (a `{` or `[` serde_json found where it wanted
    // something else): that element.
    if let (Some(level), Some(b)) = (levels.last_mut(), bytes.get(end))
        && level.is_array
        && !level.open
        && !b"], \n\t\r".contains(b)
    {
        level.open = true;
    }
    let mut path = String::new();
    for level in levels.iter().filter(|l| l.open) {
        if level.is_array {
            path.push_str(&format!("[{}]", level.index));
        } else {
            path.push('.');
            path.push_str(&level.key);
        }
    }
    path
}
