//! Serde helpers for save states (the file format itself is `dos::state`,
//! which sees the whole machine and DOS).

/// A fixed-size byte array as a sequence (serde derives stop at 32
/// elements).
pub mod byte_array {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the array as a sequence of bytes.
    pub fn serialize<S: Serializer, const N: usize>(a: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(a.iter())
    }

    /// Reads the array back; an error when the length differs.
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[u8; N], D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        let len = v.len();
        v.try_into()
            .map_err(|_| serde::de::Error::custom(format!("expected {N} bytes, found {len}")))
    }
}
