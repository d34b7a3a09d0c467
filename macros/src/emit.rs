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
