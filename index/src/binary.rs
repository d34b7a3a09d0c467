//! The binary export: a verified set and its attack table as little-endian bytes, for
//! `include_bytes!`, `mmap` or a plain read from any language.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | `b"BFMAGIC\0"` |
//! | 8..12 | format version, `u32` (3) |
//! | 12..16 | scheme, `u32`: 0 fancy, 1 fixed, 2 black |
//! | 16..20 | header length in bytes, `u32` (64: where the entries start) |
//! | 20..24 | number of entries, `u32` (128: rook a1..h8, then bishop a1..h8) |
//! | 24..32 | number of attack sets in the table, `u64` |
//! | 32..64 | zero |
//! | 64..5184 | 128 entries of 40 bytes: mask `u64`, magic `u64`, offset `i64`, post mask `u64`, shift `u32` (64 - bits), bits `u32` |
//! | 5184.. | the attack table, one `u64` per slot (unused slots 0) |
//!
//! `slot = offset + ((key * magic) >> shift)`, `key = occupancy & mask` (fancy, fixed) or
//! `occupancy | !mask` (black), and the attacks are `table[slot] & post_mask`. The post mask is
//! all ones (`0xffff_ffff_ffff_ffff`) unless the set is post-masked (a combined table), where
//! it is the square's empty-board attacks. The file is exactly `5184 + 8 * attack sets` bytes
//! long, and the table starts on a multiple of 64 bytes: a file mapped or read into memory
//! aligned for a cache line has its table aligned so too.
//!
//! Older versions still read: version 2 had a 32-byte header (its table starts at 5152),
//! version 1 also had 32-byte entries without the post mask (its table starts at 4128).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::SliderKind;
use crate::geometry::{relevant_mask, square_name};
use crate::magic_set::{Entry, MAX_BITS, MagicSet};
use crate::scheme::Scheme;
use crate::verify::{AttackTable, MAX_TABLE_ENTRIES, verify};

/// The first eight bytes of every binary export.
pub const BINARY_MAGIC: [u8; 8] = *b"BFMAGIC\0";

/// The version this library writes; it reads this one and versions 1 and 2.
pub const BINARY_VERSION: u32 = 3;

/// Bytes of the header's fields; the rest of the header is zero.
const HEADER_FIELDS: usize = 32;

/// Bytes before the entries in a file of `version`: version 3 pads the header so that the
/// table starts on a multiple of 64 bytes.
const fn header_bytes(version: u32) -> usize {
    if version >= 3 { 64 } else { HEADER_FIELDS }
}

/// Entries in a set.
const ENTRIES: usize = 128;

/// Bytes per entry in a file of `version`: version 1 had no post mask.
const fn entry_bytes(version: u32) -> usize {
    if version == 1 { 32 } else { 40 }
}

/// Where the attack table starts in a file of `version`.
const fn table_start(version: u32) -> usize {
    header_bytes(version) + ENTRIES * entry_bytes(version)
}

/// Why a binary file was refused: it is not a well-formed export (`Malformed`: another file,
/// another version, truncated, inconsistent sizes), or it is one whose set or table is wrong
/// (`Invalid`: a mask that is not the square's, magics that collide, a table slot its magics
/// do not select), as a text set that parses but does not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BinaryError {
    /// Not a well-formed binary export.
    Malformed(String),
    /// A well-formed export of a set or table that is wrong.
    Invalid(String),
}

impl fmt::Display for BinaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BinaryError::Malformed(message) | BinaryError::Invalid(message) => f.write_str(message),
        }
    }
}

impl core::error::Error for BinaryError {}

fn scheme_code(scheme: Scheme) -> u32 {
    match scheme {
        Scheme::Fancy => 0,
        Scheme::Fixed => 1,
        Scheme::Black => 2,
    }
}

/// `set` and its verified `table` in the binary format.
pub fn to_binary(set: &MagicSet, table: &AttackTable) -> Vec<u8> {
    let mut out = Vec::with_capacity(table_start(BINARY_VERSION) + 8 * table.entries());
    out.extend_from_slice(&BINARY_MAGIC);
    out.extend_from_slice(&BINARY_VERSION.to_le_bytes());
    out.extend_from_slice(&scheme_code(set.scheme).to_le_bytes());
    out.extend_from_slice(&(header_bytes(BINARY_VERSION) as u32).to_le_bytes());
    out.extend_from_slice(&(ENTRIES as u32).to_le_bytes());
    out.extend_from_slice(&(table.entries() as u64).to_le_bytes());
    out.resize(header_bytes(BINARY_VERSION), 0);
    for kind in SliderKind::ALL {
        for (square, entry) in (0..64u8).zip(set.entries(kind)) {
            out.extend_from_slice(&relevant_mask(kind, square).to_le_bytes());
            out.extend_from_slice(&entry.magic.to_le_bytes());
            out.extend_from_slice(&entry.offset.to_le_bytes());
            out.extend_from_slice(&set.post_mask(kind, square).to_le_bytes());
            out.extend_from_slice(&(64 - u32::from(entry.bits)).to_le_bytes());
            out.extend_from_slice(&u32::from(entry.bits).to_le_bytes());
        }
    }
    for attacks in &table.attacks {
        out.extend_from_slice(&attacks.to_le_bytes());
    }
    out
}

