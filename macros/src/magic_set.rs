//! `magic_set!`: a module holding a verified magic set, its attack table and lookup functions.

use bitforge_index::geometry::relevant_mask;
use bitforge_index::{MagicSet, Scheme, SliderKind, verify_against};
use proc_macro::{Literal, TokenStream};

use crate::emit::{fill, packed_array, signed};
use crate::parse::{self, Error, ModuleHeader, Tokens};
use crate::source_file::{self, NamedFile};

/// `#[attrs] VIS mod NAME = "path/to/set.magics";`
pub(crate) struct MagicSetInput {
    header: ModuleHeader,
    path: NamedFile,
}

impl MagicSetInput {
    pub(crate) fn parse(input: TokenStream) -> parse::Result<Self> {
        let mut tokens = Tokens::new(input);
        let header = tokens.module_header()?;
        tokens.punct('=')?;
        let (name, span) = tokens.string()?;
        tokens.optional_punct(';');
        tokens.end("expected nothing after the file name")?;
        Ok(MagicSetInput {
            header,
            path: NamedFile { name, span },
        })
    }
}

/// Reads and verifies the set and writes its module's source, or says why it cannot.
pub(crate) fn expand(input: MagicSetInput) -> parse::Result<String> {
    let path = source_file::resolve(&input.path)?;
    // Messages name the file as the invocation does; the resolved path is in read errors.
    let shown = &input.path.name;
    let text = source_file::read(&input.path, &path)?;
    let at_path = |message: String| Error::new(input.path.span, message);
    let set = MagicSet::parse(&text).map_err(|error| match error.line {
        Some(line) => at_path(format!("{shown}:{line}: {}", error.message)),
        None => at_path(format!("{shown}: {}", error.message)),
    })?;
    let table = verify_against(&set, crate::reference_attacks())
        .map_err(|error| at_path(format!("{shown}: {error}")))?;

    let ModuleHeader {
        attrs,
        visibility,
        name,
    } = input.header;
    let tracked = Literal::string(&path.to_string_lossy()).to_string();
    let scheme = set.scheme.name();
    // The lookups call the one index formula, `Scheme::key` and `magic_index` of
    // `bitforge_index`, as `verify` computed it: the generated code names the crate, so the
    // invoking crate depends on `bitforge-index` (the core does). The match only names the
    // variant; which key each scheme multiplies is written in `Scheme::key`.
    let variant = match set.scheme {
        Scheme::Fancy => "Fancy",
        Scheme::Fixed => "Fixed",
        Scheme::Black => "Black",
    };
    let index = |mask: &str, magic: &str, shift: &str| {
        format!(
            "::bitforge_index::magic_index(\
             ::bitforge_index::Scheme::{variant}.key(occupancy, {mask}), {magic}, {shift})"
        )
    };
    // A black magic's key ORs in the mask's complement, so the fields keep the complement
    // (`!` twice folds away): one instruction less per lookup than complementing the mask.
    let (stored_mask, read_mask) = match set.scheme {
        Scheme::Black => ("!entries[square].mask", "!self.key_masks[square]"),
        Scheme::Fancy | Scheme::Fixed => ("entries[square].mask", "self.key_masks[square]"),
    };
    // Where every square of a piece has the same shift (fixed-shift and black sets), the
    // lookup shifts by a constant instead of loading it: one load less per lookup.
    let shift_of = |kind: SliderKind, fields: &str| {
        let entries = set.entries(kind);
        let bits = entries[0].bits;
        if entries.iter().all(|entry| entry.bits == bits) {
            format!("{}u32", 64 - u32::from(bits))
        } else {
            format!("{fields}.shifts[square]")
        }
    };
    // A post-masked set's lookups AND the slot with the square's empty-board attacks; a plain
    // set's carry no mask field, and so no extra load.
    let post_masked = set.post_masked;
    let (post_masks_field, post_masks_init, post_masks_copy) = if post_masked {
        (
            "post_masks: [u64; 64],",
            "post_masks: [0; 64],",
            "fields.post_masks[square] = entries[square].post_mask;",
        )
    } else {
        ("", "", "")
    };
    let post_mask_of = |fields: &str| {
        if post_masked {
            format!("& {fields}.post_masks[square]")
        } else {
            String::new()
        }
    };

    Ok(fill(
        r#"
        $attrs
        $visibility mod $name {
            // Makes the set a tracked input: editing the file rebuilds the crate.
            const _: &[u8] = include_bytes!($tracked);

            #[doc = "The set's index formula: `$scheme`."]
            pub const SCHEME: &str = "$scheme";

            #[doc = "Slots in [`ATTACKS`]: $length."]
            pub const ENTRIES: usize = $length;

            /// Whether a lookup ANDs the slot with the square's empty-board attacks
            /// ([`Entry::post_mask`]): a combined table whose slots serve several squares.
            pub const POST_MASKED: bool = $post_masked;

            /// One square's magic.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Entry {
                /// The relevant occupancy: the square's rays without their last square.
                pub mask: u64,
                /// The magic multiplier.
                pub magic: u64,
                /// `64 - bits`: the shift that keeps the index's bits.
                pub shift: u32,
                /// The slot of index 0 in [`ATTACKS`] (it may be negative in a packed set,
                /// whose smallest index need not be 0).
                pub offset: isize,
                /// What a lookup ANDs with the slot: the square's empty-board attacks when
                /// [`POST_MASKED`], every square otherwise.
                pub post_mask: u64,
            }

            impl Entry {
                /// The slot in [`ATTACKS`] that `occupancy` selects.
                #[inline(always)]
                pub const fn slot(&self, occupancy: u64) -> usize {
                    let index = $entry_index;
                    (self.offset as usize).wrapping_add(index)
                }

                /// The attacks for `occupancy`: the slot's set, masked by
                /// [`post_mask`](Self::post_mask).
                #[inline(always)]
                pub fn attacks(&self, occupancy: u64) -> u64 {
                    ATTACKS[self.slot(occupancy)] & self.post_mask
                }
            }

            /// Rook entries by square (`a1 = 0`, `h8 = 63`).
            pub static ROOK: [Entry; 64] = [$rook];

            /// Bishop entries by square (`a1 = 0`, `h8 = 63`).
            pub static BISHOP: [Entry; 64] = [$bishop];

            /// One piece's entries field by field, as the lookups read them: a square's
            /// number addresses each field directly instead of being scaled by the 32-byte
            /// [`Entry`] first (one instruction less per lookup).
            #[derive(Debug)]
            pub struct Fields {
                /// The masks, complemented for a black magic.
                key_masks: [u64; 64],
                magics: [u64; 64],
                shifts: [u32; 64],
                offsets: [isize; 64],
                $post_masks_field
            }

            impl Fields {
                const fn new(entries: &[Entry; 64]) -> Fields {
                    let mut fields = Fields {
                        key_masks: [0; 64],
                        magics: [0; 64],
                        shifts: [0; 64],
                        offsets: [0; 64],
                        $post_masks_init
                    };
                    let mut square = 0;
                    while square < 64 {
                        fields.key_masks[square] = $stored_mask;
                        fields.magics[square] = entries[square].magic;
                        fields.shifts[square] = entries[square].shift;
                        fields.offsets[square] = entries[square].offset;
                        $post_masks_copy
                        square += 1;
                    }
                    fields
                }

                /// The slot in [`ATTACKS`] that `occupancy` selects for `square` (`0..64`),
                /// as [`Entry::slot`] gives it.
                #[inline(always)]
                pub const fn slot(&self, square: usize, occupancy: u64) -> usize {
                    self.slot_shifted(square, occupancy, self.shifts[square])
                }

                /// [`slot`](Self::slot) with the square's shift given, a constant in the
                /// lookups of a piece whose squares all have the same.
                #[inline(always)]
                const fn slot_shifted(&self, square: usize, occupancy: u64, shift: u32) -> usize {
                    let index = $fields_index;
                    (self.offsets[square] as usize).wrapping_add(index)
                }
            }

            /// [`ROOK`] field by field.
            pub static ROOK_FIELDS: Fields = Fields::new(&ROOK);

            /// [`BISHOP`] field by field.
            pub static BISHOP_FIELDS: Fields = Fields::new(&BISHOP);

            /// Attack sets by slot, shared by both pieces; unused slots hold 0.
            pub static ATTACKS: [u64; ENTRIES] = $attacks;

            /// The squares a rook on `square` (`0..64`) attacks when `occupancy` is occupied.
            ///
            /// # Panics
            ///
            /// If `square` is 64 or more.
            #[inline(always)]
            pub fn rook_attacks(square: usize, occupancy: u64) -> u64 {
                let slot = ROOK_FIELDS.slot_shifted(square, occupancy, $rook_shift);
                // SAFETY: the macro verified every relevant occupancy of every square, and
                // `slot` sees only the relevant bits, so the slot is inside the table.
                #[allow(unsafe_code)]
                let attacks = unsafe { *ATTACKS.get_unchecked(slot) };
                attacks $rook_post_mask
            }

            /// The squares a bishop on `square` (`0..64`) attacks when `occupancy` is occupied.
            ///
            /// # Panics
            ///
            /// If `square` is 64 or more.
            #[inline(always)]
            pub fn bishop_attacks(square: usize, occupancy: u64) -> u64 {
                let slot = BISHOP_FIELDS.slot_shifted(square, occupancy, $bishop_shift);
                // SAFETY: as for `rook_attacks`.
                #[allow(unsafe_code)]
                let attacks = unsafe { *ATTACKS.get_unchecked(slot) };
                attacks $bishop_post_mask
            }
        }
        "#,
        &[
            ("attrs", &attrs),
            ("visibility", &visibility),
            ("name", &name),
            ("tracked", &tracked),
            ("scheme", scheme),
            ("length", &table.entries().to_string()),
            ("post_masked", &post_masked.to_string()),
            (
                "entry_index",
                &index("self.mask", "self.magic", "self.shift"),
            ),
            ("rook", &entries(&set, SliderKind::Rook)),
            ("bishop", &entries(&set, SliderKind::Bishop)),
            ("post_masks_field", post_masks_field),
            ("post_masks_init", post_masks_init),
            ("stored_mask", stored_mask),
            ("post_masks_copy", post_masks_copy),
            (
                "fields_index",
                &index(read_mask, "self.magics[square]", "shift"),
            ),
            ("attacks", &packed_array(&table.attacks)),
            ("rook_shift", &shift_of(SliderKind::Rook, "ROOK_FIELDS")),
            ("rook_post_mask", &post_mask_of("ROOK_FIELDS")),
            (
                "bishop_shift",
                &shift_of(SliderKind::Bishop, "BISHOP_FIELDS"),
            ),
            ("bishop_post_mask", &post_mask_of("BISHOP_FIELDS")),
        ],
    ))
}

/// The `Entry { .. }` literals of one piece, comma-separated.
fn entries(set: &MagicSet, kind: SliderKind) -> String {
    let literals: Vec<String> = set
        .entries(kind)
        .iter()
        .zip(0u8..)
        .map(|(entry, square)| {
            format!(
                "Entry {{ mask: {:#x}u64, magic: {:#x}u64, shift: {}u32, offset: {}, post_mask: {:#x}u64 }}",
                relevant_mask(kind, square),
                entry.magic,
                64 - u32::from(entry.bits),
                signed(entry.offset),
                set.post_mask(kind, square),
            )
        })
        .collect();
    literals.join(", ")
}
