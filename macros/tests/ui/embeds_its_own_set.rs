//! A crate other than bitforge embedding a set of its own, with the lookups the macro writes.

bitforge_macros::magic_set! {
    /// This crate's magics.
    pub mod magics = "../../../core/magics/fancy.magics";
}

bitforge_macros::magic_set! {
    /// The same magics in one post-masked table.
    pub mod combined = "../../../core/magics/fancy-combined.magics";
}

bitforge_macros::pext_tables!(#[allow(dead_code)] pub(crate) mod pext);

fn main() {
    // A rook on d4 with pieces on d6 and f4.
    let occupancy = (1u64 << 43) | (1 << 29);
    let attacks = magics::rook_attacks(27, occupancy);
    assert_eq!(attacks, 0x0000_0808_3708_0808);
    assert_eq!(magics::SCHEME, "fancy");
    assert_eq!(magics::ENTRIES, pext::ENTRIES);
    assert!(combined::POST_MASKED && !magics::POST_MASKED);
    assert!(combined::ENTRIES < magics::ENTRIES);
    for square in 0..64 {
        for occupancy in [0, occupancy, !0, 0x0055_aa55_aa55_aa00] {
            let rook = magics::rook_attacks(square, occupancy);
            assert_eq!(combined::rook_attacks(square, occupancy), rook);
            assert_eq!(combined::ROOK[square].attacks(occupancy), rook);
            let bishop = magics::bishop_attacks(square, occupancy);
            assert_eq!(combined::bishop_attacks(square, occupancy), bishop);
            assert_eq!(combined::BISHOP[square].attacks(occupancy), bishop);
        }
    }
}