/// Little-endian fields read from a byte slice whose length was checked first.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.0[at..at + 4].try_into().expect("four bytes"))
    }

    fn u64(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.0[at..at + 8].try_into().expect("eight bytes"))
    }
}

/// Reads a binary export back: its set and attack table, after checking the header, every
/// entry against the geometry, the length, and the table against a fresh verification of the
/// set (so a file that reads is one whose lookups are right). Nothing is allocated beyond the
/// file's own size and [`MAX_TABLE_ENTRIES`].
pub fn from_binary(bytes: &[u8]) -> Result<(MagicSet, AttackTable), BinaryError> {
    let fail = |message: String| Err(BinaryError::Malformed(message));
    let invalid = |message: String| Err(BinaryError::Invalid(message));
    if bytes.len() < HEADER_FIELDS || bytes[..8] != BINARY_MAGIC {
        return fail("not a bitforge binary magic set (it does not start with BFMAGIC)".into());
    }
    let fields = Fields(bytes);
    let version = fields.u32(8);
    if !(1..=BINARY_VERSION).contains(&version) {
        return fail(format!(
            "format version {version}: this magic-search reads versions 1 to {BINARY_VERSION}"
        ));
    }
    let code = fields.u32(12);
    let Some(scheme) = Scheme::ALL.into_iter().find(|&s| scheme_code(s) == code) else {
        return fail(format!(
            "unknown scheme code {code} (0 fancy, 1 fixed, 2 black)"
        ));
    };
    let (header, entries) = (fields.u32(16), fields.u32(20));
    let header_bytes = header_bytes(version);
    if header as usize != header_bytes || entries as usize != ENTRIES {
        return fail(format!(
            "a header of {header} bytes with {entries} entries: version {version} has \
             {header_bytes} and {ENTRIES}"
        ));
    }
    let table_entries = fields.u64(24);
    if table_entries > MAX_TABLE_ENTRIES as u64 {
        return fail(format!(
            "the header claims {table_entries} attack sets, past the limit of \
             {MAX_TABLE_ENTRIES}"
        ));
    }
    let table_start = table_start(version);
    let expected = table_start + 8 * table_entries as usize;
    if bytes.len() != expected {
        return fail(format!(
            "{} bytes, but the header's {table_entries} attack sets make {expected}",
            bytes.len()
        ));
    }
    if bytes[HEADER_FIELDS..header_bytes]
        .iter()
        .any(|&byte| byte != 0)
    {
        return fail(format!(
            "the header's bytes {HEADER_FIELDS}..{header_bytes} are not zero"
        ));
    }
    let entry_bytes = entry_bytes(version);
    // Rook a1's post mask says whether the set is post-masked; every other entry must agree.
    let mut set = MagicSet {
        scheme,
        rook: [Entry::default(); 64],
        bishop: [Entry::default(); 64],
        post_masked: version > 1 && fields.u64(header_bytes + 24) != u64::MAX,
    };
    for (number, kind) in SliderKind::ALL.into_iter().enumerate() {
        for square in 0..64u8 {
            let at = header_bytes + (number * 64 + usize::from(square)) * entry_bytes;
            let name = || format!("{kind} {}", square_name(square));
            let (mask, magic) = (fields.u64(at), fields.u64(at + 8));
            let offset = fields.u64(at + 16) as i64;
            let (post_mask, at) = if version == 1 {
                (u64::MAX, at + 24)
            } else {
                (fields.u64(at + 24), at + 32)
            };
            let (shift, bits) = (fields.u32(at), fields.u32(at + 4));
            if mask != relevant_mask(kind, square) {
                return invalid(format!(
                    "{}: the mask {mask:#018x} is not the square's",
                    name()
                ));
            }
            if post_mask != set.post_mask(kind, square) {
                return invalid(format!(
                    "{}: post mask {post_mask:#018x} disagrees with rook a1's (all ones in a \
                     plain set, the square's empty-board attacks in a post-masked one)",
                    name()
                ));
            }
            if !(1..=u32::from(MAX_BITS)).contains(&bits) || shift != 64 - bits {
                return fail(format!(
                    "{}: {bits} bits with shift {shift} (bits 1 to {MAX_BITS}, shift 64 - bits)",
                    name()
                ));
            }
            set.entries_mut(kind)[usize::from(square)] = Entry {
                magic,
                bits: bits as u8,
                offset,
            };
        }
    }
    let table = verify(&set).map_err(|error| BinaryError::Invalid(error.to_string()))?;
    if table.entries() as u64 != table_entries {
        return invalid(format!(
            "the header claims {table_entries} attack sets; the entries use {}",
            table.entries()
        ));
    }
    let stored = bytes[table_start..]
        .chunks_exact(8)
        .map(|word| u64::from_le_bytes(word.try_into().expect("eight bytes")));
    if let Some(slot) = stored
        .zip(&table.attacks)
        .position(|(stored, &right)| stored != right)
    {
        return invalid(format!(
            "attack table slot {slot} holds {:#018x}, not what its magics select ({:#018x})",
            fields.u64(table_start + 8 * slot),
            table.attacks[slot]
        ));
    }
    Ok((set, table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn fancy() -> (MagicSet, AttackTable) {
        let set = MagicSet::parse(include_str!("../../core/magics/fancy.magics")).unwrap();
        let table = verify(&set).unwrap();
        (set, table)
    }

    #[test]
    fn a_set_round_trips_through_its_bytes() {
        let (set, table) = fancy();
        let bytes = to_binary(&set, &table);
        assert_eq!(bytes.len(), 5184 + 8 * 107_648);
        assert_eq!(table_start(BINARY_VERSION) % 64, 0);
        assert_eq!(&bytes[..8], b"BFMAGIC\0");
        assert_eq!(from_binary(&bytes), Ok((set.clone(), table.clone())));

        // A post-masked set keeps its masks; version-2 files (a shorter header) and version-1
        // files (no post masks either) still read.
        let masked = MagicSet {
            post_masked: true,
            ..set.clone()
        };
        let masked_table = verify(&masked).unwrap();
        let masked_bytes = to_binary(&masked, &masked_table);
        assert_eq!(
            from_binary(&masked_bytes),
            Ok((masked.clone(), masked_table.clone()))
        );
        assert_eq!(
            from_binary(&older(&masked_bytes, 2)),
            Ok((masked, masked_table))
        );
        assert_eq!(from_binary(&older(&bytes, 1)), Ok((set, table)));
    }

    /// A current file rewritten as `version` 1 or 2: the header's padding dropped, and for
    /// version 1 the post masks.
    fn older(bytes: &[u8], version: u32) -> Vec<u8> {
        let mut old = bytes[..HEADER_FIELDS].to_vec();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        old[16..20].copy_from_slice(&(HEADER_FIELDS as u32).to_le_bytes());
        let current = BINARY_VERSION;
        for entry in bytes[header_bytes(current)..table_start(current)].chunks_exact(40) {
            if version == 1 {
                old.extend_from_slice(&entry[..24]);
                old.extend_from_slice(&entry[32..]);
            } else {
                old.extend_from_slice(entry);
            }
        }
        old.extend_from_slice(&bytes[table_start(current)..]);
        old
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let (set, table) = fancy();
        let good = to_binary(&set, &table);
        let with = |at: usize, patch: &[u8]| {
            let mut bytes = good.clone();
            bytes[at..at + patch.len()].copy_from_slice(patch);
            bytes
        };
        let entries = header_bytes(BINARY_VERSION);
        let cases: [(Vec<u8>, &str); 12] = [
            (b"not a set".to_vec(), "does not start with BFMAGIC"),
            (with(8, &4u32.to_le_bytes()), "format version 4"),
            (with(16, &32u32.to_le_bytes()), "a header of 32 bytes"),
            (with(40, &[1]), "bytes 32..64 are not zero"),
            (with(12, &7u32.to_le_bytes()), "unknown scheme code 7"),
            (with(20, &64u32.to_le_bytes()), "with 64 entries"),
            (with(24, &u64::MAX.to_le_bytes()), "past the limit"),
            (good[..good.len() - 8].to_vec(), "bytes, but the header"),
            (with(entries, &1u64.to_le_bytes()), "rook a1: the mask"),
            (
                with(entries + 32, &50u32.to_le_bytes()),
                "rook a1: 12 bits with shift 50",
            ),
            (
                with(entries + 40 + 24, &1u64.to_le_bytes()),
                "rook b1: post mask 0x0000000000000001 disagrees with rook a1's",
            ),
            (
                with(table_start(BINARY_VERSION) + 8, &1u64.to_le_bytes()),
                "attack table slot 1",
            ),
        ];
        for (bytes, expected) in cases {
            let error = from_binary(&bytes).unwrap_err().to_string();
            assert!(error.contains(expected), "{expected}: {error}");
        }
        // A magic changed: the verification names the collision.
        let collided = with(entries + 8, &1u64.to_le_bytes());
        assert!(
            from_binary(&collided)
                .unwrap_err()
                .to_string()
                .contains("rook a1")
        );
    }
}
