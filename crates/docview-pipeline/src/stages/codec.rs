//! The codecs of the work files' fingerprint and signature columns: a fingerprint as its 32
//! hex digits (as `docviews.jsonl` writes it), a MinHash signature as its slots' little-endian
//! bytes (two a slot). Decoding refuses what encoding cannot give.

use crate::replica::{Fingerprint, Signature};

/// A fingerprint as its 32 lowercase hex digits.
pub(super) fn fingerprint_hex(f: Fingerprint) -> String {
    f.to_string()
}

/// The fingerprint of 32 hex digits; `None` for anything else.
pub(super) fn fingerprint_of_hex(hex: &str) -> Option<Fingerprint> {
    Fingerprint::from_hex(hex)
}

/// A signature as its slots' little-endian bytes.
pub(super) fn signature_bytes(sig: &Signature) -> Vec<u8> {
    sig.slots().iter().flat_map(|s| s.to_le_bytes()).collect()
}

/// The signature of [`signature_bytes`]; `None` for an odd number of bytes.
pub(super) fn signature_of_bytes(bytes: &[u8]) -> Option<Signature> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let slots: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Some(Signature::from_slots(&slots))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_round_trip_as_hex() {
        let f = Fingerprint([
            0x00, 0x01, 0x7f, 0x80, 0xff, 0x10, 0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78, 0x9a,
            0xbc, 0xde,
        ]);
        let hex = fingerprint_hex(f);
        assert_eq!(hex, "00017f80ff10abcdef123456789abcde");
        assert_eq!(fingerprint_of_hex(&hex), Some(f));
        assert_eq!(fingerprint_of_hex(&hex.to_uppercase()), Some(f));
        for bad in ["", "00", &hex[1..], "zz017f80ff10abcdef123456789abcde"] {
            assert_eq!(fingerprint_of_hex(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn signatures_round_trip_as_little_endian_bytes() {
        let sig = Signature::from_slots(&[0, 1, 0x1234, 0xffff]);
        let bytes = signature_bytes(&sig);
        assert_eq!(bytes, [0, 0, 1, 0, 0x34, 0x12, 0xff, 0xff]);
        assert_eq!(signature_of_bytes(&bytes), Some(sig));
        let empty = Signature::from_slots(&[]);
        assert_eq!(signature_of_bytes(&signature_bytes(&empty)), Some(empty));
        assert_eq!(signature_of_bytes(&bytes[..3]), None);
    }
}
