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
