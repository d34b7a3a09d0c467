//! A crate other than bitforge embedding a set of its own, with the lookups the macro writes.

bitforge_macros::magic_set! {
    /// This crate's magics.
    pub mod magics = "../../../core/magics/fancy.magics";
}

bitforge_macros::pext_tables!(mod pext);

fn main() {
    // A rook on d4 with pieces on d6 and f4.
    let occupancy = (1u64 << 43) | (1 << 29);
    let attacks = magics::rook_attacks(27, occupancy);
    assert_eq!(attacks, 0x0000_0808_3708_0808);
    assert_eq!(magics::SCHEME, "fancy");
    assert_eq!(magics::ENTRIES, pext::ENTRIES);
}
