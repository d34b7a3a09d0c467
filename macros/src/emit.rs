//! Turning computed tables into array literals.

use proc_macro::TokenStream;
use proc_macro2::{Ident, Literal, Span, TokenStream as TokenStream2};
use quote::quote;

use crate::parse::Tokens;

/// The element constructor a table macro may name (`table!(path::To::Wrapper)`).
type Path = TokenStream2;

/// Reads the optional element constructor (`table!()` or `table!(path::To::Wrapper)`) and
/// emits the table, or the parse error as a compile error.
pub(crate) fn table(
    input: TokenStream,
    body: impl FnOnce(Option<&Path>) -> TokenStream2,
) -> TokenStream {
    match Tokens::new(input.into()).constructor_path() {
        Ok(path) => body(path.as_ref()).into(),
        Err(error) => error.into_compile_error().into(),
    }
}

/// Emits the table of a macro that takes no arguments.
pub(crate) fn no_arguments(input: TokenStream, body: impl FnOnce() -> TokenStream2) -> TokenStream {
    let mut tokens = Tokens::new(input.into());
    match tokens.end("this macro takes no arguments") {
        Ok(()) => body().into(),
        Err(error) => error.into_compile_error().into(),
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

/// `[[W; width]; height]`, each row of `rows` a row of the table (all of one length).
///
/// Emitted as one packed `u64` array that a `const` loop wraps element by element: a few
/// tokens instead of one constructor call per element, which rustc type-checks one by one.
pub(crate) fn grid(rows: &[Vec<u64>], wrap: Option<&Path>) -> TokenStream2 {
    let height = rows.len();
    let width = rows.first().map_or(0, Vec::len);
    let flat: Vec<u64> = rows.concat();
    let cells = flat.len();
    let packed = packed_array(&flat);
    let (element, zero) = match wrap {
        Some(path) => (quote!(#path(RAW[row * #width + column])), quote!(#path(0))),
        None => (quote!(RAW[row * #width + column]), quote!(0u64)),
    };
    quote!({
        const RAW: [u64; #cells] = #packed;
        let mut table = [[const { #zero }; #width]; #height];
        let mut row = 0;
        while row < #height {
            let mut column = 0;
            while column < #width {
                table[row][column] = #element;
                column += 1;
            }
            row += 1;
        }
        table
    })
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
    /// Appends the value's bytes, least significant first.
    fn push_le_bytes(self, bytes: &mut Vec<u8>);
}

impl Element for u64 {
    const TYPE: &'static str = "u64";
    fn push_le_bytes(self, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(&self.to_le_bytes());
    }
}

impl Element for u16 {
    const TYPE: &'static str = "u16";
    fn push_le_bytes(self, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(&self.to_le_bytes());
    }
}

/// A `[T; N]` expression for a large table, emitted as one byte-string literal that is
/// reinterpreted as integers.
///
/// One literal instead of `N` integer tokens makes the expansion and rustc's handling of it
/// several times cheaper (a 430k-entry table: 0.27 s instead of 1.1 s). The bytes are
/// little-endian; a big-endian target swaps them in a `const` loop, slower to build but right.
pub(crate) fn packed_array<T: Element>(values: &[T]) -> TokenStream2 {
    let mut bytes = Vec::with_capacity(size_of_val(values));
    for &value in values {
        value.push_le_bytes(&mut bytes);
    }
    let literal = Literal::byte_string(&bytes);
    let length = Literal::usize_unsuffixed(values.len());
    let width = Literal::usize_unsuffixed(bytes.len());
    let element = Ident::new(T::TYPE, Span::call_site());
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
