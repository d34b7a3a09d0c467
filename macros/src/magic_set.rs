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
        Scheme::Black => ("!entry.mask", "!self.key_mask"),
        Scheme::Fancy | Scheme::Fixed => ("entry.mask", "self.key_mask"),
    };
    // Where every square of a piece has the same shift (fixed-shift and black sets), the
    // lookup shifts by a constant instead of loading it: one load less per lookup.
    let shift_of = |kind: SliderKind| {
        let entries = set.entries(kind);
        let bits = entries[0].bits;
        if entries.iter().all(|entry| entry.bits == bits) {
            format!("{}u32", 64 - u32::from(bits))
        } else {
            "fields.shift as u32".to_owned()
        }
    };
    // A post-masked set's lookups AND the slot with the square's empty-board attacks; a plain
    // set's carry no mask field, and so no extra load.
    let post_masked = set.post_masked;
    let (post_mask_field, post_mask_init, post_mask_read) = if post_masked {
        (
            "post_mask: u64,",
            "post_mask: entry.post_mask,",
            "& fields.post_mask",
        )
    } else {
        ("", "", "")
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

            /// One piece's fields of one square as the lookups read them (the mask
            /// complemented for a black magic, the shift widened to a word).
            #[derive(Clone, Copy, Debug)]
            #[repr(C)]
            pub struct PieceFields {
                key_mask: u64,
                magic: u64,
                shift: u64,
                offset: isize,
                $post_mask_field
            }

            impl PieceFields {
                const fn new(entry: &Entry) -> PieceFields {
                    PieceFields {
                        key_mask: $stored_mask,
                        magic: entry.magic,
                        shift: entry.shift as u64,
                        offset: entry.offset,
                        $post_mask_init
                    }
                }

                /// The slot in [`ATTACKS`] that `occupancy` selects, as [`Entry::slot`]
                /// gives it.
                #[inline(always)]
                pub const fn slot(&self, occupancy: u64) -> usize {
                    self.slot_shifted(occupancy, self.shift as u32)
                }

                /// [`slot`](Self::slot) with the shift given, a constant in the lookups of a
                /// piece whose squares all have the same.
                #[inline(always)]
                const fn slot_shifted(&self, occupancy: u64, shift: u32) -> usize {
                    let index = $fields_index;
                    (self.offset as usize).wrapping_add(index)
                }
            }

            /// Both pieces' fields of one square together, in one cache line (two for a
            /// post-masked set): a queen's two lookups read one line, and one scaled square
            /// addresses every field.
            #[derive(Clone, Copy, Debug)]
            #[repr(C, align(64))]
            pub struct SquareFields {
                /// The rook's.
                pub rook: PieceFields,
                /// The bishop's.
                pub bishop: PieceFields,
            }

            /// [`ROOK`] and [`BISHOP`] as the lookups read them, by square.
            pub static FIELDS: [SquareFields; 64] = {
                let mut fields = [SquareFields {
                    rook: PieceFields::new(&ROOK[0]),
                    bishop: PieceFields::new(&BISHOP[0]),
                }; 64];
                let mut square = 1;
                while square < 64 {
                    fields[square] = SquareFields {
                        rook: PieceFields::new(&ROOK[square]),
                        bishop: PieceFields::new(&BISHOP[square]),
                    };
                    square += 1;
                }
                fields
            };

            /// Attack sets by slot, shared by both pieces; unused slots hold 0.
            pub static ATTACKS: [u64; ENTRIES] = $attacks;

            /// The squares a rook on `square` (`0..64`) attacks when `occupancy` is occupied.
            ///
            /// # Panics
            ///
            /// If `square` is 64 or more.
            #[inline(always)]
            pub fn rook_attacks(square: usize, occupancy: u64) -> u64 {
                let fields = &FIELDS[square].rook;
                let slot = fields.slot_shifted(occupancy, $rook_shift);
                // SAFETY: the macro verified every relevant occupancy of every square, and
                // `slot` sees only the relevant bits, so the slot is inside the table.
                #[allow(unsafe_code)]
                let attacks = unsafe { *ATTACKS.get_unchecked(slot) };
                attacks $post_mask_read
            }

            /// The squares a bishop on `square` (`0..64`) attacks when `occupancy` is occupied.
            ///
            /// # Panics
            ///
            /// If `square` is 64 or more.
            #[inline(always)]
            pub fn bishop_attacks(square: usize, occupancy: u64) -> u64 {
                let fields = &FIELDS[square].bishop;
                let slot = fields.slot_shifted(occupancy, $bishop_shift);
                // SAFETY: as for `rook_attacks`.
                #[allow(unsafe_code)]
                let attacks = unsafe { *ATTACKS.get_unchecked(slot) };
                attacks $post_mask_read
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
            ("post_mask_field", post_mask_field),
            ("post_mask_init", post_mask_init),
            ("stored_mask", stored_mask),
            ("fields_index", &index(read_mask, "self.magic", "shift")),
            ("attacks", &packed_array(&table.attacks)),
            ("rook_shift", &shift_of(SliderKind::Rook)),
            ("bishop_shift", &shift_of(SliderKind::Bishop)),
            ("post_mask_read", post_mask_read),
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
