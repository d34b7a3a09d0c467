//! Turning computed tables into array literals.

use proc_macro::TokenStream;
use proc_macro2::{Literal, TokenStream as TokenStream2};
use quote::quote;
use syn::Path;
use syn::parse::{Parse, ParseStream};

/// The optional element constructor: `table!()` or `table!(path::To::Wrapper)`.
struct Wrapper(Option<Path>);

impl Parse for Wrapper {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Ok(Wrapper(None));
        }
        let path: Path = input.parse()?;
        if !input.is_empty() {
            return Err(input.error(
                "expected only the path of a tuple-struct constructor, such as `Bitboard`",
            ));
        }
        Ok(Wrapper(Some(path)))
    }
}

/// Parses the optional wrapper and emits the table, or the parse error as a compile error.
pub(crate) fn table(
    input: TokenStream,
    body: impl FnOnce(Option<&Path>) -> TokenStream2,
) -> TokenStream {
    match syn::parse::<Wrapper>(input) {
        Ok(Wrapper(path)) => body(path.as_ref()).into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Emits the table of a macro that takes no arguments.
pub(crate) fn no_arguments(input: TokenStream, body: impl FnOnce() -> TokenStream2) -> TokenStream {
    if input.is_empty() {
        body().into()
    } else {
        let input = TokenStream2::from(input);
        syn::Error::new_spanned(input, "this macro takes no arguments")
            .to_compile_error()
            .into()
    }
}

/// One element: `0x...u64` or `Wrapper(0x...u64)`.
pub(crate) fn element(value: u64, wrap: Option<&Path>) -> TokenStream2 {
    let literal = Literal::u64_suffixed(value);
    match wrap {
        Some(path) => quote!(#path(#literal)),
        None => quote!(#literal),
    }
}

/// `[e0, e1, ...]`.
pub(crate) fn list(values: &[u64], wrap: Option<&Path>) -> TokenStream2 {
    let elements = values.iter().map(|&value| element(value, wrap));
    quote!([#(#elements),*])
}

/// `[[...], [...], ...]`.
pub(crate) fn grid(rows: &[Vec<u64>], wrap: Option<&Path>) -> TokenStream2 {
    let rows = rows.iter().map(|row| list(row, wrap));
    quote!([#(#rows),*])
}

/// `[[u8; N]; M]`.
pub(crate) fn distances(rows: &[Vec<u8>]) -> TokenStream2 {
    let rows = rows.iter().map(|row| {
        let cells = row.iter().map(|&value| Literal::u8_suffixed(value));
        quote!([#(#cells),*])
    });
    quote!([#(#rows),*])
}

/// An unsigned integer type that large tables are emitted as.
pub(crate) trait Element: Copy {
    /// The type's name, such as `u64`.
    const TYPE: &'static str;
    /// The value's bytes, least significant first.
    fn le_bytes(self) -> Vec<u8>;
}

impl Element for u64 {
    const TYPE: &'static str = "u64";
    fn le_bytes(self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
}

impl Element for u16 {
    const TYPE: &'static str = "u16";
    fn le_bytes(self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
}

/// A `[T; N]` expression for a large table, emitted as one byte-string literal that is
/// reinterpreted as integers.
///
/// One literal instead of `N` integer tokens makes the expansion and rustc's handling of it
/// several times cheaper (a 430k-entry table: 0.27 s instead of 1.1 s). The bytes are
/// little-endian; a big-endian target swaps them in a `const` loop, slower to build but right.
pub(crate) fn packed_array<T: Element>(values: &[T]) -> TokenStream2 {
    let bytes: Vec<u8> = values.iter().flat_map(|value| value.le_bytes()).collect();
    let literal = Literal::byte_string(&bytes);
    let length = Literal::usize_unsuffixed(values.len());
    let width = Literal::usize_unsuffixed(bytes.len());
    let element: syn::Type = syn::parse_str(T::TYPE).expect("an integer type name");
    quote! {{
        const BYTES: [u8; #width] = *#literal;
        // SAFETY: `[u8; size_of::<T>() * N]` and `[T; N]` have the same size, every bit pattern
        // is a valid unsigned integer, and `transmute` moves the value (no alignment needed).
        #[allow(unsafe_code, unused_mut, clippy::undocumented_unsafe_blocks)]
        let mut table = unsafe { ::core::mem::transmute::<[u8; #width], [#element; #length]>(BYTES) };
        #[cfg(target_endian = "big")]
        {
            let mut index = 0;
            while index < #length {
                table[index] = #element::from_le(table[index]);
                index += 1;
            }
        }
        table
    }}
}

/// An `isize` literal, negative values included.
pub(crate) fn signed(value: i64) -> TokenStream2 {
    let magnitude = Literal::u64_unsuffixed(value.unsigned_abs());
    if value < 0 {
        quote!((-(#magnitude as isize)))
    } else {
        quote!(#magnitude)
    }
}
