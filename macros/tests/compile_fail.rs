//! Bad magic sets are compile errors that say what is wrong; a good one embeds and works.

#[test]
fn magic_sets_at_compile_time() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/embeds_its_own_set.rs");
    cases.compile_fail("tests/ui/bad_arguments.rs");
    cases.compile_fail("tests/ui/collision.rs");
    cases.compile_fail("tests/ui/huge_offset.rs");
    cases.compile_fail("tests/ui/malformed.rs");
    cases.compile_fail("tests/ui/missing_file.rs");
    cases.compile_fail("tests/ui/not_a_module.rs");
    cases.compile_fail("tests/ui/unmasked_combined.rs");
}
