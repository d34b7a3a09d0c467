//! Reading the macros' small inputs token by token.
//!
//! Every input is a few tokens (an optional constructor path, or a module header and a file
//! name), so they are read here directly rather than with `syn`, whose compilation sat on the
//! critical path of every clean build of a crate that uses bitforge (results/build-budget.md).

use proc_macro::{Delimiter, Group, Literal, Span, TokenStream, TokenTree, token_stream};

/// A parse or expansion error: a message at a span, emitted as `compile_error!`.
#[derive(Debug)]
pub(crate) struct Error {
    span: Span,
    message: String,
}

/// A result whose error becomes a compile error.
pub(crate) type Result<T> = core::result::Result<T, Error>;

impl Error {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Error {
        Error {
            span,
            message: message.into(),
        }
    }

    /// `::core::compile_error! { "message" }`, every token at the span: braces, so that it
    /// stands as an item or an expression alike.
    pub(crate) fn into_compile_error(self) -> TokenStream {
        let message = Literal::string(&self.message);
        let call = format!("::core::compile_error! {{ {message} }}");
        at_span(
            call.parse().expect("a call with a string literal"),
            self.span,
        )
    }
}

/// `tokens` with every token, those inside groups too, at `span`.
fn at_span(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| {
            let mut token = match token {
                TokenTree::Group(group) => {
                    TokenTree::Group(Group::new(group.delimiter(), at_span(group.stream(), span)))
                }
                other => other,
            };
            token.set_span(span);
            token
        })
        .collect()
}

/// The tokens of an input, read front to back.
pub(crate) struct Tokens {
    tokens: core::iter::Peekable<token_stream::IntoIter>,
    last_span: Span,
}

impl Tokens {
    pub(crate) fn new(input: TokenStream) -> Tokens {
        Tokens {
            tokens: input.into_iter().peekable(),
            last_span: Span::call_site(),
        }
    }

    fn next(&mut self) -> Option<TokenTree> {
        let token = self.tokens.next()?;
        self.last_span = token.span();
        Some(token)
    }

    /// Where the next token is, or the end of the input.
    fn next_span(&mut self) -> Span {
        self.tokens.peek().map_or(self.last_span, TokenTree::span)
    }

    /// An error at the next token (or at the end).
    fn error(&mut self, message: impl Into<String>) -> Error {
        Error::new(self.next_span(), message)
    }

    fn is_empty(&mut self) -> bool {
        self.tokens.peek().is_none()
    }

    fn next_is_punct(&mut self, punct: char) -> bool {
        matches!(self.tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == punct)
    }

    fn next_is_ident(&mut self, word: &str) -> bool {
        matches!(self.tokens.peek(), Some(TokenTree::Ident(i)) if i.to_string() == word)
    }

    /// Takes `punct` if it comes next.
    pub(crate) fn optional_punct(&mut self, punct: char) -> bool {
        let present = self.next_is_punct(punct);
        if present {
            self.next();
        }
        present
    }

