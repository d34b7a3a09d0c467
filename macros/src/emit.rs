//! Writing computed tables as Rust source, handed to the compiler as tokens.
//!
//! The expansions are written as source text and parsed once by the compiler's own lexer
//! (`proc_macro` alone, no `quote` and `proc-macro2`): their compilation sat on the critical
//! path of every clean build of a crate that uses bitforge (results/build-budget.md).

use std::fmt::Write;

use proc_macro::{Literal, Span, TokenStream};

use crate::parse::{Error, Result, Tokens};

/// The element constructor a table macro may name (`table!(path::To::Wrapper)`), as source.
type Path = str;

/// The tokens of an expansion's source, or its error as a compile error.
pub(crate) fn expansion(source: Result<String>) -> TokenStream {
    let source = match source {
        Ok(source) => source,
        Err(error) => return error.into_compile_error(),
    };
    source.parse().unwrap_or_else(|error| {
        Error::new(
            Span::call_site(),
            format!("bitforge-macros wrote source that does not parse ({error}): a bug"),
        )
        .into_compile_error()
    })
}

/// `template` with each `$name` replaced by the value given for `name` (a `$` before no name
/// stays).
///
/// # Panics
///
/// If the template names a placeholder without a value: the macro's own mistake, found by
/// any expansion of it.
pub(crate) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut filled = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(dollar) = rest.find('$') {
        filled.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let length = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..length];
        rest = &after[length..];
        if name.is_empty() {
            filled.push('$');
            continue;
        }
        let (_, value) = values
            .iter()
            .find(|(placeholder, _)| *placeholder == name)
            .unwrap_or_else(|| panic!("no value for `${name}`"));
        filled.push_str(value);
    }
    filled.push_str(rest);
    filled
}

/// Reads the optional element constructor (`table!()` or `table!(path::To::Wrapper)`) and
/// emits the table, or the parse error as a compile error.
pub(crate) fn table(input: TokenStream, body: impl FnOnce(Option<&Path>) -> String) -> TokenStream {
    expansion(
        Tokens::new(input)
            .constructor_path()
            .map(|path| body(path.as_deref())),
    )
}

/// Emits the table of a macro that takes no arguments.
pub(crate) fn no_arguments(input: TokenStream, body: impl FnOnce() -> String) -> TokenStream {
    expansion(
        Tokens::new(input)
            .end("this macro takes no arguments")
            .map(|()| body()),
    )
}

/// One element: `0x...u64` or `Wrapper(0x...u64)`.
fn element(value: u64, wrap: Option<&Path>) -> String {
    match wrap {
        Some(path) => format!("{path}({value:#x}u64)"),
        None => format!("{value:#x}u64"),
    }
}

/// `[e0, e1, ...]`.
pub(crate) fn list(values: &[u64], wrap: Option<&Path>) -> String {
    let elements: Vec<String> = values.iter().map(|&value| element(value, wrap)).collect();
    format!("[{}]", elements.join(", "))
}

/// `[[W; width]; height]`, each row of `rows` a row of the table (all of one length).
///
/// Emitted as one packed `u64` array that a `const` loop wraps element by element: a few
/// tokens instead of one constructor call per element, which rustc type-checks one by one.
pub(crate) fn grid(rows: &[Vec<u64>], wrap: Option<&Path>) -> String {
    let height = rows.len().to_string();
    let width = rows.first().map_or(0, Vec::len).to_string();
    let flat: Vec<u64> = rows.concat();
    let (element, zero) = match wrap {
        Some(path) => (
            format!("{path}(RAW[row * {width} + column])"),
            format!("{path}(0)"),
        ),
        None => (format!("RAW[row * {width} + column]"), "0u64".to_owned()),
    };
    fill(
        "{
            const RAW: [u64; $cells] = $packed;
            let mut table = [[const { $zero }; $width]; $height];
            let mut row = 0;
            while row < $height {
                let mut column = 0;
                while column < $width {
                    table[row][column] = $element;
                    column += 1;
                }
                row += 1;
            }
            table
        }",
        &[
            ("cells", &flat.len().to_string()),
            ("packed", &packed_array(&flat)),
            ("zero", &zero),
            ("width", &width),
            ("height", &height),
            ("element", &element),
        ],
    )
}

/// `[[u8; N]; M]`.
pub(crate) fn distances(rows: &[Vec<u8>]) -> String {
    let mut source = String::from("[");
    for row in rows {
        let cells: Vec<String> = row.iter().map(|value| format!("{value}u8")).collect();
        write!(source, "[{}], ", cells.join(", ")).expect("writing to a String");
    }
    source.push(']');
    source
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
pub(crate) fn packed_array<T: Element>(values: &[T]) -> String {
    let mut bytes = Vec::with_capacity(size_of_val(values));
    for &value in values {
        value.push_le_bytes(&mut bytes);
    }
    fill(
        "{
            const BYTES: [u8; $width] = *$literal;
            // SAFETY: `[u8; size_of::<T>() * N]` and `[T; N]` have the same size, every bit
            // pattern is a valid unsigned integer, and `transmute` moves the value (no
            // alignment needed).
            #[allow(unsafe_code, unused_mut, clippy::undocumented_unsafe_blocks)]
            let mut table = unsafe { ::core::mem::transmute::<[u8; $width], [$element; $length]>(BYTES) };
            #[cfg(target_endian = \"big\")]
            {
                let mut index = 0;
                while index < $length {
                    table[index] = $element::from_le(table[index]);
                    index += 1;
                }
            }
            table
        }",
        &[
            ("width", &bytes.len().to_string()),
            ("literal", &Literal::byte_string(&bytes).to_string()),
            ("element", T::TYPE),
            ("length", &values.len().to_string()),
        ],
    )
}

/// An `isize` literal, negative values included.
pub(crate) fn signed(value: i64) -> String {
    if value < 0 {
        format!("(-({} as isize))", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{distances, fill, list, signed};

    #[test]
    fn placeholders_filled_by_name() {
        let filled = fill(
            "[$a; $a_b] $a$",
            &[("a", "u8"), ("a_b", "4"), ("unused", "x")],
        );
        assert_eq!(filled, "[u8; 4] u8$");
    }

    #[test]
    #[should_panic(expected = "no value for `$missing`")]
    fn a_placeholder_without_a_value_is_the_macros_bug() {
        fill("$missing", &[]);
    }

    #[test]
    fn literals_as_rust_reads_them() {
        assert_eq!(list(&[1, 255], None), "[0x1u64, 0xffu64]");
        assert_eq!(list(&[2], Some("crate::B")), "[crate::B(0x2u64)]");
        assert_eq!(distances(&[vec![0, 7]]), "[[0u8, 7u8], ]");
        assert_eq!(signed(-3), "(-(3 as isize))");
        assert_eq!(signed(12), "12");
    }
}