    /// Takes `punct`, or fails with "expected `punct`".
    pub(crate) fn punct(&mut self, punct: char) -> Result<()> {
        if self.optional_punct(punct) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{punct}`")))
        }
    }

    /// Fails unless the input is used up.
    pub(crate) fn end(&mut self, message: &str) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    /// The rest of the input as the path of a tuple-struct constructor (`Bitboard`,
    /// `crate::Bitboard`), as source text, or `None` when the input is empty.
    pub(crate) fn constructor_path(mut self) -> Result<Option<String>> {
        if self.is_empty() {
            return Ok(None);
        }
        let mut path = TokenStream::new();
        let mut expect_name = true;
        while let Some(token) = self.tokens.peek() {
            let fits = match token {
                TokenTree::Ident(_) => expect_name,
                TokenTree::Punct(p) => p.as_char() == ':',
                _ => false,
            };
            if !fits {
                return Err(self.error(
                    "expected only the path of a tuple-struct constructor, such as `Bitboard`",
                ));
            }
            expect_name = matches!(token, TokenTree::Punct(_));
            path.extend([self.next().expect("peeked")]);
        }
        if expect_name {
            return Err(Error::new(self.last_span, "expected a name after `::`"));
        }
        Ok(Some(path.to_string()))
    }

    /// `#[attrs] VIS mod NAME`: the start of every module-generating macro's input.
    pub(crate) fn module_header(&mut self) -> Result<ModuleHeader> {
        let mut attrs = TokenStream::new();
        while self.next_is_punct('#') {
            let pound = self.next().expect("peeked");
            match self.next() {
                Some(group @ TokenTree::Group(_)) if is_group(&group, Delimiter::Bracket) => {
                    attrs.extend([pound, group]);
                }
                _ => return Err(Error::new(self.last_span, "expected `[` after `#`")),
            }
        }
        let mut visibility = TokenStream::new();
        if self.next_is_ident("pub") {
            visibility.extend(self.next());
            if self
                .tokens
                .peek()
                .is_some_and(|token| is_group(token, Delimiter::Parenthesis))
            {
                visibility.extend(self.next());
            }
        }
        if !self.next_is_ident("mod") {
            return Err(self.error("expected `mod`"));
        }
        self.next();
        match self.next() {
            Some(TokenTree::Ident(name)) => Ok(ModuleHeader {
                attrs: attrs.to_string(),
                visibility: visibility.to_string(),
                name: name.to_string(),
            }),
            _ => Err(Error::new(self.last_span, "expected the module's name")),
        }
    }

    /// A string literal (`"..."` or `r"..."`): its value and where it is.
    pub(crate) fn string(&mut self) -> Result<(String, Span)> {
        let value = match self.tokens.peek() {
            Some(TokenTree::Literal(literal)) => string_value(&literal.to_string()),
            _ => None,
        };
        let value = value.ok_or_else(|| self.error("expected a string literal"))?;
        self.next();
        Ok((value, self.last_span))
    }
}

/// The attributes (doc comments), visibility and name of the module to generate, as source
/// text.
pub(crate) struct ModuleHeader {
    pub(crate) attrs: String,
    pub(crate) visibility: String,
    pub(crate) name: String,
}

fn is_group(token: &TokenTree, delimiter: Delimiter) -> bool {
    matches!(token, TokenTree::Group(group) if group.delimiter() == delimiter)
}

/// The value of a string literal's source text: `"..."` with its escapes, or a raw
/// `r#"..."#`; `None` for any other literal.
fn string_value(source: &str) -> Option<String> {
    if let Some(raw) = source.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        return Some(body.strip_prefix('"')?.strip_suffix('"')?.to_owned());
    }
    let body = source.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            value.push(c);
            continue;
        }
        match chars.next()? {
            'n' => value.push('\n'),
            'r' => value.push('\r'),
            't' => value.push('\t'),
            '0' => value.push('\0'),
            '\\' => value.push('\\'),
            '\'' => value.push('\''),
            '"' => value.push('"'),
            'x' => {
                let code = u8::from_str_radix(chars.as_str().get(..2)?, 16).ok()?;
                value.push(char::from(code).is_ascii().then_some(char::from(code))?);
                chars.nth(1)?;
            }
            'u' => {
                let rest = chars.as_str().strip_prefix('{')?;
                let close = rest.find('}')?;
                let code = u32::from_str_radix(&rest[..close].replace('_', ""), 16).ok()?;
                value.push(char::from_u32(code)?);
                chars = rest[close + 1..].chars();
            }
            // A line continuation: the newline and the next line's leading whitespace go.
            '\n' => chars = chars.as_str().trim_start().chars(),
            _ => return None,
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_values_as_rust_reads_them() {
        assert_eq!(
            string_value(r#""a/b.magics""#).as_deref(),
            Some("a/b.magics")
        );
        assert_eq!(
            string_value(r#""tab\there\\ \"q\" \x41\u{e9}""#).as_deref(),
            Some("tab\there\\ \"q\" Aé")
        );
        assert_eq!(string_value(r##"r#"raw\n"#"##).as_deref(), Some("raw\\n"));
        assert_eq!(string_value(r#"r"x""#).as_deref(), Some("x"));
        assert_eq!(
            string_value("\"one \\\n    two\"").as_deref(),
            Some("one two")
        );
        assert_eq!(string_value("12u8"), None);
        assert_eq!(string_value(r#"b"bytes""#), None);
        assert_eq!(string_value(r#""bad \q""#), None);
    }
}
